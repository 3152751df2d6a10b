"""Every error under /api/ is JSON of one shape, `{code, detail, field?, errors}`, whoever finds it: a
service, DRF, Django's request limits or the URL map; the schema documents each operation's errors."""

import json
from unittest import mock

import pytest
from django.core.management import call_command
from django.test import RequestFactory
from rest_framework.exceptions import ErrorDetail
from rest_framework.test import APIClient

from league.api.errors import SERVER_ERROR_DETAIL, field_errors, server_error
from league.players.models import Player
from tests.factories import MatchFactory

NO_ROUTE = {
    "code": "not_found",
    "detail": "no such resource: the URL matches no route of the API (see /api/schema/)",
    "errors": [],
}


def error(response, status: int) -> dict:
    assert (response.status_code, response["Content-Type"]) == (status, "application/json")
    return response.json()


def test_validation_errors_name_every_field_by_its_dotted_path(organizer_api, db):
    response = organizer_api.post("/api/matches/", {"players": [3, "x"]}, format="json")
    assert error(response, 400) == {
        "code": "required",
        "detail": "This field is required.",
        "field": "game",
        "errors": [
            {"field": "game", "code": "required", "detail": "This field is required."},
            {"field": "players.1", "code": "invalid", "detail": "A valid integer is required."},
        ],
    }


def test_nested_errors_flatten_in_order_with_list_indexes_and_non_field_errors_on_their_object():
    detail = {
        "name": [ErrorDetail("This field is required.", code="required")],
        "seats": [
            {},
            {
                "player": [ErrorDetail("no such player", code="does_not_exist")],
                "non_field_errors": [ErrorDetail("seated twice", code="invalid")],
            },
        ],
        "players": {1: [ErrorDetail("Ensure this value is greater than or equal to 1.", code="min_value")]},
        "non_field_errors": [ErrorDetail("enter places or scores", code="invalid")],
    }
    assert field_errors(detail) == [
        {"field": "name", "code": "required", "detail": "This field is required."},
        {"field": "seats.1.player", "code": "invalid", "detail": "no such player"},
        {"field": "seats.1", "code": "invalid", "detail": "seated twice"},
        {
            "field": "players.1",
            "code": "invalid",
            "detail": "Ensure this value is greater than or equal to 1.",
        },
        {"code": "invalid", "detail": "enter places or scores"},
    ]


def test_a_service_error_keeps_its_code_and_names_its_field(organizer_api, players):
    response = organizer_api.post("/api/players/", {"name": "ann"}, format="json")
    detail = "there is already a player called 'ann'"
    assert error(response, 400) == {
        "code": "duplicate",
        "detail": detail,
        "field": "name",
        "errors": [{"field": "name", "code": "duplicate", "detail": detail}],
    }


def test_a_version_conflict_keeps_current_version(organizer_api, staff, players):
    match = MatchFactory(players=players[:2])
    url = f"/api/matches/{match.pk}/results/"
    assert (
        organizer_api.post(url, {"expected_version": 0, "places": [1, 2]}, format="json").status_code == 201
    )
    response = organizer_api.post(url, {"expected_version": 0, "places": [1, 2]}, format="json")
    detail = (
        "the result is at version 1, not 0: someone entered a result meanwhile; review it and submit again "
        "with expected_version 1"
    )
    assert error(response, 409) == {
        "code": "version_conflict",
        "detail": detail,
        "field": "expected_version",
        "errors": [{"field": "expected_version", "code": "version_conflict", "detail": detail}],
        "current_version": 1,
    }


