"""The author chooses which versions of their bot stay active in a ladder: several at once, or only the
newest. Each change is an entry-log event, so the ladder's schedule still replays from its seed and log."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from league.bots import matchmaking
from league.bots.ladder_versions import LadderVersions, VersionState, ladder_versions
from league.bots.models import Fixture, LadderEvent, LeagueEntry
from league.bots.selectors import my_bots
from league.bots.services.definitions import bot_register, bot_revise
from league.bots.services.ladders import (
    ladder_enter,
    ladder_version_activate,
    ladder_version_deactivate,
)
from league.bots.services.leagues import ladder_log, league_start, next_position
from league.bots.services.work import work_play
from league.bots.uploads import bot_upload
from league.core.errors import Forbidden, UserError
from tests.league.bots.conftest import make_bots
from tests.league.bots.crafted import BOT
from tests.league.bots.test_ladders import (
    make_ladder,
    play_rounds,
    schedule_bytes_from_the_database,
    schedule_bytes_replayed,
)

pytestmark = pytest.mark.django_db


def seated_from(ladder, bot, position):
    """The ladder's fixtures from `position` on that seat `bot`."""
    return Fixture.objects.filter(
        league=ladder, position__gte=position, match__seats__player_id=bot.player_id
    ).count()


@pytest.fixture
def ladder_with_two_versions(staff, member):
    """A ladder of three of staff's bots and the member's Hen, whose version 2 replaced version 1 after two
    rounds."""
    bots = make_bots(staff)[:3]
    hen = bot_register(name="Hen", game_id="nacho_pile", kind="builtin", strategy="heuristic", by=staff)
    hen.created_by = member
    hen.save(update_fields=["created_by"])
    ladder = make_ladder(staff)
    for bot in [*bots, hen]:
        ladder_enter(ladder_id=ladder.pk, bot_id=bot.pk, by=staff)
    league_start(league_id=ladder.pk)
    work_play(league_id=ladder.pk, worker="test")  # round 1, drawn by the start
    play_rounds(ladder, 1)
    hen.refresh_from_db()
    hen2 = bot_revise(bot=hen, by=member, params={"caution": 0.7})  # it replaces version 1 in the ladder
    assert hen2.version == 2
    return ladder, bots, hen, hen2


def test_two_versions_play_at_once_and_a_deactivated_one_plays_no_more(member, ladder_with_two_versions):
    ladder, bots, hen, hen2 = ladder_with_two_versions
    members = {bot.pk for bot in bots}
    assert set(matchmaking.ladder_members(ladder_log(ladder), next_position(ladder))) == members | {hen2.pk}

    back = ladder_version_activate(ladder_id=ladder.pk, bot_id=hen.pk, by=member)

    assert (back.action, back.bot, back.reason) == ("enter", hen, "activated by its author")
    play_rounds(ladder, 2)
    assert seated_from(ladder, hen, back.position) > 0 and seated_from(ladder, hen2, back.position) > 0

    off = ladder_version_deactivate(ladder_id=ladder.pk, bot_id=hen2.pk, by=member)

    assert (off.action, off.bot, off.reason) == ("leave", hen2, "deactivated by its author")
    play_rounds(ladder, 3)
    assert next_position(ladder) > off.position
    assert seated_from(ladder, hen2, off.position) == 0
    assert seated_from(ladder, hen, off.position) > 0
    assert set(matchmaking.ladder_members(ladder_log(ladder), next_position(ladder))) == members | {hen.pk}
    # The schedule from nothing but the seed and the entry log is the stored one, fixture for fixture.
    assert schedule_bytes_replayed(ladder) == schedule_bytes_from_the_database(ladder)
    reasons = list(LadderEvent.objects.filter(league=ladder).order_by("seq").values_list("bot_id", "reason"))
    assert reasons[-4:] == [
        (hen.pk, "replaced by Hen v2"),
        (hen2.pk, ""),
        (hen.pk, "activated by its author"),
        (hen2.pk, "deactivated by its author"),
    ]


def test_the_versions_active_per_ladder_are_read_in_two_queries(
    member, ladder_with_two_versions, django_assert_num_queries
):
    ladder, _, hen, hen2 = ladder_with_two_versions
    ladder_version_activate(ladder_id=ladder.pk, bot_id=hen.pk, by=member)
    versions = [version for bot in my_bots(member) for version in bot.versions]

    with django_assert_num_queries(2):
        rows = ladder_versions(versions)

    assert rows == {
        (member.pk, "nacho_pile", "Hen"): [
            LadderVersions(ladder, [VersionState(hen2, True), VersionState(hen, True)])
        ]
    }
    ladder_version_deactivate(ladder_id=ladder.pk, bot_id=hen2.pk, by=member)
    assert [
        state.active for state in ladder_versions(versions)[(member.pk, "nacho_pile", "Hen")][0].versions
    ] == [
        False,
        True,
    ]


def test_a_version_that_left_comes_back_forgiven_its_forfeits(member, ladder_with_two_versions):
    ladder, _, hen, _ = ladder_with_two_versions
    LeagueEntry.objects.filter(league=ladder, bot=hen).update(forfeit_streak=3)

    ladder_version_activate(ladder_id=ladder.pk, bot_id=hen.pk, by=member)

    assert LeagueEntry.objects.get(league=ladder, bot=hen).forfeit_streak == 0


