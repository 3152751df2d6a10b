"""A challenge's matches are private: its challenger, the authors of the bots it seats and staff see them;
to anyone else they do not exist (404 on the match's page and in the API, absent from the lists, from the
bot's and the player's pages and from the bot's error and time-out rates)."""

import importlib
from unittest import mock

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from league.bots.models import ChallengeMatch, Fixture
from league.bots.selectors import ForfeitRates, bot_forfeit_rates
from league.bots.services.challenges import challenge_create
from league.bots.services.leagues import league_start
from league.bots.services.work import work_play
from league.matches.models import Match, MatchViewer
from tests.league.bots.conftest import make_bots, make_league

pytestmark = pytest.mark.django_db

migration = importlib.import_module("league.bots.migrations.0011_challenge_matches_private")

User = get_user_model()


@pytest.fixture
def played(staff, member):
    """Faller (the member's bot, which raises at its first decision) in one public league match against Plain
    (the author's) and Careful (staff's), then in a challenge of three matches against them, all played."""
    author = User.objects.create_user("author", password="pw-author-1")
    faller, plain, careful = make_bots(
        staff, (("Faller", "raises", {}), ("Plain", "random", {}), ("Careful", "heuristic", {}))
    )
    faller.created_by = member
    faller.save(update_fields=["created_by"])
    plain.created_by = author
    plain.save(update_fields=["created_by"])
    league = make_league(staff, [faller, plain, careful], target_value=1, sittings_per_round=1)
    with mock.patch("league.bots.services.leagues.queue_work"):
        league_start(league_id=league.pk)
        work_play(league_id=league.pk, worker="test")
    with mock.patch("league.bots.services.challenges.queue_challenge_work"):
        challenge = challenge_create(
            bot_id=faller.pk, opponent_ids=[plain.pk, careful.pk], matches=3, seed=7, by=member
        )
    assert work_play(worker="test") == 3
    public = Fixture.objects.get(league=league).match_id
    private = list(
        ChallengeMatch.objects.filter(challenge=challenge)
        .order_by("index")
        .values_list("match_id", flat=True)
    )
    return {"faller": faller, "author": author, "public": public, "private": private, "challenge": challenge}


def client_of(user):
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def viewers(staff, member, played):
    """Who sees the challenge's matches: its challenger, the author of a bot it seats, and staff (another
    staff user than the author of Careful, so no viewer row of theirs)."""
    other_staff = User.objects.create_user("admin", password="pw-admin-1", is_staff=True)
    return {"challenger": member, "author": played["author"], "staff": other_staff}


@pytest.fixture
def strangers(db):
    return {"anonymous": None, "stranger": User.objects.create_user("stranger", password="pw-stranger-1")}


def test_a_challenge_schedules_private_matches_with_their_viewers(staff, member, played):
    assert Match.objects.get(pk=played["public"]).visibility == "public"
    assert (
        list(Match.objects.filter(pk__in=played["private"]).values_list("visibility", flat=True))
        == ["private"] * 3
    )
    # The challenger, Plain's author and Careful's (staff, who registered it); Faller's author is the
    # challenger.
    expected = sorted([member.pk, played["author"].pk, staff.pk])
    for match_id in played["private"]:
        assert (
            sorted(MatchViewer.objects.filter(match_id=match_id).values_list("user_id", flat=True))
            == expected
        )
    assert not MatchViewer.objects.filter(match_id=played["public"]).exists()


@pytest.mark.parametrize("who", ["anonymous", "stranger"])
def test_to_a_stranger_a_challenge_match_does_not_exist(played, strangers, who):
    client = client_of(strangers[who])
    private, public = played["private"][0], played["public"]
    assert client.get(f"/matches/{private}/").status_code == 404
    assert client.get(f"/matches/{public}/").status_code == 200
    assert client.get(f"/api/matches/{private}/").status_code == 404
    assert client.get(f"/api/matches/{private}/results/").status_code == 404
    listed = client.get("/api/matches/").json()
    assert (listed["count"], [row["id"] for row in listed["results"]]) == (1, [public])
    assert client.get("/api/matches/", {"player": played["faller"].player_id}).json()["count"] == 1
    page = client.get("/matches/").content.decode()
    assert f'href="/matches/{public}/"' in page
    assert all(f'href="/matches/{match_id}/"' not in page for match_id in played["private"])
    player_page = client.get(played["faller"].player.get_absolute_url()).content.decode()
    assert f'href="/matches/{public}/"' in player_page
    assert all(f'href="/matches/{match_id}/"' not in player_page for match_id in played["private"])


