"""JSON bodies nested deeper than the bound answer 400 on every API write, before any view logic; a body at
the bound and brackets inside strings parse as usual."""

import json

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.bots.services.definitions import bot_register
from league.bots.services.ladders import ladder_create
from league.bots.services.leagues import league_create
from league.core.json_input import MAX_DEPTH
from league.players.models import Player
from league.tournaments import services as tournament_services
from tests.factories import MatchFactory, UserFactory
from tests.factories import tournaments as helpers
from tests.league.api_errors import body_error, field_error_body

DEEP = '{"name": ' + "[" * 1000 + "1" + "]" * 1000 + "}"
TOO_DEEP = body_error(
    f"JSON parse error - arrays and objects are nested deeper than {MAX_DEPTH} levels", "parse_error"
)


def client_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


@pytest.fixture
def world(staff, players):
    """One of everything an API write names by id in its path, keyed by the path's first segment."""
    bots = [
        bot_register(name=f"Randy {n}", game_id="nacho_pile", kind="builtin", strategy="random", by=staff)
        for n in range(2)
    ]
    league = league_create(
        name="Ladder", game_id="nacho_pile", bot_ids=[bot.pk for bot in bots], table_size=2, by=staff
    )
    tournament, entrants = helpers.make_tournament(staff, 4, table_size=2, rounds=2)
    round_row = tournament_services.round_generate(tournament=tournament, by=staff)
    return {
        "bot-leagues": league.pk,
        "ladders": ladder_create(name="Open ladder", game_id="nacho_pile", table_size=2, by=staff).pk,
        "challenges": None,  # /api/challenges/: no id in the path
        "version-tests": None,  # /api/version-tests/: no id either
        "bots": bots[0].pk,
        "matches": MatchFactory(players=players).pk,
        "players": players[0].pk,
        "tournament-rounds": round_row.pk,
        "tournament-tables": round_row.tables.first().pk,
        "tournaments": tournament.pk,
        "player_id": entrants[0].pk,
        "me": None,  # /api/me/player/: no id in the path
        "claims": None,  # /api/claims/ and /api/claims/redeem/
        "notifications": None,  # /api/notifications/read/
        "webhooks": None,  # /api/webhooks/
    }


def writes_with_a_body(client) -> list[tuple[str, str]]:
    schema = json.loads(client.get("/api/schema/?format=json").content)
    return [
        (method, path)
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if method in ("post", "put", "patch") and "requestBody" in operation
    ]


def test_every_api_write_refuses_a_body_nested_1000_deep(staff, world):
    api = client_for(staff)
    writes = writes_with_a_body(api)
    assert len(writes) == 54
    for method, path in writes:
        url = (
            path.replace("{id}", str(world[path.split("/")[2]]))
            .replace("{player_id}", str(world["player_id"]))
            .replace("{call_id}", "1")
        )
        response = getattr(api, method)(url, DEEP, content_type="application/json")
        assert (method, url, response.status_code, response.json()) == (method, url, 400, TOO_DEEP)


def test_a_signed_in_member_posting_a_deep_tournament_gets_a_400(db):
    response = client_for(UserFactory()).post("/api/tournaments/", DEEP, content_type="application/json")
    assert (response.status_code, response.json()) == (400, TOO_DEEP)


def test_a_body_at_the_bound_parses_and_brackets_in_strings_do_not_count(staff, db):
    api = client_for(staff)
    at_bound = '{"name": ' + "[" * (MAX_DEPTH - 1) + '"Zed"' + "]" * (MAX_DEPTH - 1) + "}"
    response = api.post("/api/players/", at_bound, content_type="application/json")
    assert (response.status_code, response.json()) == (400, field_error_body("name", "Not a valid string."))
    one_deeper = '{"name": ' + "[" * MAX_DEPTH + '"Zed"' + "]" * MAX_DEPTH + "}"
    assert api.post("/api/players/", one_deeper, content_type="application/json").json() == TOO_DEEP
    bracketed = json.dumps({"name": "Zed " + "[{" * 30 + '\\"'})
    response = api.post("/api/players/", bracketed, content_type="application/json")
    assert response.status_code == 201, response.json()
    assert Player.objects.get(pk=response.json()["id"]).name == "Zed " + "[{" * 30 + '\\"'


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (
            '{"name": "\\ud800"}',
            "a \\u escape stands for half a UTF-16 surrogate pair, which is not a character",
        ),
        ('{"name": "Zed", "options": {"a": 1e999}}', "the number 1e999 is too large"),
    ],
)
def test_a_body_no_column_could_store_is_a_400(staff, db, body, problem):
    for url in "/api/players/", "/api/matches/":
        response = client_for(staff).post(url, body, content_type="application/json")
        assert (response.status_code, response.json()) == (
            400,
            body_error(f"JSON parse error - {problem}", "parse_error"),
        )
    assert not Player.objects.exists()
