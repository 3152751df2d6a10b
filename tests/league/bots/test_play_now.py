"""'Play this bot now': from any bot's page, a signed-in author queues an unrated challenge of one of their
ready bots of that game against it (private, capped per user like every challenge)."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from league.bots.models import BotDefinition, Challenge, ChallengeMatch
from league.bots.services.challenges import OPEN_PER_USER
from league.bots.services.definitions import bot_register, bot_revise
from league.bots.services.play_now import play_now
from league.bots.uploads import bot_upload
from league.core.errors import Forbidden, NotFound, UserError
from league.matches.models import Match, MatchViewer
from tests.league.bots.conftest import make_bots
from tests.league.bots.crafted import BOT

pytestmark = pytest.mark.django_db


def members_bot(member, staff, *, name="Member's bot", game_id="nacho_pile", strategy="heuristic"):
    """A ready built-in bot of the member's (registered by staff, then given to the member)."""
    bot = bot_register(name=name, game_id=game_id, kind="builtin", strategy=strategy, by=staff)
    bot.created_by = member
    bot.save(update_fields=["created_by"])
    return bot


@pytest.fixture
def bots(staff):
    return make_bots(staff)


def test_play_now_queues_a_private_unrated_challenge_against_the_bot(staff, member, bots):
    mine = members_bot(member, staff)

    challenge = play_now(opponent_id=bots[2].pk, bot_id=mine.pk, by=member, seed=9)

    assert (challenge.challenger, challenge.bot, challenge.match_count, challenge.seed) == (
        member,
        mine,
        10,
        9,
    )
    assert list(challenge.opponents.all()) == [bots[2]]
    matches = Match.objects.filter(challenge_match__challenge=challenge)
    assert matches.count() == 10
    assert set(matches.values_list("rated", "visibility")) == {(False, Match.Visibility.PRIVATE)}
    assert set(MatchViewer.objects.filter(match__in=matches).values_list("user_id", flat=True)) == {
        member.pk,
        staff.pk,  # the author of the bot played against
    }
    first = ChallengeMatch.objects.get(challenge=challenge, index=0).match
    assert [seat.player_id for seat in first.seats.order_by("seat")] == [mine.player_id, bots[2].player_id]


def test_a_game_of_three_seats_or_more_fills_the_table_with_built_in_bots(staff, member):
    chickens = make_bots(
        staff,
        specs=(("Hen", "random", {}), ("Rooster", "heuristic", {}), ("Chick", "random", {})),
        game_id="nobody_but_us_chickens",
    )
    mine = members_bot(member, staff, game_id="nobody_but_us_chickens")

    challenge = play_now(opponent_id=chickens[1].pk, bot_id=mine.pk, by=member, matches=2)

    assert sorted(bot.pk for bot in challenge.opponents.all()) == [chickens[0].pk, chickens[1].pk]
    first = ChallengeMatch.objects.get(challenge=challenge, index=0).match
    assert first.seats.count() == 3

    other = members_bot(member, staff, name="Other", game_id="nobody_but_us_chickens")
    BotDefinition.objects.filter(pk__in=[chickens[0].pk, chickens[2].pk]).update(created_by=member)
    with pytest.raises(UserError, match="seats at least 3, and there are not enough built-in bots"):
        play_now(opponent_id=chickens[1].pk, bot_id=other.pk, by=member)


def test_refusals_name_the_field(staff, member, bots):
    mine = members_bot(member, staff)
    chickens_bot = members_bot(member, staff, name="Chicken", game_id="chicken_foot", strategy="random")
    stranger = get_user_model().objects.create_user("stranger", password="pw-stranger-1")
    uploading = bot_upload(by=member, game_id="nacho_pile", name="Still checking", data=BOT)
    assert uploading.state == "checking"

    with pytest.raises(Forbidden):
        play_now(opponent_id=bots[0].pk, bot_id=mine.pk, by=None)
    with pytest.raises(NotFound):
        play_now(opponent_id=10**9, bot_id=mine.pk, by=member)
    refusals = [
        ({"bot_id": bots[1].pk}, member, "choose one of your bots"),  # staff's bot, not the member's
        ({"bot_id": mine.pk}, stranger, "choose one of your bots"),
        ({"bot_id": "1 OR 1=1"}, member, "choose one of your bots"),
        ({"bot_id": chickens_bot.pk}, member, "choose a bot of the same game"),
        ({"bot_id": uploading.pk}, member, "still being checked"),
        ({"bot_id": mine.pk, "matches": 0}, member, "matches"),
        ({"bot_id": mine.pk, "matches": 101}, member, "matches"),
    ]
    for values, user, words in refusals:
        with pytest.raises(UserError, match=words):
            play_now(opponent_id=bots[0].pk, by=user, **values)
    with pytest.raises(UserError, match="cannot play itself"):
        play_now(opponent_id=mine.pk, bot_id=mine.pk, by=member)
    with pytest.raises(UserError, match="is still being checked") as caught:
        play_now(opponent_id=uploading.pk, bot_id=mine.pk, by=member)
    assert caught.value.field == "opponent"
    assert not Challenge.objects.exists()