@pytest.mark.parametrize("who", ["challenger", "author", "staff"])
def test_the_challenger_the_seated_authors_and_staff_see_a_challenge_match(played, viewers, who):
    client = client_of(viewers[who])
    private, public = played["private"][0], played["public"]
    assert client.get(f"/matches/{private}/").status_code == 200
    assert client.get(f"/api/matches/{private}/").json()["id"] == private
    assert len(client.get(f"/api/matches/{private}/results/").json()) == 1
    listed = client.get("/api/matches/").json()
    assert (listed["count"], [row["id"] for row in listed["results"]]) == (
        4,
        [*played["private"][::-1], public],
    )
    page = client.get("/matches/").content.decode()
    assert all(f'href="/matches/{match_id}/"' in page for match_id in [public, *played["private"]])
    player_page = client.get(played["faller"].player.get_absolute_url()).content.decode()
    assert all(f'href="/matches/{match_id}/"' in player_page for match_id in [public, *played["private"]])
    assert client.get(reverse("bots:replay", args=[private])).status_code == 200


def test_a_strangers_replay_of_a_challenge_match_is_refused_as_before(played, strangers):
    replay = reverse("bots:replay", args=[played["private"][0]])
    assert client_of(strangers["stranger"]).get(replay).status_code == 403
    assert client_of(None).get(replay).status_code == 302  # to the log-in page


def test_the_bots_page_and_its_rates_leave_challenge_matches_out_for_a_stranger(played, viewers, strangers):
    faller = played["faller"]
    # Faller raised in every match: one public (the league's), three of the challenge.
    for who in strangers.values():
        assert bot_forfeit_rates(faller, viewer=who) == ForfeitRates(matches=1, errors=1, timeouts=0)
    for who in viewers.values():
        assert bot_forfeit_rates(faller, viewer=who) == ForfeitRates(matches=4, errors=4, timeouts=0)
    replays = [reverse("bots:replay", args=[match_id]) for match_id in played["private"]]
    public_replay = reverse("bots:replay", args=[played["public"]])
    for who in strangers.values():
        page = client_of(who).get(faller.get_absolute_url()).content.decode()
        assert "Over 1 match: <strong>100% errors</strong> (1:" in page
        assert f'href="{public_replay}"' in page
        assert all(f'href="{replay}"' not in page for replay in replays)
    for who in viewers.values():
        page = client_of(who).get(faller.get_absolute_url()).content.decode()
        assert "Over 4 matches: <strong>100% errors</strong> (4:" in page
        assert all(f'href="{replay}"' in page for replay in [public_replay, *replays])


def test_the_data_migration_makes_existing_challenge_matches_private(staff, member, played):
    Match.objects.update(visibility="public")
    MatchViewer.objects.all().delete()

    migration.challenge_matches_private(apps, None)

    assert Match.objects.get(pk=played["public"]).visibility == "public"
    assert set(Match.objects.filter(pk__in=played["private"]).values_list("visibility", flat=True)) == {
        "private"
    }
    expected = sorted([member.pk, played["author"].pk, staff.pk])
    for match_id in played["private"]:
        assert (
            sorted(MatchViewer.objects.filter(match_id=match_id).values_list("user_id", flat=True))
            == expected
        )
    assert not MatchViewer.objects.filter(match_id=played["public"]).exists()


def queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_filter_adds_no_query_as_private_matches_grow(member, played, viewers, strangers):
    faller = played["faller"]
    urls = ["/matches/", "/api/matches/", faller.get_absolute_url(), faller.player.get_absolute_url()]
    clients = [client_of(user) for user in [*viewers.values(), *strangers.values()]]
    before = [[queries(client, url) for url in urls] for client in clients]
    with mock.patch("league.bots.services.challenges.queue_challenge_work"):
        challenge_create(
            bot_id=faller.pk,
            opponent_ids=[*played["challenge"].opponents.values_list("pk", flat=True)],
            matches=5,
            seed=8,
            by=member,
        )
    assert work_play(worker="test") == 5
    assert [[queries(client, url) for url in urls] for client in clients] == before
    assert client_of(viewers["author"]).get("/api/matches/").json()["count"] == 9
    assert client_of(strangers["stranger"]).get("/api/matches/").json()["count"] == 1


def test_staff_find_the_private_matches_in_the_admin_and_cannot_change_who_sees_them(played, viewers):
    client = client_of(User.objects.create_superuser("root", password="pw-root-1"))
    private = client.get("/admin/matches/match/", {"visibility__exact": "private"})
    assert private.status_code == 200
    assert sorted(row.pk for row in private.context["cl"].result_list) == sorted(played["private"])
    change = client.get(f"/admin/matches/match/{played['private'][0]}/change/")
    assert change.status_code == 200
    assert "visibility" not in change.context["adminform"].form.fields  # shown read-only
    assert '<div class="readonly">Private</div>' in change.content.decode()
    assert client_of(viewers["challenger"]).get("/admin/matches/match/").status_code == 302
