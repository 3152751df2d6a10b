"""The REST API: reads for everyone, writes for staff with a token, clear 400/409 errors, never a 500."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.core.errors import ErrorCode
from league.matches.models import Match
from league.players.models import Player
from league.results.models import ResultVersion
from tests.factories import MatchFactory, PlayerFactory


def test_games_come_from_the_registry(api, db):
    games = api.get("/api/games/").json()
    assert [g["id"] for g in games] == [
        "nacho_pile",
        "nobody_but_us_chickens",
        "chicken_foot",
        "chickie_nuggs",
    ]
    assert games[2]["score_order"] == "low"


def test_anyone_reads_players_matches_results_and_ratings(api, match_of, submit):
    match = match_of()
    submit(match, [1, 1, 2, 3])

    players = api.get("/api/players/?name=a").json()
    assert [p["name"] for p in players["results"]] == ["Ann", "Cat", "Dan"]
    matches = api.get("/api/matches/?game=nacho_pile&status=finished").json()
    assert matches["count"] == 1
    assert [(s["player"]["name"], s["place"]) for s in matches["results"][0]["seats"]] == [
        ("Ann", 1),
        ("Bob", 1),
        ("Cat", 3),
        ("Dan", 4),
    ]
    versions = api.get(f"/api/matches/{match.pk}/results/").json()
    assert [(v["version"], v["places"], v["entered_by"]) for v in versions] == [
        (1, [1, 1, 3, 4], "organizer")
    ]
    ratings = api.get("/api/ratings/?game=nacho_pile").json()["results"]
    assert [r["player"]["name"] for r in ratings][:2] in (["Ann", "Bob"], ["Bob", "Ann"])
    assert ratings[0]["uncertainty"] == pytest.approx(3 * ratings[0]["sigma"])
    history = api.get(f"/api/rating-history/?player={match.seats.get(seat=2).player_id}").json()["results"]
    assert [(h["match"], h["mu_before"]) for h in history] == [(match.pk, 25.0)]


def test_visitors_and_members_cannot_write(api, member_api, match_of):
    match = match_of()
    writes = [
        ("post", "/api/players/", {"name": "Zed"}),
        ("patch", f"/api/players/{match.seats.first().player_id}/", {"active": False}),
        ("post", "/api/matches/", {"game": "nacho_pile", "players": [1, 2]}),
        ("post", f"/api/matches/{match.pk}/results/", {"expected_version": 0, "places": [1, 2, 3, 4]}),
    ]
    for method, url, body in writes:
        assert getattr(api, method)(url, body, format="json").status_code == 401
        response = getattr(member_api, method)(url, body, format="json")
        assert response.status_code == 403
        assert response.json()["detail"] == "only staff can change league data"
    assert (Player.objects.count(), Match.objects.count(), ResultVersion.objects.count()) == (4, 1, 0)


def test_organizer_creates_players_and_matches_and_enters_results(organizer_api, players):
    created = organizer_api.post("/api/players/", {"name": "Eve"}, format="json")
    assert created.status_code == 201 and created.json()["slug"] == "eve"
    renamed = organizer_api.patch(f"/api/players/{created.json()['id']}/", {"name": "Evelyn"}, format="json")
    assert renamed.json()["name"] == "Evelyn"

    body = {
        "game": "chicken_foot",
        "players": [players[1].pk, players[0].pk],
        "options": {"set": "double_six"},
    }
    match = organizer_api.post("/api/matches/", body, format="json")
    assert match.status_code == 201
    match_id = match.json()["id"]
    assert match.json()["options"]["set"] == "double_six"

    first = organizer_api.post(
        f"/api/matches/{match_id}/results/", {"expected_version": 0, "scores": [7, 2]}, format="json"
    )
    assert first.status_code == 201
    assert (first.json()["version"], first.json()["places"]) == (1, [2, 1])

    stale = organizer_api.post(
        f"/api/matches/{match_id}/results/", {"expected_version": 0, "places": [1, 2]}, format="json"
    )
    assert stale.status_code == 409
    assert stale.json()["code"] == "version_conflict"
    assert stale.json()["current_version"] == 1

    fixed = organizer_api.post(
        f"/api/matches/{match_id}/results/",
        {"expected_version": 1, "scores": [2, 7], "reason": "scores swapped"},
        format="json",
    )
    assert fixed.status_code == 201 and fixed.json()["places"] == [1, 2]


BAD_WRITES = [
    ("post", "/api/players/", {}, "name", "This field is required."),
    ("post", "/api/players/", {"name": "  "}, "name", "a player needs a name"),
    ("post", "/api/players/", {"name": "ann"}, "name", "there is already a player called 'ann'"),
    ("post", "/api/players/", {"name": ["Ann"]}, "name", "Not a valid string."),
    ("patch", "/api/players/{ann}/", {"active": "sometimes"}, "active", "Must be a valid boolean."),
    ("patch", "/api/players/{ann}/", {"name": "BOB"}, "name", "there is already a player called 'BOB'"),
    ("post", "/api/matches/", {"game": "go", "players": "{pair}"}, "game", "unknown game 'go'"),
    ("post", "/api/matches/", {"game": "nacho_pile", "players": "x"},
     "players", 'Expected a list of items but got type "str".'),
    ("post", "/api/matches/", {"game": "nacho_pile", "players": [999, 998]},
     "players", "no player with id 999, 998"),
    ("post", "/api/matches/", {"game": "nacho_pile", "players": "{pair}", "options": {"x": 1}},
     "options", "unknown option x"),
    ("post", "/api/matches/", {"game": "nacho_pile", "players": "{pair}", "played_at": "yesterday"},
     "played_at", None),
    ("post", "/api/matches/{match}/results/", {"places": [1, 2, 3, 4]},
     "expected_version", "This field is required."),
    ("post", "/api/matches/{match}/results/", {"expected_version": "one", "places": [1, 2, 3, 4]},
     "expected_version", "A valid integer is required."),
    ("post", "/api/matches/{match}/results/", {"expected_version": 0, "places": [1, 2]},
     "places", "give one place per seat (4 seats)"),
    ("post", "/api/matches/{match}/results/", {"expected_version": 0, "places": [1, 2, 3, 9]},
     "places", "places run from 1 to 4"),
    ("post", "/api/matches/{match}/results/", {"expected_version": 0, "places": ["a", 2, 3, 4]},
     "places.0", "A valid integer is required."),
    ("post", "/api/matches/{match}/results/", {"expected_version": 0},
     "places", "enter places, or scores where the game's score decides places"),
    ("post", "/api/matches/{match}/results/", {"expected_version": 0, "scores": [1, 2, 3, 4]},
     "places", "this game's scores do not decide places: enter the places"),
]  # fmt: skip # a table: one row per case


@pytest.mark.parametrize(("method", "url", "body", "field", "message"), BAD_WRITES)
def test_bad_input_on_every_write_endpoint_is_a_400_naming_the_field(
    organizer_api, players, method, url, body, field, message
):
    match = MatchFactory(players=players)
    url = url.format(ann=players[0].pk, match=match.pk)
    if body.get("players") == "{pair}":
        body = {**body, "players": [players[0].pk, players[1].pk]}
    before = (Player.objects.count(), Match.objects.count(), ResultVersion.objects.count())

    response = getattr(organizer_api, method)(url, body, format="json")

    assert response.status_code == 400
    error = response.json()
    assert (error["code"] in ("invalid", "required", "unknown_game", "duplicate"), error["field"]) == (
        True,
        field,
    )
    assert [entry["field"] for entry in error["errors"]] == [field]
    if message is not None:
        assert message in error["detail"]
    assert (Player.objects.count(), Match.objects.count(), ResultVersion.objects.count()) == before


def test_malformed_json_is_a_400(organizer_api, db):
    response = organizer_api.post("/api/players/", "{not json", content_type="application/json")
    assert response.status_code == 400
    assert "JSON parse error" in response.json()["detail"]


def test_unknown_match_is_404(organizer_api, db):
    assert (
        organizer_api.post("/api/matches/404/results/", {"expected_version": 0}, format="json").status_code
        == 404
    )


def test_a_match_id_that_is_not_a_number_is_404_for_its_results(api, organizer_api, db):
    assert api.get("/api/matches/AAA/results/").status_code == 404
    response = organizer_api.post("/api/matches/AAA/results/", {"expected_version": 0}, format="json")
    assert response.status_code == 404


@pytest.mark.parametrize("url", ["/api/players/", "/api/matches/", "/api/ratings/", "/api/rating-history/"])
def test_api_lists_do_not_grow_their_query_count_with_rows(api, match_of, submit, players, url):
    submit(match_of(), [1, 2, 3, 4])

    def count():
        with CaptureQueriesContext(connection) as captured:
            assert api.get(url).status_code == 200
        return len(captured)

    before = count()
    for _ in range(4):
        submit(match_of([PlayerFactory(), *players[:2]]), [3, 2, 1])
    assert count() == before


def test_schema_and_docs_are_served_without_external_assets(client, db):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/matches/{id}/results/" in schema.content
    docs = client.get("/api/docs/").content.decode()
    assert "swagger-ui" in docs and "cdn" not in docs.lower()


def test_a_missing_object_is_a_404_with_the_error_body(api, organizer_api, match_of):
    match = match_of()
    missing = match.pk
    match.delete()
    lookups = [
        organizer_api.post(f"/api/matches/{missing}/results/", {"expected_version": 0}, format="json"),
        api.get(f"/api/matches/{missing}/"),
        api.get("/api/players/999999/"),
        organizer_api.patch("/api/players/999999/", {"active": False}, format="json"),
    ]
    assert [(response.status_code, response.json()["code"]) for response in lookups] == [
        (404, "not_found")
    ] * 4
    assert lookups[0].json() == {
        "code": "not_found",
        "detail": "No Match matches the given query.",
        "errors": [],
    }


def test_a_refused_write_says_forbidden_like_every_403(member_api, db):
    refused = member_api.post("/api/players/", {"name": "Zed"}, format="json")
    assert (refused.status_code, refused.json()) == (
        403,
        {"code": "forbidden", "detail": "only staff can change league data", "errors": []},
    )


def test_the_schema_documents_one_error_body_whose_codes_are_the_enum(client, db):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    components = schema["components"]["schemas"]
    assert components["Error"]["properties"]["code"]["allOf"] == [{"$ref": "#/components/schemas/ErrorCode"}]
    assert components["ErrorCode"]["enum"] == [code.value for code in ErrorCode]
    assert "TournamentError" not in components and "BotError" not in components
    # current_version comes with version_conflict only: an owned match's refusal (a 409 `conflict`) has none
    assert sorted(components["VersionConflict"]["required"]) == ["code", "detail", "errors"]
    assert components["VersionConflict"]["properties"]["current_version"]["type"] == "integer"
    result = schema["paths"]["/api/matches/{id}/results/"]["post"]["responses"]
    assert sorted(result) == ["201", "400", "401", "403", "404", "409", "413", "415", "429"]


def test_the_schema_admits_what_the_api_answers_for_unicode_slugs_and_unset_times(db, client):
    """Schemathesis found these: slugs keep letters of any script (no ASCII pattern), a tournament without a
    start time or check-in answers null for them, and every answer of
    a tournament carries its player count."""
    components = client.get("/api/schema/", {"format": "json"}).json()["components"]["schemas"]
    assert components["Player"]["properties"]["slug"] == {
        "type": "string",
        "readOnly": True,
        "description": "Derived from the name; used in page URLs.",
    }
    tournament = components["Tournament"]["properties"]
    assert "pattern" not in tournament["slug"]
    assert (tournament["starts_at"].get("nullable"), tournament["checkin_opens_at"].get("nullable")) == (
        True,
        True,
    )
    assert "player_count" in components["Tournament"]["required"]


def test_seeding_answers_the_plain_list_its_schema_describes(db, client):
    """Schemathesis found the schema describing a page (count, results) where seeding answers a list."""
    schema = client.get("/api/schema/", {"format": "json"}).json()
    answer = schema["paths"]["/api/tournaments/{id}/seed/"]["post"]["responses"]["200"]["content"][
        "application/json"
    ]
    assert answer["schema"] == {
        "type": "array",
        "items": {"$ref": "#/components/schemas/TournamentRegistration"},
    }
