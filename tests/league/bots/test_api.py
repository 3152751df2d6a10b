"""The bot and bot-league API:
registration rights, versions, league lifecycle, standings, matches, records."""

import sys
from pathlib import Path
from unittest import mock

import pytest
from rest_framework.test import APIClient

from league.bots.models import BotDefinition
from league.bots.services.work import work_play
from tests.league.bots.conftest import make_bots, make_league

PROGRAMS = Path(__file__).parent / "programs"
pytestmark = pytest.mark.django_db


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def external(name="Program"):
    return {
        "name": name,
        "game": "nacho_pile",
        "kind": "external",
        "command": [sys.executable, str(PROGRAMS / "first_legal.py")],
    }


def test_a_non_staff_user_cannot_register_an_external_program(member, staff):
    refused = api(member).post("/api/bots/", external(), format="json")
    anonymous = api().post("/api/bots/", external(), format="json")
    accepted = api(staff).post("/api/bots/", external(), format="json")

    assert (refused.status_code, anonymous.status_code) == (403, 401)
    assert accepted.status_code == 201
    assert accepted.json()["command"] == external()["command"]
    assert BotDefinition.objects.count() == 1


def test_a_missing_program_or_an_unknown_strategy_is_a_400_naming_the_field(staff):
    missing = api(staff).post("/api/bots/", {**external(), "command": ["/no/such/bot"]}, format="json")
    unknown = api(staff).post(
        "/api/bots/", {"name": "X", "game": "nacho_pile", "strategy": "genius"}, format="json"
    )

    assert missing.status_code == 400 and missing.json()["field"] == "command"
    assert (
        missing.json()["detail"]
        == "no executable program '/no/such/bot' on this machine (it must exist on every worker)"
    )
    assert unknown.status_code == 400 and unknown.json()["field"] == "strategy"


def test_a_league_through_the_api_from_creation_to_records(staff, member):
    bots = make_bots(staff)
    body = {
        "name": "API season",
        "game": "nacho_pile",
        "bots": [b.pk for b in bots],
        "table_size": 3,
        "target_value": 2,
        "sittings_per_round": 1,
    }
    created = api(staff).post("/api/bot-leagues/", body, format="json")
    league_id = created.json()["id"]
    assert created.status_code == 201 and created.json()["status"] == "draft"
    assert api(member).post(f"/api/bot-leagues/{league_id}/start/").status_code == 403

    with mock.patch("league.bots.services.leagues.queue_work"):
        started = api(staff).post(f"/api/bot-leagues/{league_id}/start/")
        work_play(league_id=league_id, worker="test")
    again = api(staff).post(f"/api/bot-leagues/{league_id}/start/")
    standings = api().get(f"/api/bot-leagues/{league_id}/standings/").json()
    matches = api().get(f"/api/bot-leagues/{league_id}/matches/").json()
    first = matches["results"][0]
    record = api().get(f"/api/bot-leagues/{league_id}/matches/{first['match']}/record/").json()

    assert started.json()["status"] == "running"
    assert again.status_code == 400 and again.json()["detail"] == "a finished league cannot be started"
    assert sorted(row["matches"] for row in standings) == [2] * 6
    assert [row["rank"] for row in standings] == sorted(row["rank"] for row in standings)
    assert matches["count"] == 4 and [m["position"] for m in matches["results"]] == [0, 1, 2, 3]
    assert record["outcome"]["places"] == [seat["place"] for seat in first["seats"]]
    assert record["game"] == "nacho_pile" and len(record["seats"]) == 3


def test_changing_a_bot_that_has_played_returns_its_next_version(staff):
    bots = make_bots(staff)
    with mock.patch("league.bots.services.leagues.queue_work"):
        league = (
            api(staff)
            .post(
                "/api/bot-leagues/",
                {
                    "name": "S",
                    "game": "nacho_pile",
                    "bots": [b.pk for b in bots],
                    "table_size": 3,
                    "target_value": 1,
                },
                format="json",
            )
            .json()
        )
        api(staff).post(f"/api/bot-leagues/{league['id']}/start/")

    revised = api(staff).patch(f"/api/bots/{bots[1].pk}/", {"params": {"caution": 4.0}}, format="json").json()

    assert (revised["name"], revised["version"], revised["params"], revised["previous"]) == (
        "Careful",
        2,
        {"caution": 4.0},
        bots[1].pk,
    )
    assert BotDefinition.objects.get(pk=bots[1].pk).params == {"caution": 1.5}


def test_a_missing_league_or_an_unplayed_record_is_a_404_with_its_code(staff):
    league = make_league(staff, make_bots(staff), name="Unplayed")
    with mock.patch("league.bots.services.leagues.queue_work"):
        api(staff).post(f"/api/bot-leagues/{league.pk}/start/")
    first = api().get(f"/api/bot-leagues/{league.pk}/matches/").json()["results"][0]
    unplayed = api().get(f"/api/bot-leagues/{league.pk}/matches/{first['match']}/record/")
    missing = api(staff).post("/api/bot-leagues/4040/start/")

    assert (unplayed.status_code, unplayed.json()) == (
        404,
        {"code": "not_played", "detail": "this match has not been played yet", "errors": []},
    )
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
