"""Open sign-up, check-in, the start preview and the event's clock through the API: a player changes only
their own entry; organizers set sign-up and the schedule, approve, check others in and start with the
preview; times come back in the event's zone."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.tournaments import services
from tests.factories.tournaments import open_signup, statuses, user_with_player


def api_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


@pytest.fixture
def people(db):
    return {name: user_with_player(name.lower(), name) for name in ("Ada", "Bea", "Cal", "Dov")}


def entry(name, pk, status, *, checked_in=False, position=None, seed=None):
    return {
        "player": pk,
        "name": name,
        "status": status,
        "seed": seed,
        "entered_round": 1,
        "left_after_round": None,
        "checked_in": checked_in,
        "waitlist_position": position,
    }


def test_players_join_leave_and_check_in_their_own_entry(organizer, people):
    tournament = open_signup(
        organizer,
        capacity=1,
        schedule={
            "time_zone": "UTC",
            "starts_at": "2099-01-01 10:00",
            "checkin_opens_at": "2020-01-01 09:00",
        },
    )
    base = f"/api/tournaments/{tournament.pk}"
    ada, bea = api_for(people["Ada"]), api_for(people["Bea"])
    ada_id, bea_id = people["Ada"].player.pk, people["Bea"].player.pk
    joined = ada.post(f"{base}/join/")
    assert (joined.status_code, joined.json()) == (201, entry("Ada", ada_id, "active"))
    queued = bea.post(f"{base}/join/")
    assert (queued.status_code, queued.json()) == (201, entry("Bea", bea_id, "waitlisted", position=1))
    assert bea.get(f"{base}/entry/").json() == entry("Bea", bea_id, "waitlisted", position=1)
    checked = bea.post(f"{base}/check-in/", {}, format="json")
    assert checked.json() == entry("Bea", bea_id, "waitlisted", checked_in=True, position=1)
    again = ada.post(f"{base}/join/")
    assert (again.status_code, again.json()) == (
        400,
        {"code": "duplicate", "detail": "you are already registered", "errors": []},
    )
    other = bea.post(f"{base}/registrations/{ada_id}/check-in/", {"checked_in": True}, format="json")
    assert (other.status_code, other.json()["code"]) == (403, "forbidden"), "only their own entry"
    left = ada.post(f"{base}/leave/")
    assert left.json() == entry("Ada", ada_id, "withdrawn")
    assert bea.get(f"{base}/entry/").json() == entry("Bea", bea_id, "active", checked_in=True)
    assert api_for().get(f"{base}/").json()["places_left"] == 0
    listed = api_for().get(f"{base}/registrations/").json()
    assert [(row["name"], row["status"]) for row in listed] == [("Ada", "withdrawn"), ("Bea", "active")]


def test_organizers_approve_and_declined_entries_are_listed_for_organizers_only(organizer, people):
    tournament = open_signup(organizer, approval=True)
    base = f"/api/tournaments/{tournament.pk}"
    for name in ("Ada", "Bea"):
        assert api_for(people[name]).post(f"{base}/join/").json()["status"] == "pending"
    staff = api_for(organizer)
    approved = staff.post(
        f"{base}/registrations/{people['Ada'].player.pk}/decision/", {"approve": True}, format="json"
    )
    assert approved.json()["status"] == "active"
    staff.post(f"{base}/registrations/{people['Bea'].player.pk}/decision/", {"approve": False}, format="json")
    again = staff.post(
        f"{base}/registrations/{people['Bea'].player.pk}/decision/", {"approve": True}, format="json"
    )
    assert (again.status_code, again.json()["detail"]) == (409, "Bea is not waiting for approval (declined)")
    assert [row["name"] for row in api_for().get(f"{base}/registrations/").json()] == ["Ada"]
    assert [row["name"] for row in staff.get(f"{base}/registrations/").json()] == ["Ada", "Bea"]
    refused = api_for(people["Bea"]).post(f"{base}/join/")
    assert (refused.status_code, refused.json()["detail"]) == (
        403,
        "the organizers declined your entry: ask them if you think this is a mistake",
    )


def test_the_start_preview_and_a_confirmed_start(organizer, people):
    tournament = open_signup(
        organizer,
        capacity=2,
        schedule={
            "time_zone": "UTC",
            "starts_at": "2099-01-01 10:00",
            "checkin_opens_at": "2020-01-01 09:00",
        },
    )
    base = f"/api/tournaments/{tournament.pk}"
    for name in ("Ada", "Bea", "Cal", "Dov"):
        api_for(people[name]).post(f"{base}/join/")
    for name in ("Ada", "Cal", "Dov"):
        api_for(people[name]).post(f"{base}/check-in/", {"checked_in": True}, format="json")
    staff = api_for(organizer)
    ids = {name: people[name].player.pk for name in people}
    preview = staff.get(f"{base}/start-preview/").json()
    assert preview == {
        "check_in": True,
        "dropped": [entry("Bea", ids["Bea"], "active")],
        "promoted": [entry("Cal", ids["Cal"], "waitlisted", checked_in=True, position=1)],
        "staying": [entry("Dov", ids["Dov"], "waitlisted", checked_in=True, position=2)],
        "starting": 2,
    }
    unconfirmed = staff.post(f"{base}/start/", {}, format="json")
    assert (unconfirmed.status_code, unconfirmed.json()) == (
        400,
        {
            "code": "invalid",
            "field": "confirm",
            "detail": "check-in is on: starting drops 1 no-show(s) and moves 1 up from the waitlist; look at "
            "the start preview and confirm",
            "errors": [
                {
                    "field": "confirm",
                    "code": "invalid",
                    "detail": "check-in is on: starting drops 1 no-show(s) and moves 1 up from the waitlist; "
                    "look at the start preview and confirm",
                }
            ],
        },
    )
    stale = staff.post(
        f"{base}/start/", {"confirm": True, "dropped": [], "promoted": [ids["Cal"]]}, format="json"
    )
    assert (stale.status_code, stale.json()["detail"]) == (
        409,
        "check-ins changed since the preview: look at the start preview again",
    )
    started = staff.post(
        f"{base}/start/", {"confirm": True, "dropped": [ids["Bea"]], "promoted": [ids["Cal"]]}, format="json"
    )
    assert started.json()["status"] == "running"
    assert statuses(tournament) == {"Ada": "active", "Bea": "no_show", "Cal": "active", "Dov": "waitlisted"}


def test_the_schedule_is_set_in_local_times_and_read_back_in_the_events_zone(organizer):
    tournament = open_signup(organizer)
    staff = api_for(organizer)
    base = f"/api/tournaments/{tournament.pk}"
    answer = staff.patch(
        f"{base}/schedule/",
        {
            "time_zone": "Europe/Berlin",
            "starts_at": "2026-12-05T10:00",
            "checkin_opens_at": "2026-12-05T08:30:00Z",
            "round_times": ["2026-12-05 10:00", None, "2026-12-05T15:00:00+01:00"],
        },
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    body = api_for().get(f"{base}/").json()
    assert {
        key: body[key] for key in ("time_zone", "starts_at", "checkin_opens_at", "check_in", "round_times")
    } == {
        "time_zone": "Europe/Berlin",
        "starts_at": "2026-12-05T10:00:00+01:00",
        "checkin_opens_at": "2026-12-05T09:30:00+01:00",
        "check_in": True,
        "round_times": [
            {"number": 1, "starts_at": "2026-12-05T10:00:00+01:00"},
            {"number": 3, "starts_at": "2026-12-05T15:00:00+01:00"},
        ],
    }
    listed = api_for().get("/api/tournaments/").json()["results"][0]
    assert listed["round_times"] == body["round_times"]
    bad = staff.patch(f"{base}/schedule/", {"time_zone": "Berlin"}, format="json")
    assert (bad.status_code, bad.json()["field"], bad.json()["detail"]) == (
        400,
        "time_zone",
        "'Berlin' is not a time zone: give an IANA name such as Europe/Berlin",
    )
    cleared = staff.patch(f"{base}/schedule/", {"checkin_opens_at": None}, format="json")
    assert cleared.json()["check_in"] is False


def test_sign_up_settings_through_the_api(organizer, people):
    tournament = services.tournament_create(
        created_by=organizer, name="Later", game_id="nacho_pile", rounds=1
    )
    staff = api_for(organizer)
    base = f"/api/tournaments/{tournament.pk}"
    answer = staff.patch(
        f"{base}/sign-up/", {"self_signup": True, "capacity": 3, "approval": True}, format="json"
    )
    body = answer.json()
    assert (
        body["self_signup"],
        body["capacity"],
        body["waitlist"],
        body["approval"],
        body["places_left"],
    ) == (True, 3, True, True, 3)
    zero = staff.patch(f"{base}/sign-up/", {"capacity": 0}, format="json")
    assert (zero.status_code, zero.json()["field"]) == (400, "capacity")
    early = api_for(people["Ada"]).post(f"{base}/join/")
    assert (early.status_code, early.json()["code"]) == (404, "not_found"), "a draft is hidden from players"
