"""Self-report through the API: report, confirm, dispute and the table's open reports, with the API's error
bodies (401 anonymous, 403 not seated, 404 another table's report, 409 a second report carrying the open one,
400 bad input)."""

import pytest
from rest_framework.test import APIClient

from league.results.models import ResultReport, ResultVersion
from league.tournaments import services
from tests.factories import tournaments as helpers
from tests.league.tournaments.test_self_report import with_accounts


def api_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def setup(organizer):
    tournament, players = helpers.make_tournament(organizer, 4, table_size=4, result_reporting="self_report")
    users = with_accounts(players)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    table = round_row.tables.get()
    seats = list(table.match.seats.order_by("seat").values_list("player__name", "player_id"))
    return table, users, seats


def test_report_then_every_other_player_confirms_through_the_api(setup):
    table, users, seats = setup
    url = f"/api/tournament-tables/{table.pk}/"
    response = api_for(users["Ada"]).post(
        url + "report/", {"expected_version": 0, "places": [1, 2, 3, 4]}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    others = [pid for name, pid in seats if name != "Ada"]
    assert (body["status"], body["places"], body["awaiting"], body["confirmed"]) == (
        "open",
        [1, 2, 3, 4],
        others,
        [],
    )
    listed = api_for(users["Bea"]).get(url + "reports/").json()
    assert [report["id"] for report in listed["open_reports"]] == [body["id"]]
    assert listed["open_disputes"] == []
    for name, _ in seats:
        if name != "Ada":
            answer = api_for(users[name]).post(url + "confirm/", {"report": body["id"]}, format="json")
            assert answer.status_code == 200, answer.json()
    assert answer.json()["status"] == "stored"
    assert answer.json()["awaiting"] == []
    assert ResultVersion.objects.get(match=table.match_id).report_id == body["id"]
    table_answer = APIClient().get(url).json()
    assert [seat["place"] for seat in table_answer["seats"]] == [1, 2, 3, 4]


def test_a_second_report_is_409_carrying_the_open_one(setup):
    table, users, _ = setup
    url = f"/api/tournament-tables/{table.pk}/report/"
    first = (
        api_for(users["Ada"]).post(url, {"expected_version": 0, "places": [1, 2, 3, 4]}, format="json").json()
    )
    response = api_for(users["Bea"]).post(url, {"expected_version": 0, "places": [4, 3, 2, 1]}, format="json")
    assert response.status_code == 409
    body = response.json()
    assert (body["code"], body["detail"], body["errors"]) == (
        "conflict",
        "a report of this table is already waiting for confirmation: confirm or dispute it instead",
        [],
    )
    assert body["open_report"] == first


def test_errors_of_the_report_operations(setup, organizer):
    table, users, seats = setup
    url = f"/api/tournament-tables/{table.pk}/"
    anonymous = APIClient().post(
        url + "report/", {"expected_version": 0, "places": [1, 2, 3, 4]}, format="json"
    )
    assert (anonymous.status_code, anonymous.json()["code"]) == (401, "not_authenticated")
    stranger = api_for(organizer).post(
        url + "report/", {"expected_version": 0, "places": [1, 2, 3, 4]}, format="json"
    )
    assert (stranger.status_code, stranger.json()["detail"]) == (
        403,
        "only the players seated at this table report, confirm or dispute its result",
    )
    bad = api_for(users["Ada"]).post(
        url + "report/", {"expected_version": 0, "places": [1, 2]}, format="json"
    )
    assert (bad.status_code, bad.json()["detail"]) == (400, "give one place per seat (4 seats)")
    missing = api_for(users["Ada"]).post(url + "confirm/", {}, format="json")
    assert (missing.status_code, missing.json()["code"], missing.json()["field"]) == (
        400,
        "required",
        "report",
    )
    nothing = api_for(users["Bea"]).post(url + "confirm/", {"report": 2**62}, format="json")
    assert (nothing.status_code, nothing.json()["detail"]) == (404, f"no report {2**62} of this table")
    too_big = api_for(users["Bea"]).post(url + "confirm/", {"report": 2**63}, format="json")
    assert (too_big.status_code, too_big.json()["field"]) == (400, "report")
    report = (
        api_for(users["Ada"])
        .post(url + "report/", {"expected_version": 0, "places": [1, 2, 3, 4]}, format="json")
        .json()
    )
    own = api_for(users["Ada"]).post(url + "confirm/", {"report": report["id"]}, format="json")
    assert (own.status_code, own.json()["detail"]) == (
        403,
        "you made this report: the others at the table confirm it",
    )
    services.table_result(table=table, by=organizer, expected_version=0, places=[4, 3, 2, 1])
    late = api_for(users["Bea"]).post(url + "confirm/", {"report": report["id"]}, format="json")
    assert (late.status_code, late.json()["detail"]) == (
        409,
        "an organizer entered this table's result meanwhile: the report no longer counts",
    )
    assert ResultReport.objects.get().status == "superseded"


def test_a_dispute_through_the_api(setup):
    table, users, seats = setup
    url = f"/api/tournament-tables/{table.pk}/"
    report = (
        api_for(users["Ada"])
        .post(url + "report/", {"expected_version": 0, "places": [1, 2, 3, 4]}, format="json")
        .json()
    )
    empty = api_for(users["Bea"]).post(url + "dispute/", {}, format="json")
    assert (empty.status_code, empty.json()["detail"]) == (
        400,
        "give the places you claim, or say what happened",
    )
    response = api_for(users["Bea"]).post(
        url + "dispute/", {"places": [2, 1, 3, 4], "note": "I won"}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    bea = dict(seats)["Bea"]
    assert (body["report"], body["player"], body["places"], body["note"], body["status"]) == (
        report["id"],
        bea,
        [2, 1, 3, 4],
        "I won",
        "open",
    )
    listed = api_for(users["Cal"]).get(url + "reports/").json()
    assert (listed["open_reports"], [item["id"] for item in listed["open_disputes"]]) == ([], [body["id"]])
