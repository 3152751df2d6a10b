"""The ladder and challenge API: who may do what, hostile input, standings and challenge results."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from league.bots.models import Challenge
from league.bots.services.challenges import OPEN_PER_USER
from league.bots.services.definitions import bot_register, bot_revise
from league.bots.services.ladders import ladder_create
from league.bots.services.work import work_play
from tests.league.bots.conftest import make_bots

pytestmark = pytest.mark.django_db


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def page(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def authored(staff, member):
    bots = make_bots(staff)
    mine = bot_register(name="Mine", game_id="nacho_pile", kind="builtin", strategy="random", by=staff)
    mine.created_by = member
    mine.save(update_fields=["created_by"])
    return mine, bots


def test_a_member_challenges_with_their_bot_and_sees_the_results_others_get_403(member, staff, authored):
    mine, bots = authored
    body = {"bot": mine.pk, "opponents": [bots[0].pk, bots[2].pk], "matches": 20, "seed": 9}
    created = api(member).post("/api/challenges/", body, format="json")
    assert created.status_code == 201, created.json()
    challenge_id = created.json()["id"]
    assert (created.json()["match_count"], created.json()["status"], created.json()["played"]) == (
        20,
        "queued",
        0,
    )
    assert work_play(worker="test") == 20

    shown = api(member).get(f"/api/challenges/{challenge_id}/").json()
    assert (shown["status"], shown["played"]) == ("finished", 20)
    assert [line["label"] for line in shown["results"]] == ["Mine", "Random", "Balanced"]
    assert [line["played"] for line in shown["results"]] == [20, 20, 20]
    assert shown["results"][0]["win_share"] == shown["results"][0]["wins"] / 20
    assert len(shown["matches"]) == 20
    assert shown["matches"][0]["replay"] == f"/bots/matches/{shown['matches'][0]['match']}/replay/"
    assert sorted(place for seat in shown["matches"][0]["seats"] for place in [seat["place"]])[0] == 1
    assert api(staff).get(f"/api/challenges/{challenge_id}/").status_code == 200

    other = get_user_model().objects.create_user("other", password="pw-other-1")
    refused = api(other).get(f"/api/challenges/{challenge_id}/")
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    assert api(other).get("/api/challenges/").json()["results"] == []
    assert [c["id"] for c in api(member).get("/api/challenges/").json()["results"]] == [challenge_id]
    assert api().get(f"/api/challenges/{challenge_id}/").status_code == 401
    # The replay of a challenge's match is its challenger's (and staff's) too.
    replay = shown["matches"][0]["replay"]
    assert page(member).get(replay).status_code == 200
    assert page(other).get(replay).status_code == 403
    assert page(None).get(replay)["Location"] == f"/accounts/login/?next={replay}"


def test_hostile_challenges_are_refused_with_4xx_and_a_message(member, staff, authored):
    mine, bots = authored
    good = {"bot": mine.pk, "opponents": [bots[0].pk], "matches": 5}

    def post(user, **changes):
        response = api(user).post("/api/challenges/", {**good, **changes}, format="json")
        return response.status_code, response.json().get("field"), response.json().get("detail")

    assert post(None) == (401, None, "Authentication credentials were not provided.")
    assert post(member, bot=bots[1].pk)[:2] == (403, None)
    assert post(member, bot=bots[1].pk)[2] == "only the owner of Careful (or staff) may challenge with it"
    for matches in (0, 10**9, 101):
        assert post(member, matches=matches)[:2] == (400, "matches")
    assert post(member, matches=2.5) == (400, "matches", "A valid integer is required.")
    assert post(member, matches="many") == (400, "matches", "A valid integer is required.")
    hen = make_bots(staff, (("Hen", "random", {}),), game_id="chicken_foot")[0]
    assert post(member, opponents=[hen.pk]) == (
        400,
        "opponents",
        "these bots play another game than Mine: Hen",
    )
    bot_revise(bot=bots[0], by=staff, params={})  # never played: changed in place
    work_play(worker="test")
    assert post(member, opponents=[10**15])[:2] == (400, "opponents")
    assert post(member, opponents="x")[:2] == (400, "opponents")
    assert post(member, bot="x")[:2] == (400, "bot")
    for _ in range(OPEN_PER_USER):
        assert post(member)[0] == 201
    assert post(member) == (
        400,
        "matches",
        "you have 3 challenges or version tests still playing, the most allowed: wait until one finishes",
    )
    assert Challenge.objects.filter(challenger=member).count() == OPEN_PER_USER


def test_a_retired_version_cannot_be_challenged_nor_challenge(member, staff, authored):
    mine, bots = authored
    assert (
        api(member)
        .post("/api/challenges/", {"bot": mine.pk, "opponents": [bots[0].pk], "matches": 1}, format="json")
        .status_code
        == 201
    )
    work_play(worker="test")
    v2 = bot_revise(bot=bots[0], by=staff, params={})
    assert v2.version == 2
    response = api(member).post(
        "/api/challenges/", {"bot": mine.pk, "opponents": [bots[0].pk], "matches": 1}, format="json"
    )
    assert (response.status_code, response.json()["detail"]) == (
        400,
        "these bots have newer versions, challenge those: Random",
    )


def test_ladders_through_the_api(member, staff, authored):
    mine, bots = authored
    body = {"name": "Open ladder", "game": "nacho_pile", "table_size": 2, "newcomer_matches": 3}
    assert api(member).post("/api/ladders/", body, format="json").status_code == 403
    created = api(staff).post("/api/ladders/", body, format="json")
    assert created.status_code == 201
    ladder = created.json()
    assert (ladder["status"], ladder["newcomer_matches"], ladder["table_size"]) == ("draft", 3, 2)
    url = f"/api/ladders/{ladder['id']}/"

    entered = api(member).post(f"{url}entries/", {"bot": mine.pk}, format="json")
    assert entered.status_code == 201
    assert (entered.json()["action"], entered.json()["label"], entered.json()["position"]) == (
        "enter",
        "Mine",
        0,
    )
    refused = api(member).post(f"{url}entries/", {"bot": bots[0].pk}, format="json")
    assert (refused.status_code, refused.json()["detail"]) == (
        403,
        "only the owner of Random (or staff) may enter or withdraw it",
    )
    assert api().post(f"{url}entries/", {"bot": mine.pk}, format="json").status_code == 401
    assert api(member).post(f"{url}entries/", {"bot": "x"}, format="json").status_code == 400
    assert api(member).post(f"{url}entries/", {"bot": 10**15}, format="json").status_code == 400
    assert api(staff).post(f"{url}entries/", {"bot": bots[0].pk}, format="json").status_code == 201
    assert api(member).post(f"{url}leave/", {"bot": mine.pk}, format="json").status_code == 200
    again = api(member).post(f"{url}leave/", {"bot": mine.pk}, format="json")
    assert (again.status_code, again.json()["detail"]) == (400, "Mine is not in this ladder")

    standings = api().get(f"{url}standings/").json()
    assert [row["label"] for row in standings["current"]] == ["Random"]
    assert [row["label"] for row in standings["retired"]] == ["Mine"]
    log = api().get(f"{url}log/").json()
    assert [(e["action"], e["label"], e["reason"]) for e in log] == [
        ("enter", "Mine", ""),
        ("enter", "Random", ""),
        ("leave", "Mine", "withdrawn"),
    ]
    assert api().get(f"{url}matches/").json()["results"] == []
    assert api().get("/api/ladders/").json()["count"] == 1
    league = ladder_create(name="Another", game_id="nacho_pile", table_size=2, by=staff)
    assert api().get(f"/api/bot-leagues/{league.pk}/").status_code == 200  # a ladder is a league too
    assert api().get("/api/ladders/999999/standings/").status_code == 404
