"""Who may do each new write (sign-up, check-in, the start, the clock, roles), on the pages and in the API:
anonymous visitors, another player, a registered player, a scorekeeper, an organizer who is not staff,
and site staff. Every case runs on a fresh tournament, so each answer is that of the write alone."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.tournaments import services
from league.tournaments.models import Registration
from tests.factories import StaffFactory, UserFactory
from tests.factories.tournaments import open_signup, players_named, user_with_player

WHO = ["anonymous", "other player", "registered player", "scorekeeper", "organizer", "staff"]
ORGANIZERS_ONLY = {"anonymous": "login", "other player": 403, "registered player": 403, "scorekeeper": 403}


@pytest.fixture
def world(organizer):
    """Registration open with check-in open; "reg" (player Reg) registered, Pen pending, Ada and Bea
    registered and checked in by hand; a scorekeeper, a non-staff organizer ("helper"),
    another player ("other") and site staff."""
    tournament = open_signup(
        organizer,
        capacity=8,
        schedule={
            "time_zone": "Europe/Berlin",
            "starts_at": "2099-12-05 10:00",
            "checkin_opens_at": "2020-01-01 09:00",
        },
    )
    users = {
        "other player": user_with_player("other", "Oth"),
        "registered player": user_with_player("reg", "Reg"),
        "scorekeeper": UserFactory(username="scorer"),
        "organizer": UserFactory(username="helper"),
        "staff": StaffFactory(username="site-staff"),
    }
    services.registration_join(tournament=tournament, by=users["registered player"])
    for player in players_named(["Ada", "Bea"]):
        services.registration_add(tournament=tournament, by=organizer, player_id=player.pk)
        services.registration_check_in(tournament=tournament, by=organizer, player_id=player.pk)
    pending = players_named(["Pen"])[0]
    Registration.objects.create(tournament=tournament, player=pending, status=Registration.Status.PENDING)
    services.role_add(tournament=tournament, by=organizer, username="scorer", role="scorekeeper")
    services.role_add(tournament=tournament, by=organizer, username="helper", role="organizer")
    return tournament, users, {"reg": users["registered player"].player.pk, "pen": pending.pk}


def page_cases():
    """(name, method, path, data, expected per role: a status, "login" or "done" (a redirect back))."""
    organizer_writes = [
        (
            "settings, sign-up and schedule",
            "post",
            "settings/save/",
            {
                "name": "Permission Cup",
                "game_id": "nacho_pile",
                "format": "swiss",
                "table_size": "2",
                "leftovers": "short",
                "rounds": "3",
                "advance": "1",
                "self_signup": "on",
                "capacity": "10",
                "waitlist": "on",
                "time_zone": "Asia/Tokyo",
                "starts_at": "2099-12-05T10:00",
            },
        ),
        ("check in another", "post", "check-in/", {"player": "{reg}", "checked_in": "1"}),
        ("approve", "post", "decide/", {"player": "{pen}", "decision": "approve"}),
        ("start", "post", "start/", {"confirm": "1"}),
        ("add a role", "post", "organizers/", {"username": "other", "role": "scorekeeper"}),
        ("remove a role", "post", "organizers/remove/", {"username": "scorer", "role": "scorekeeper"}),
        ("settings page", "get", "settings/", None),
        ("check-in desk", "get", "check-in/", None),
        ("start confirmation", "get", "start/", None),
        ("organizers page", "get", "organizers/", None),
    ]
    cases = []
    for name, method, path, data in organizer_writes:
        allowed = 200 if method == "get" else "done"
        cases.append((name, method, path, data, {**ORGANIZERS_ONLY, "organizer": allowed, "staff": allowed}))
    no_player = {"scorekeeper": 403, "organizer": 403, "staff": 403}
    cases += [
        (
            "join",
            "post",
            "entry/join/",
            {},
            {"anonymous": "login", "other player": "done", "registered player": 400, **no_player},
        ),
        (
            "leave",
            "post",
            "entry/leave/",
            {},
            {"anonymous": "login", "other player": 404, "registered player": "done", **no_player},
        ),
        (
            "check in",
            "post",
            "entry/check-in/",
            {},
            {"anonymous": "login", "other player": 404, "registered player": "done", **no_player},
        ),
        (
            "undo check-in",
            "post",
            "entry/undo-check-in/",
            {},
            {"anonymous": "login", "other player": 404, "registered player": "done", **no_player},
        ),
    ]
    return [
        pytest.param(method, path, data, who, expected[who], id=f"{name}-{who}")
        for name, method, path, data, expected in cases
        for who in WHO
    ]


def _fill(data, ids):
    return {
        key: value.format(**ids) if isinstance(value, str) else value for key, value in (data or {}).items()
    }


@pytest.mark.parametrize(("method", "path", "data", "who", "expected"), page_cases())
def test_each_new_page_write_answers_each_kind_of_user(client, world, method, path, data, who, expected):
    tournament, users, ids = world
    if who != "anonymous":
        client.force_login(users[who])
    url = f"/tournaments/{tournament.slug}/{path}"
    response = client.get(url) if method == "get" else client.post(url, _fill(data, ids))
    if expected == "login":
        assert (response.status_code, response["Location"].split("?")[0]) == (302, "/accounts/login/")
    elif expected == "done":
        assert response.status_code == 302, response.content.decode()[-2000:]
        assert not response["Location"].startswith("/accounts/login/")
    else:
        assert response.status_code == expected


def api_cases():
    organizer_calls = [
        ("sign-up settings", "patch", "sign-up/", {"capacity": 10}, 200),
        ("schedule", "patch", "schedule/", {"time_zone": "Asia/Tokyo"}, 200),
        ("check in another", "post", "registrations/{reg}/check-in/", {"checked_in": True}, 200),
        ("approve", "post", "registrations/{pen}/decision/", {"approve": True}, 200),
        ("start preview", "get", "start-preview/", None, 200),
        ("start", "post", "start/", {"confirm": True}, 200),
        ("roles", "get", "roles/", None, 200),
        ("add a role", "post", "roles/", {"username": "other", "role": "scorekeeper"}, 201),
        ("remove a role", "delete", "roles/scorekeeper/scorer/", None, 204),
    ]
    cases = []
    for name, method, path, data, allowed in organizer_calls:
        expected = {**ORGANIZERS_ONLY, "anonymous": 401, "organizer": allowed, "staff": allowed}
        cases.append((name, method, path, data, expected))
    no_player = {"anonymous": 401, "scorekeeper": 403, "organizer": 403, "staff": 403}
    cases += [
        ("join", "post", "join/", None, {**no_player, "other player": 201, "registered player": 400}),
        ("leave", "post", "leave/", None, {**no_player, "other player": 404, "registered player": 200}),
        ("check in", "post", "check-in/", {}, {**no_player, "other player": 404, "registered player": 200}),
        (
            "own entry",
            "get",
            "entry/",
            None,
            {
                **no_player,
                "scorekeeper": 404,
                "organizer": 404,
                "staff": 404,
                "other player": 404,
                "registered player": 200,
            },
        ),
    ]
    return [
        pytest.param(method, path, data, who, expected[who], id=f"{name}-{who}")
        for name, method, path, data, expected in cases
        for who in WHO
    ]


@pytest.mark.parametrize(("method", "path", "data", "who", "expected"), api_cases())
def test_each_new_api_write_answers_each_kind_of_user(world, method, path, data, who, expected):
    tournament, users, ids = world
    client = APIClient()
    if who != "anonymous":
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=users[who]).key}")
    url = f"/api/tournaments/{tournament.pk}/{path.format(**ids)}"
    response = (
        getattr(client, method)(url, data, format="json")
        if data is not None
        else getattr(client, method)(url)
    )
    assert response.status_code == expected, response.content
    if expected >= 400:
        assert set(response.json()) >= {"code", "detail", "errors"}