def test_an_older_version_is_refused_and_the_cap_counts_play_now(staff, member, bots):
    mine = members_bot(member, staff)
    play_now(opponent_id=bots[1].pk, bot_id=mine.pk, by=member, matches=1)  # it took a seat
    newer = bot_revise(bot=bots[1], by=staff, params={"caution": 0.1})
    assert newer.version == 2
    with pytest.raises(UserError, match="has a newer version: play against that one"):
        play_now(opponent_id=bots[1].pk, bot_id=mine.pk, by=member)
    for _ in range(OPEN_PER_USER - 1):
        play_now(opponent_id=newer.pk, bot_id=mine.pk, by=member, matches=1)
    with pytest.raises(UserError, match="challenges still playing, the most allowed"):
        play_now(opponent_id=newer.pk, bot_id=mine.pk, by=member, matches=1)
    assert Challenge.objects.filter(challenger=member).count() == OPEN_PER_USER


def test_the_page_offers_a_sign_in_link_then_the_form_and_queues_it(staff, member, bots):
    page = reverse("bots:bot", args=[bots[2].pk])
    anonymous = Client().get(page).content.decode()
    assert f'href="/accounts/login/?next={page}">Sign in</a> to play' in anonymous
    assert 'id="play-now"' not in anonymous

    client = Client()
    client.force_login(member)
    assert 'id="play-no-bots"' in client.get(page).content.decode()  # no bot of this game yet

    mine = members_bot(member, staff)
    html = client.get(page).content.decode()
    assert 'id="play-now"' in html and f'<option value="{mine.pk}">Member&#x27;s bot</option>' in html

    response = client.post(reverse("bots:bot-play", args=[bots[2].pk]), {"bot": mine.pk, "match_count": 3})
    challenge = Challenge.objects.get()
    assert response.status_code == 302 and response["Location"] == challenge.get_absolute_url()
    assert (challenge.bot, challenge.match_count, list(challenge.opponents.all())) == (mine, 3, [bots[2]])


def test_bad_posts_are_form_errors(staff, member, bots):
    mine = members_bot(member, staff)
    chickens_bot = members_bot(member, staff, name="Chicken", game_id="chicken_foot", strategy="random")
    uploading = bot_upload(by=member, game_id="nacho_pile", name="Still checking", data=BOT)
    client = Client()
    client.force_login(member)
    url = reverse("bots:bot-play", args=[bots[2].pk])
    for bot_id in (bots[1].pk, chickens_bot.pk, uploading.pk, "x", ""):  # not theirs, other game, not ready
        response = client.post(url, {"bot": bot_id, "match_count": 3})
        assert response.status_code == 400
        assert "Select a valid choice" in response.content.decode() or "This field is required" in (
            response.content.decode()
        )
    response = client.post(url, {"bot": mine.pk, "match_count": 1000})
    assert response.status_code == 400 and "Ensure this value is less than or equal to 100" in (
        response.content.decode()
    )
    assert client.post(reverse("bots:bot-play", args=[10**9]), {"bot": mine.pk}).status_code == 404
    assert Client().post(url, {"bot": mine.pk, "match_count": 3}).status_code == 302  # to sign in
    assert client.get(url).status_code == 405
    assert not Challenge.objects.exists()


def test_the_api_plays_now_and_refuses_with_400(staff, member, bots):
    mine = members_bot(member, staff)
    api = APIClient()
    url = f"/api/bots/{bots[2].pk}/play/"
    assert api.post(url, {"bot": mine.pk}, format="json").status_code in (401, 403)
    api.force_authenticate(member)

    response = api.post(url, {"bot": mine.pk, "matches": 2, "seed": 4}, format="json")

    assert response.status_code == 201
    body = response.json()
    assert (body["bot"], body["opponents"], body["match_count"], body["seed"]) == (
        mine.pk,
        [bots[2].pk],
        2,
        4,
    )
    refused = api.post(url, {"bot": bots[1].pk}, format="json")
    assert refused.status_code == 400 and refused.json()["field"] == "bot"
    assert api.post(url, {"bot": "x"}, format="json").status_code == 400
    assert api.post(f"/api/bots/{10**9}/play/", {"bot": mine.pk}, format="json").status_code == 404