def test_refusals(staff, member, ladder_with_two_versions):
    ladder, bots, hen, hen2 = ladder_with_two_versions
    stranger = get_user_model().objects.create_user("stranger", password="pw-stranger-1")
    chickens = bot_register(name="Coop", game_id="chicken_foot", kind="builtin", strategy="random", by=member)
    uploading = bot_upload(by=member, game_id="nacho_pile", name="Checking", data=BOT)
    events = LadderEvent.objects.count()

    with pytest.raises(Forbidden):
        ladder_version_activate(ladder_id=ladder.pk, bot_id=hen.pk, by=stranger)
    with pytest.raises(Forbidden):
        ladder_version_deactivate(ladder_id=ladder.pk, bot_id=bots[0].pk, by=member)  # staff's bot
    with pytest.raises(UserError, match="is active in this ladder already"):
        ladder_version_activate(ladder_id=ladder.pk, bot_id=hen2.pk, by=member)
    with pytest.raises(UserError, match="is not in this ladder"):
        ladder_version_deactivate(ladder_id=ladder.pk, bot_id=hen.pk, by=member)
    with pytest.raises(UserError, match="plays another game"):
        ladder_version_activate(ladder_id=ladder.pk, bot_id=chickens.pk, by=member)
    with pytest.raises(UserError, match="still being checked"):
        ladder_version_activate(ladder_id=ladder.pk, bot_id=uploading.pk, by=member)
    with pytest.raises(UserError, match="no bot with this id"):
        ladder_version_activate(ladder_id=ladder.pk, bot_id="1; drop table", by=member)
    assert LadderEvent.objects.count() == events


def test_my_bots_page_shows_and_changes_the_versions_in_each_ladder(member, ladder_with_two_versions):
    ladder, _, hen, hen2 = ladder_with_two_versions
    client = Client()
    client.force_login(member)

    html = client.get(reverse("bots:mine")).content.decode()

    assert "Versions in ladders" in html and ">Nacho ladder</bdi></a>" in html
    assert 'aria-label="Activate version 1 in Nacho ladder"' in html
    assert 'aria-label="Deactivate version 2 in Nacho ladder"' in html
    url = reverse("bots:ladder-version", args=[ladder.pk, "activate"])
    response = client.post(url, {"bot": hen.pk, "back": "mine"})
    assert response.status_code == 302 and response["Location"] == reverse("bots:mine")
    assert (
        LadderEvent.objects.filter(league=ladder).order_by("-seq").first().reason == "activated by its author"
    )
    again = client.post(url, {"bot": hen.pk}, follow=True)  # back to the version's page, with why
    assert again.redirect_chain[-1][0] == reverse("bots:bot", args=[hen.pk])
    assert "Hen is active in this ladder already" in again.content.decode()
    assert (
        client.post(reverse("bots:ladder-version", args=[ladder.pk, "nope"]), {"bot": hen.pk}).status_code
        == 404
    )
    assert client.get(url).status_code == 405
    page = client.get(reverse("bots:bot", args=[hen2.pk])).content.decode()
    assert 'aria-label="Deactivate version 1 in Nacho ladder"' in page
    anonymous = Client().get(reverse("bots:bot", args=[hen2.pk])).content.decode()
    assert "Versions in ladders" in anonymous and "Deactivate version" not in anonymous


def test_the_api_reads_and_changes_the_versions(member, staff, ladder_with_two_versions):
    ladder, _, hen, hen2 = ladder_with_two_versions
    api = APIClient()
    assert api.post(f"/api/ladders/{ladder.pk}/activate/", {"bot": hen.pk}, format="json").status_code in (
        401,
        403,
    )
    api.force_authenticate(member)

    response = api.post(f"/api/ladders/{ladder.pk}/activate/", {"bot": hen.pk}, format="json")

    assert response.status_code == 201
    assert (response.json()["action"], response.json()["reason"]) == ("enter", "activated by its author")
    read = APIClient().get(f"/api/bots/{hen.pk}/ladder-versions/").json()
    assert read == [
        {
            "ladder": ladder.pk,
            "name": "Nacho ladder",
            "status": "running",
            "versions": [
                {"bot": hen2.pk, "version": 2, "label": "Hen v2", "state": "ready", "active": True},
                {"bot": hen.pk, "version": 1, "label": "Hen", "state": "ready", "active": True},
            ],
        }
    ]
    off = api.post(f"/api/ladders/{ladder.pk}/deactivate/", {"bot": hen2.pk}, format="json")
    assert off.status_code == 200 and off.json()["reason"] == "deactivated by its author"
    refused = api.post(f"/api/ladders/{ladder.pk}/deactivate/", {"bot": hen2.pk}, format="json")
    assert refused.status_code == 400 and refused.json()["field"] == "bot"
    assert api.post(f"/api/ladders/{ladder.pk}/activate/", {"bot": "x"}, format="json").status_code == 400
