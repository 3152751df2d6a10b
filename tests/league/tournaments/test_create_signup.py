"""The create form sets sign-up (open by default there), the cap, the waitlist and check-in with the rest;
its time zone is picked from the list and matched without regard to case; a start in the past is kept with
a warning; a draft without players offers no Start, and a visitor's sign-up link comes back to the event."""

from datetime import UTC, datetime

import pytest

from league.tournaments import services
from league.tournaments.models import Tournament
from tests.factories.tournaments import open_signup
from tests.league.page_forms import posted


@pytest.fixture
def staff_client(client, organizer):
    client.force_login(organizer)
    return client


def test_the_create_form_sets_sign_up_cap_waitlist_and_check_in(staff_client):
    page = staff_client.get("/tournaments/new/")
    shown = posted(page, "settings-form")
    assert (shown.get("self_signup"), shown.get("waitlist"), shown["capacity"]) == (None, None, "")
    assert '<select name="time_zone"' in page.content.decode()
    data = {
        **shown,
        "name": "Harbour Open",
        "game_id": "nacho_pile",
        "table_size": "4",
        "start_date": "2099-05-02",
        "start_time": "10:00",
        "time_zone": "europe/berlin",
        "capacity": "24",
        "self_signup": "on",  # the box the cap ticked (settings-form.js)
        "waitlist": "on",
        "checkin_opens_at": "2099-05-02T09:15",
    }
    created = staff_client.post("/tournaments/new/", data, follow=True)
    assert created.status_code == 200
    tournament = Tournament.objects.get(name="Harbour Open")
    assert (tournament.self_signup, tournament.capacity, tournament.waitlist, tournament.approval) == (
        True,
        24,
        True,
        False,
    )
    assert (tournament.time_zone, tournament.starts_at, tournament.checkin_opens_at) == (
        "Europe/Berlin",
        datetime(2099, 5, 2, 8, 0, tzinfo=UTC),
        datetime(2099, 5, 2, 7, 15, tzinfo=UTC),
    )
    assert "is in the past" not in created.content.decode()


def test_a_refused_check_in_stores_no_tournament_and_keeps_the_form(staff_client):
    data = {
        **posted(staff_client.get("/tournaments/new/"), "settings-form"),
        "name": "Late Check",
        "start_date": "2099-05-02",
        "start_time": "10:00",
        "time_zone": "UTC",
        "capacity": "8",
        "checkin_opens_at": "2099-05-02T11:00",
    }
    refused = staff_client.post("/tournaments/new/", data)
    assert refused.status_code == 400
    assert "check-in must open before the start time" in refused.content.decode()
    shown = posted(refused, "settings-form")
    assert (shown["name"], shown["capacity"], shown["checkin_opens_at"]) == (
        "Late Check",
        "8",
        "2099-05-02T11:00",
    )
    assert not Tournament.objects.exists()


def test_open_sign_up_starts_off_on_the_create_form_for_an_invitational(staff_client):
    data = {**posted(staff_client.get("/tournaments/new/"), "settings-form"), "name": "Invitational"}
    assert "self_signup" not in data  # off until a cap turns it on (or the organizer ticks it)
    assert staff_client.post("/tournaments/new/", data).status_code == 302
    assert Tournament.objects.get(name="Invitational").self_signup is False


def test_a_start_in_the_past_is_created_with_a_warning(staff_client):
    data = {
        **posted(staff_client.get("/tournaments/new/"), "settings-form"),
        "name": "Last Spring",
        "start_date": "2021-04-10",
        "start_time": "14:30",
        "time_zone": "UTC",
    }
    created = staff_client.post("/tournaments/new/", data, follow=True)
    assert (
        "The start, Sat 10 Apr 2021, 14:30 (UTC), is in the past: kept as given "
        "(right for recording an event already played)." in created.content.decode()
    )
    assert Tournament.objects.get(name="Last Spring").starts_at == datetime(2021, 4, 10, 14, 30, tzinfo=UTC)


def test_start_is_offered_only_once_players_are_registered(staff_client, organizer):
    tournament = open_signup(organizer)
    page = staff_client.get(tournament.get_absolute_url()).content.decode()
    assert 'id="start"' not in page
    assert "Start appears once players are registered." in page
    services.registration_add(tournament=tournament, by=organizer, name="Ada")
    page = staff_client.get(tournament.get_absolute_url()).content.decode()
    assert 'id="start"' in page and "Start appears once players are registered." not in page


def test_a_visitors_sign_up_link_comes_back_to_the_event(client, organizer):
    tournament = open_signup(organizer)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert f'href="/accounts/signup/?next=/tournaments/{tournament.slug}/" id="sign-up-to-join"' in page