DRF_ERRORS = [
    ("anonymous", "post", "/api/players/", {"data": {"name": "Zed"}, "format": "json"},
     401, "not_authenticated", "Authentication credentials were not provided."),
    ("wrong token", "get", "/api/games/", {}, 401, "authentication_failed", "Invalid token."),
    ("staff", "delete", "/api/players/", {}, 405, "method_not_allowed", 'Method "DELETE" not allowed.'),
    ("staff", "post", "/api/players/", {"data": "name=Zed", "content_type": "text/plain"},
     415, "unsupported_media_type", 'Unsupported media type "text/plain" in request.'),
    ("anonymous", "get", "/api/games/", {"HTTP_ACCEPT": "text/html"},
     406, "not_acceptable", "Could not satisfy the request Accept header."),
    ("staff", "post", "/api/players/", {"data": "{not json", "content_type": "application/json"},
     400, "parse_error",
     "JSON parse error - Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
]  # fmt: skip # a table: one row per case


@pytest.mark.parametrize(("who", "method", "url", "request_args", "status", "code", "detail"), DRF_ERRORS)
def test_drf_errors_have_the_one_body(organizer_api, who, method, url, request_args, status, code, detail):
    client = {"anonymous": APIClient(), "wrong token": APIClient(), "staff": organizer_api}[who]
    if who == "wrong token":
        client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    response = getattr(client, method)(url, **request_args)
    assert error(response, status) == {"code": code, "detail": detail, "errors": []}
    if status == 401:
        assert response["WWW-Authenticate"] == "Token"
    assert not Player.objects.exists()


@pytest.mark.parametrize(
    "url",
    [
        "/api/bot-leagues/1/matches/abc/record/",  # the route takes digits only: no route matches
        "/api/matches/1/results/2/",
        "/api/no-such-thing/",
    ],
)
def test_a_url_no_route_matches_is_a_json_404(api, db, url):
    assert error(api.get(url), 404) == NO_ROUTE


def test_an_id_that_is_no_number_is_a_json_404(api, db):
    response = api.get("/api/matches/abc/")
    assert error(response, 404) == {"code": "not_found", "detail": "Not found.", "errors": []}


def test_pages_keep_their_html_404(client, db):
    response = client.get("/no-such-page/")
    assert (response.status_code, response["Content-Type"]) == (404, "text/html; charset=utf-8")


def test_a_body_over_the_cap_is_413(organizer_api, settings):
    assert settings.REQUEST_BODY_MAX_BYTES == 262_144
    body = json.dumps({"name": "a" * 262_144})
    response = organizer_api.post("/api/players/", body, content_type="application/json")
    assert error(response, 413) == {
        "code": "payload_too_large",
        "detail": "the request body is larger than 256 KiB: send less",
        "errors": [],
    }
    assert not Player.objects.exists()


def test_a_body_at_the_cap_is_read(organizer_api, settings):
    settings.REQUEST_BODY_MAX_BYTES = 14
    assert organizer_api.post("/api/players/", {"name": "Zed"}, format="json").status_code == 201  # 13 bytes
    response = organizer_api.post("/api/players/", {"name": "Zeds"}, format="json")
    assert error(response, 413)["detail"] == "the request body is larger than 14 bytes: send less"


TOO_MANY_FIELDS = {
    "code": "too_many_fields",
    "detail": "the request has more than 1000 query or form fields",
    "errors": [],
}


def test_more_query_fields_than_django_allows_is_400(api, db):
    query = "&".join(f"f{number}=1" for number in range(1001))
    assert error(api.get(f"/api/players/?{query}"), 400) == TOO_MANY_FIELDS


def test_more_form_fields_than_django_allows_is_400(organizer_api):
    body = "&".join(f"f{number}=1" for number in range(1000)) + "&name=Zed"
    response = organizer_api.post("/api/players/", body, content_type="application/x-www-form-urlencoded")
    assert error(response, 400) == TOO_MANY_FIELDS
    assert not Player.objects.exists()


def test_a_bug_is_a_json_500_without_internals(db):
    client = APIClient(raise_request_exception=False)
    with mock.patch(
        "league.api.views.game_specs", side_effect=RuntimeError("password=hunter2 in /srv/league")
    ):
        response = client.get("/api/games/")
    assert error(response, 500) == {"code": "server_error", "detail": SERVER_ERROR_DETAIL, "errors": []}
    assert b"hunter2" not in response.content and b"RuntimeError" not in response.content


def test_pages_keep_their_html_500():
    response = server_error(RequestFactory().get("/matches/"))
    assert (response.status_code, response["Content-Type"]) == (500, "text/html; charset=utf-8")


def schema_responses(client) -> dict[tuple[str, str], dict]:
    schema = client.get("/api/schema/", {"format": "json"}).json()
    return {
        (method.upper(), path): op["responses"]
        for path, ops in schema["paths"].items()
        for method, op in ops.items()
    }


def test_each_operation_documents_the_errors_of_its_kind(client, db):
    responses = schema_responses(client)
    statuses = {operation: " ".join(sorted(codes)) for operation, codes in responses.items()}
    assert statuses[("GET", "/api/games/")] == "200 401 429"
    assert statuses[("GET", "/api/players/")] == "200 400 401 404 429"
    assert statuses[("GET", "/api/players/{id}/")] == "200 401 404 429"
    assert statuses[("POST", "/api/players/")] == "201 400 401 403 413 415 429"
    assert statuses[("PATCH", "/api/players/{id}/")] == "200 400 401 403 404 413 415 429"
    assert statuses[("POST", "/api/tournaments/{id}/start/")] == "200 400 401 403 404 409 413 415 429"
    assert statuses[("GET", "/api/tournaments/{id}/start-preview/")] == "200 401 403 404 429"
    assert statuses[("POST", "/api/tournaments/{id}/join/")] == "201 400 401 403 404 409 413 429"
    assert statuses[("DELETE", "/api/tournament-rounds/{id}/")] == "204 400 401 403 404 409 413 429"
    assert statuses[("GET", "/api/me/")] == "200 401 429"
    assert statuses[("POST", "/api/claims/redeem/")] == "200 400 401 403 409 413 415 429"
    assert (
        statuses[("POST", "/api/tournaments/{id}/registrations/batch/")]
        == "200 201 400 401 403 404 409 413 415 429"
    )
    assert statuses[("POST", "/api/webhooks/")] == "201 400 401 403 413 415 429"
    assert statuses[("GET", "/api/webhooks/{id}/deliveries/")] == "200 401 404 429"
    assert statuses[("POST", "/api/me/token/")] == "201 400 401 403 413 415 429"
    assert (
        statuses[("POST", "/api/tournaments/{id}/private-links/{player_id}/")]
        == "201 400 401 403 404 409 413 429"
    )
    assert statuses[("DELETE", "/api/tournaments/{id}/private-links/{player_id}/")] == (
        "200 400 401 403 404 409 413 429"
    )
    assert statuses[("PUT", "/api/tournaments/{id}/venue-address/")] == "200 400 401 403 404 409 413 415 429"
    assert statuses[("GET", "/api/seasons/{id}/")] == "200 401 404 429"
    assert statuses[("POST", "/api/tournaments/{id}/cancel/")] == "200 400 401 403 404 409 413 415 429"
    assert statuses[("DELETE", "/api/tournaments/{id}/")] == "200 400 401 403 404 409 413 429"
    assert statuses[("GET", "/api/bots/{id}/head-to-head/")] == "200 401 404 429"
    assert statuses[("GET", "/api/bots/{id}/ladder-versions/")] == "200 401 404 429"
    assert statuses[("POST", "/api/bots/{id}/play/")] == "201 400 401 403 404 413 415 429"
    assert statuses[("POST", "/api/ladders/{id}/activate/")] == "201 400 401 403 404 413 415 429"
    assert statuses[("POST", "/api/ladders/{id}/deactivate/")] == "200 400 401 403 404 413 415 429"
    assert statuses[("POST", "/api/version-tests/")] == "201 400 401 403 413 415 429"
    assert statuses[("GET", "/api/version-tests/{id}/")] == "200 401 403 404 429"
    assert statuses[("POST", "/api/tournament-tables/{id}/call/")] == "201 400 401 403 404 409 413 429"
    assert statuses[("POST", "/api/tournaments/{id}/penalties/")] == "201 400 401 403 404 409 413 415 429"
    assert len(responses) == 133  # + the floor: a table pinned, seating, private data deleted
    for operation, codes in responses.items():
        assert {"401", "429"} <= set(codes), operation
        for status, response in codes.items():
            if status >= "400":
                ref = response["content"]["application/json"]["schema"]["$ref"]
                expected = (
                    "VersionConflict"
                    if operation == ("POST", "/api/matches/{id}/results/") and status == "409"
                    else "Error"
                )
                assert ref == f"#/components/schemas/{expected}", (operation, status)
        assert codes["429"]["headers"]["Retry-After"]["schema"] == {"type": "integer"}


def test_the_schema_validates_without_warnings(tmp_path, db):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml"))
    assert (tmp_path / "schema.yaml").read_text().startswith("openapi: 3.0.3")
