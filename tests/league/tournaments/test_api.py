"""The tournament API: the same rules and errors as the pages. Anyone reads; writes need a login and an
organizer (403 otherwise); wrong states answer 409, bad input 400 with a message, never a 500."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.tournaments import services
from league.tournaments.models import Round, Table, Tournament


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


@pytest.fixture
def api(organizer):
    return client_for(organizer)


def test_an_organizer_runs_a_tournament_through_the_api(api, organizer):
    created = api.post(
        "/api/tournaments/",
        {
            "name": "API Open",
            "game": "nacho_pile",
            "format": "swiss",
            "table_size": 2,
            "rounds": 1,
            "rated": False,
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    tournament = created.json()
    assert (tournament["slug"], tournament["status"], tournament["tiebreaks"]) == (
        "api-open",
        "draft",
        ["points", "opponents_points", "wins", "head_to_head", "seed"],
    )
    base = f"/api/tournaments/{tournament['id']}"
    assert api.post(f"{base}/open-registration/").json()["status"] == "registration"
    for name in ("Ada", "Bea", "Cal"):
        assert api.post(f"{base}/registrations/", {"name": name}, format="json").status_code == 201
    assert api.post(f"{base}/start/").json()["status"] == "running"
    generated = api.post(f"{base}/rounds/generate/")
    assert generated.status_code == 201
    round_data = generated.json()
    assert (round_data["number"], round_data["status"], len(round_data["tables"])) == (1, "draft", 1)
    assert round_data["quality"]["byes"] == 1
    conflict = api.post(f"{base}/rounds/generate/")
    assert conflict.status_code == 409
    assert conflict.json() == {
        "code": "conflict",
        "detail": "round 1 is not complete yet: the next round waits for every result",
        "errors": [],
    }
    published = api.post(f"/api/tournament-rounds/{round_data['id']}/publish/").json()
    table = published["tables"][0]
    assert published["status"] == "published" and table["match"] is not None
    result = api.post(
        f"/api/tournament-tables/{table['id']}/result/",
        {"expected_version": 0, "places": [1, 2]},
        format="json",
    )
    assert result.status_code == 201
    assert [(seat["name"], seat["place"], seat["points"]) for seat in result.json()["seats"]] == [
        ("Ada", 1, 1.0),
        ("Bea", 2, 0.0),
    ]
    completed = api.post(f"/api/tournament-rounds/{round_data['id']}/complete/")
    assert completed.json()["status"] == "complete"
    assert api.get(f"{base}/").json()["status"] == "finished"
    standings = api.get(f"{base}/standings/").json()
    assert [(row["rank"], row["name"], row["points"], row["byes"]) for row in standings] == [
        (1, "Ada", 1.0, 0),
        (2, "Cal", 1.0, 1),
        (3, "Bea", 0.0, 0),
    ]


@pytest.fixture
def running(make_tournament, play_round, organizer):
    """A 4-seat Swiss of 8: round 1 complete, round 2 published with no result yet."""
    tournament, players = make_tournament(8, rated=False)
    play_round(tournament)
    second = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=second, by=organizer)
    return tournament


def write_endpoints(tournament):
    first = Round.objects.get(tournament=tournament, number=1)
    table = Table.objects.get(round=first, number=1)
    base = f"/api/tournaments/{tournament.pk}"
    return [
        ("post", "/api/tournaments/", {"name": "X", "game": "nacho_pile", "rounds": 1}),
        ("patch", f"{base}/", {"rounds": 4}),
        ("post", f"{base}/open-registration/", {}),
        ("post", f"{base}/start/", {}),
        ("post", f"{base}/finish/", {}),
        ("post", f"{base}/organizers/", {"username": "someone"}),
        ("post", f"{base}/registrations/", {"name": "Zed"}),
        ("patch", f"{base}/registrations/1/", {"status": "dropped"}),
        ("post", f"{base}/seed/", {"method": "rating"}),
        ("post", f"{base}/rounds/generate/", {}),
        ("post", f"/api/tournament-rounds/{first.pk}/publish/", {}),
        ("post", f"/api/tournament-rounds/{first.pk}/complete/", {}),
        (
            "post",
            f"/api/tournament-rounds/{first.pk}/swap/",
            {"first_table": 1, "first_seat": 1, "second_table": 2, "second_seat": 1},
        ),
        ("post", f"/api/tournament-rounds/{first.pk}/move/", {"player": 1, "to_table": 2}),
        ("delete", f"/api/tournament-rounds/{first.pk}/", {}),
        (
            "post",
            f"/api/tournament-tables/{table.pk}/result/",
            {"expected_version": 1, "places": [1, 2, 3, 4], "reason": "x"},
        ),
        ("post", f"/api/tournament-tables/{table.pk}/close/", {"kind": "forfeit", "absent": [1]}),
    ]


def test_anonymous_writes_are_refused_and_strangers_get_403(running, stranger):
    endpoints = write_endpoints(running)
    for method, url, data in endpoints:
        response = getattr(client_for(), method)(url, data, format="json")
        assert response.status_code == 401, url
    stranger_api = client_for(stranger)
    for method, url, data in endpoints:
        response = getattr(stranger_api, method)(url, data, format="json")
        assert response.status_code == 403, url
        expected = (
            "only site staff create tournaments"
            if url == "/api/tournaments/"
            else (
                "only the tournament's organizers and scorekeepers (and site staff) can do this"
                if url.endswith("/result/")
                else "only the tournament's organizers (and site staff) can do this"
            )
        )
        assert response.json() == {"code": "forbidden", "detail": expected, "errors": []}, url
    assert Round.objects.filter(tournament=running).count() == 2


def test_an_added_organizer_who_is_not_staff_may_run_it(running, stranger):
    running.organizers.add(stranger)
    listed = client_for(stranger).get("/api/tournaments/").json()["results"]
    assert [(item["name"], item["player_count"]) for item in listed] == [("Spring Open", 8)]
    second = Round.objects.get(tournament=running, number=2)
    table = second.tables.get(number=1)
    answer = client_for(stranger).post(
        f"/api/tournament-tables/{table.pk}/result/",
        {"expected_version": 0, "places": [1, 2, 3, 4]},
        format="json",
    )
    assert answer.status_code == 201


def test_bad_input_on_every_write_endpoint_gives_400_or_409_with_a_message(api, running):
    first = Round.objects.get(tournament=running, number=1)
    second = Round.objects.get(tournament=running, number=2)
    table = Table.objects.get(round=first, number=1)
    base = f"/api/tournaments/{running.pk}"
    cases = [
        ("post", "/api/tournaments/", {"name": "X", "game": "chess", "rounds": 1}, 400, "unknown game"),
        ("post", "/api/tournaments/", {"name": "X", "game": "nacho_pile", "table_size": "four"}, 400, None),
        (
            "post",
            "/api/tournaments/",
            {"name": "X", "game": "nacho_pile", "rounds": 1, "tiebreaks": ["luck"]},
            400,
            "unknown tie-break 'luck'",
        ),
        ("patch", f"{base}/", {"rounds": 4}, 409, "settings are fixed once the tournament has started"),
        ("patch", f"{base}/", {"rounds": "many"}, 400, None),
        (
            "post",
            f"{base}/open-registration/",
            {},
            409,
            "a tournament in running cannot move to registration",
        ),
        ("post", f"{base}/start/", {}, 409, "the tournament has already started"),
        ("post", f"{base}/finish/", {}, 409, "round 2 is not complete: complete or discard it first"),
        ("post", f"{base}/organizers/", {"username": "ghost"}, 400, "no user called 'ghost'"),
        ("post", f"{base}/organizers/", {}, 400, None),
        ("post", f"{base}/registrations/", {}, 400, "name the player to register"),
        ("post", f"{base}/registrations/", {"player": 99999}, 400, "no player with id 99999"),
        ("post", f"{base}/registrations/", {"name": "Zed", "seed": 0}, 400, None),
        ("patch", f"{base}/registrations/1/", {"status": "gone"}, 400, None),
        ("post", f"{base}/seed/", {"method": "dice"}, 400, None),
        ("post", f"{base}/seed/", {"method": "rating"}, 409, "seeds are fixed once round 1 is generated"),
        ("post", f"{base}/rounds/generate/", {}, 409, "round 2 is not complete yet"),
        (
            "post",
            f"/api/tournament-rounds/{first.pk}/publish/",
            {},
            409,
            "round 1 is complete: only drafts change",
        ),
        (
            "post",
            f"/api/tournament-rounds/{second.pk}/complete/",
            {},
            409,
            "round 2 still waits for the result of table 1, 2",
        ),
        ("post", f"/api/tournament-rounds/{first.pk}/swap/", {"first_table": 1}, 400, None),
        (
            "post",
            f"/api/tournament-rounds/{second.pk}/swap/",
            {"first_table": 1, "first_seat": 1, "second_table": 2, "second_seat": 1},
            409,
            "only drafts change",
        ),
        ("post", f"/api/tournament-rounds/{second.pk}/move/", {"player": "x"}, 400, None),
        (
            "delete",
            f"/api/tournament-rounds/{second.pk}/",
            {},
            409,
            "round 2 is published: only drafts change",
        ),
        (
            "post",
            f"/api/tournament-tables/{table.pk}/result/",
            {"expected_version": 0, "places": [1, 2, 3, 4]},
            409,
            "the result is at version 1, not 0",
        ),
        (
            "post",
            f"/api/tournament-tables/{table.pk}/result/",
            {"expected_version": 1, "places": [1, 2], "reason": "x"},
            400,
            "give one place per seat (4 seats)",
        ),
        ("post", f"/api/tournament-tables/{table.pk}/result/", {"places": "first"}, 400, None),
        ("post", f"/api/tournament-tables/{table.pk}/close/", {"kind": "late", "absent": [1]}, 400, None),
        (
            "post",
            f"/api/tournament-tables/{table.pk}/close/",
            {"kind": "forfeit", "absent": [99999]},
            400,
            "name the absent players among the table's players",
        ),
    ]
    for method, url, data, status, message in cases:
        response = getattr(api, method)(url, data, format="json")
        assert response.status_code == status, (url, data, response.content)
        body = response.json()
        if message is None:
            assert body["errors"] and all("field" in entry for entry in body["errors"]), (url, body)
        else:
            assert body["code"] in ("invalid", "conflict", "not_found", "version_conflict", "unknown_game"), (
                body
            )
            assert message in body["detail"], (url, body)


def test_drafts_are_for_organizers_only(make_tournament, organizer, stranger):
    tournament, _ = make_tournament(4, start=False)
    assert client_for().get(f"/api/tournaments/{tournament.pk}/").status_code == 404
    assert client_for(stranger).get("/api/tournaments/").json()["count"] == 0
    assert client_for(organizer).get("/api/tournaments/").json()["count"] == 1
    services.tournament_start(tournament=tournament, by=organizer)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    assert client_for().get(f"/api/tournament-rounds/{round_row.pk}/").status_code == 404
    assert client_for().get(f"/api/tournaments/{tournament.pk}/rounds/").json() == []
    assert client_for(organizer).get(f"/api/tournament-rounds/{round_row.pk}/").json()["status"] == "draft"


def test_read_endpoints_take_the_same_number_of_queries_whatever_their_size(make_tournament, play_round):
    def count(url):
        with CaptureQueriesContext(connection) as queries:
            assert client_for().get(url).status_code == 200
        return len(queries)

    small, _ = make_tournament(4, name="Small", table_size=2, rounds=3, rated=False)
    play_round(small)
    large, _ = make_tournament(16, name="Large", rounds=3, rated=False)
    play_round(large)
    play_round(large)
    for path in ("", "standings/", "registrations/", "rounds/"):
        assert count(f"/api/tournaments/{small.pk}/{path}") == count(f"/api/tournaments/{large.pk}/{path}"), (
            path
        )
    first_small = Round.objects.get(tournament=small, number=1)
    first_large = Round.objects.get(tournament=large, number=1)
    assert count(f"/api/tournament-rounds/{first_small.pk}/") == count(
        f"/api/tournament-rounds/{first_large.pk}/"
    )
    before = count("/api/tournaments/")
    make_tournament(5, name="Third")
    assert count("/api/tournaments/") == before


def test_the_schema_lists_the_tournament_endpoints(client, db):
    schema = client.get("/api/schema/").content.decode()
    for path in (
        "/api/tournaments/{id}/rounds/generate/",
        "/api/tournament-rounds/{id}/publish/",
        "/api/tournament-rounds/{id}/complete/",
        "/api/tournament-tables/{id}/result/",
        "/api/tournaments/{id}/registrations/",
        "/api/tournaments/{id}/standings/",
    ):
        assert f"{path}:" in schema, path
    assert Tournament.objects.count() == 0


def test_a_partial_update_changes_only_the_fields_sent(api, make_tournament):
    tournament, _ = make_tournament(4, start=False, format="swiss", table_size=4, rounds=3, rated=False)
    changed = api.patch(f"/api/tournaments/{tournament.pk}/", {"rounds": 5, "name": "Renamed"}, format="json")
    assert changed.status_code == 200
    body = changed.json()
    assert (body["name"], body["slug"], body["rounds"], body["table_size"], body["rated"]) == (
        "Renamed",
        "renamed",
        5,
        4,
        False,
    )


def test_a_player_who_is_not_registered_is_a_404_naming_the_player(api, running):
    response = api.patch(
        f"/api/tournaments/{running.pk}/registrations/99999/", {"status": "dropped"}, format="json"
    )
    missing = api.get("/api/tournaments/99999/")
    assert (response.status_code, response.json()) == (
        404,
        {
            "code": "not_found",
            "detail": "player 99999 is not registered",
            "field": "player",
            "errors": [{"field": "player", "code": "not_found", "detail": "player 99999 is not registered"}],
        },
    )
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
