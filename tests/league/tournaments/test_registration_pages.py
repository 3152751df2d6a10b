"""The pages of open sign-up: Join/Leave and check-in on the tournament page, the organizers' sign-up and
schedule settings, the check-in desk and the start confirmation; every time in the event's zone."""

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from league.tournaments import services
from league.tournaments.models import Tournament
from tests.factories import UserFactory
from tests.factories.tournaments import open_signup, statuses, user_with_player
from tests.league.page_forms import posted

BERLIN = {
    "time_zone": "Europe/Berlin",
    "starts_at": "2099-12-05 10:00",
    "checkin_opens_at": "2020-01-01 09:00",
}
LATER = {
    "time_zone": "Europe/Berlin",
    "starts_at": "2099-12-05 10:00",
    "checkin_opens_at": "2099-12-05 09:00",
}


def text(response, element_id: str) -> str:
    """The text of the element with this id, tags removed and spaces collapsed."""
    html = response.content.decode()
    match = re.search(rf'<(\w+)[^>]*id="{element_id}"[^>]*>(.*?)</\1>', html, re.S)
    assert match, f"no element #{element_id}"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", re.sub(r"</?bdi>", "", match.group(2)))).strip()


@pytest.fixture
def ada(db):
    return user_with_player("ada", "Ada")


@pytest.fixture
def bea(db):
    return user_with_player("bea", "Bea")


def test_a_signed_in_player_joins_from_the_tournament_page_and_leaves_again(client, organizer, ada, bea):
    tournament = open_signup(organizer, capacity=1)
    page = f"/tournaments/{tournament.slug}/"
    client.force_login(ada)
    assert text(client.get(page), "places") == "Open for sign-up: 1 of 1 place left"
    assert text(client.get(page), "join") == "Join"
    answer = client.post(f"{page}entry/join/", follow=True)
    assert answer.redirect_chain == [(page, 302)]
    assert "You are registered." in answer.content.decode()
    assert text(answer, "my-entry") == "You are registered."
    assert text(answer, "places") == "Open for sign-up: full"
    client.force_login(bea)
    assert text(client.get(page), "join") == "Join the waitlist"
    answer = client.post(f"{page}entry/join/", follow=True)
    assert "The tournament is full: you are on the waitlist." in answer.content.decode()
    assert text(answer, "my-entry") == "You are number 1 on the waitlist."
    assert text(answer, "places") == "Open for sign-up: full · 1 on the waitlist"
    client.force_login(ada)
    answer = client.post(f"{page}entry/leave/", follow=True)
    assert "You have left the tournament." in answer.content.decode()
    assert text(answer, "my-entry") == "You left this tournament."
    assert statuses(tournament) == {"Ada": "withdrawn", "Bea": "active"}
    again = client.post(f"{page}entry/leave/")
    assert again.status_code == 404
    assert "you are not registered in this tournament" in again.content.decode()


def test_visitors_are_asked_to_log_in_and_users_without_a_player_to_create_one(client, organizer):
    tournament = open_signup(organizer)
    page = f"/tournaments/{tournament.slug}/"
    html = client.get(page).content.decode()
    assert (
        'Playing? <a href="/accounts/login/?next=/tournaments/open-day/" id="log-in-to-join">Log in</a> or '
        '<a href="/accounts/signup/?next=/tournaments/open-day/" id="sign-up-to-join">sign up</a> to join.'
    ) in html
    assert 'id="join"' not in html
    answer = client.post(f"{page}entry/join/")
    assert answer["Location"] == "/accounts/login/?next=/tournaments/open-day/"
    client.force_login(UserFactory(username="newcomer"))
    response = client.get(page)
    assert text(response, "no-player") == "Create your player on your page to join."
    refused = client.post(f"{page}entry/join/")
    assert refused.status_code == 403
    assert "you have no player yet: create yours on your page (/me/) first" in refused.content.decode()


def test_approval_shows_ask_to_join_and_organizers_approve_from_the_page(client, organizer, ada):
    tournament = open_signup(organizer, approval=True)
    page = f"/tournaments/{tournament.slug}/"
    client.force_login(ada)
    assert text(client.get(page), "join") == "Ask to join"
    answer = client.post(f"{page}entry/join/", follow=True)
    assert text(answer, "my-entry") == "Your entry waits for the organizers' approval."
    assert "1 entry waits for the organizers' approval." in answer.content.decode()
    client.force_login(organizer)
    assert 'id="pending"' in client.get(page).content.decode()
    decided = client.post(f"{page}decide/", {"player": ada.player.pk, "decision": "approve"}, follow=True)
    assert "Ada: active." in decided.content.decode()
    bad = client.post(f"{page}decide/", {"player": ada.player.pk, "decision": "maybe"})
    assert bad.status_code == 400
    assert "approve or decline the entry" in bad.content.decode()


def test_check_in_on_the_tournament_page_before_and_while_the_window_is_open(client, organizer, ada):
    later = open_signup(organizer, schedule=LATER, name="Later")
    services.registration_join(tournament=later, by=ada)
    client.force_login(ada)
    page = f"/tournaments/{later.slug}/"
    response = client.get(page)
    assert (
        text(response, "my-entry")
        == "You are registered. Check in from Sat 5 Dec 2099, 09:00 (Europe/Berlin)."
    )
    assert 'id="check-in"' not in response.content.decode()
    refused = client.post(f"{page}entry/check-in/")
    assert refused.status_code == 409
    assert "check-in opens on Sat 5 Dec 2099, 09:00 (Europe/Berlin)" in refused.content.decode()

    tournament = open_signup(organizer, schedule=BERLIN)
    services.registration_join(tournament=tournament, by=ada)
    page = f"/tournaments/{tournament.slug}/"
    response = client.get(page)
    assert text(response, "check-in-window") == (
        "opens Wed 1 Jan 2020, 09:00 (Europe/Berlin), closes at the start · open now"
    )
    assert text(response, "check-in") == "Check in"
    answer = client.post(f"{page}entry/check-in/", follow=True)
    assert "You are checked in." in answer.content.decode()
    checked = tournament.registrations.get().checked_in_at
    shown = checked.astimezone(ZoneInfo("Europe/Berlin"))
    assert text(answer, "my-entry") == (
        f"You are registered. Checked in {shown:%a} {shown.day} {shown:%b %Y, %H:%M} (Europe/Berlin)."
    )
    assert text(answer, "undo-check-in") == "Undo check-in"
    answer = client.post(f"{page}entry/undo-check-in/", follow=True)
    assert "Your check-in is undone." in answer.content.decode()
    assert tournament.registrations.get().checked_in_at is None


def test_times_are_shown_in_the_events_zone_with_the_zone_named(client, organizer):
    tournament = open_signup(
        organizer,
        schedule={
            "time_zone": "Europe/Berlin",
            "starts_at": "2099-12-05 10:00",
            "checkin_opens_at": "2099-12-05 09:00",
            "round_times": ["2099-12-05 10:00", "", "2099-12-05 14:30"],
        },
    )
    assert tournament.starts_at == datetime(2099, 12, 5, 9, 0, tzinfo=UTC)
    response = client.get(f"/tournaments/{tournament.slug}/")
    assert text(response, "starts-at") == "Sat 5 Dec 2099, 10:00 (Europe/Berlin)"
    assert text(response, "schedule") == (
        "Start Sat 5 Dec 2099, 10:00 (Europe/Berlin) "
        "Check-in opens Sat 5 Dec 2099, 09:00 (Europe/Berlin), closes at the start "
        "Round 1 Sat 5 Dec 2099, 10:00 (Europe/Berlin) Round 3 Sat 5 Dec 2099, 14:30 (Europe/Berlin)"
    )
    services.tournament_schedule(tournament=tournament, by=organizer, time_zone="America/New_York")
    assert (
        text(client.get(f"/tournaments/{tournament.slug}/"), "starts-at")
        == "Sat 5 Dec 2099, 04:00 (America/New_York)"
    )


def test_the_round_page_shows_its_planned_start(client, organizer, ada, bea):
    tournament = open_signup(
        organizer, schedule={"time_zone": "Asia/Tokyo", "round_times": ["2026-12-05T18:15"]}
    )
    services.registration_join(tournament=tournament, by=ada)
    services.registration_join(tournament=tournament, by=bea)
    services.tournament_start(tournament=tournament, by=organizer)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    response = client.get(f"/tournaments/{tournament.slug}/rounds/1/")
    assert text(response, "planned-start") == "Planned start: Sat 5 Dec 2026, 18:15 (Asia/Tokyo)"


def test_the_settings_page_reads_local_times_in_the_zone_given(client, organizer):
    tournament = open_signup(organizer)
    client.force_login(organizer)
    base = f"/tournaments/{tournament.slug}/settings/"
    shown = posted(client.get(base), "settings-form")
    saved = client.post(
        f"{base}save/",
        {
            **shown,
            "time_zone": "Australia/Sydney",
            "starts_at": "2026-12-05T10:00",
            "checkin_opens_at": "2026-12-05T09:30",
            "round_time_1": "2026-12-05T10:00",
            "round_time_2": "2026-12-05T11:00",
        },
    )
    assert saved["Location"] == base
    tournament.refresh_from_db()
    assert (tournament.time_zone, tournament.starts_at, tournament.checkin_opens_at) == (
        "Australia/Sydney",
        datetime(2026, 12, 4, 23, 0, tzinfo=UTC),
        datetime(2026, 12, 4, 22, 30, tzinfo=UTC),
    )
    assert [(row.number, row.starts_at) for row in tournament.round_times.all()] == [
        (1, datetime(2026, 12, 4, 23, 0, tzinfo=UTC)),
        (2, datetime(2026, 12, 5, 0, 0, tzinfo=UTC)),
    ]
    form = client.get(base).content.decode()
    assert 'name="starts_at" value="2026-12-05T10:00"' in form
    assert 'name="round_time_2" value="2026-12-05T11:00"' in form
    cases = [
        (
            {"time_zone": "Mars/Olympus"},
            "&#x27;Mars/Olympus&#x27; is not a time zone: give an IANA name such as Europe/Berlin",
        ),
        (
            {"time_zone": "Europe/Berlin", "starts_at": "2026-03-29T02:30"},
            "2026-03-29 02:30 does not exist in Europe/Berlin: the clocks skip that hour",
        ),
        (
            {"time_zone": "UTC", "starts_at": "2026-12-05T10:00", "checkin_opens_at": "2026-12-05T10:00"},
            "check-in must open before the start time",
        ),
        (
            {"time_zone": "UTC", "starts_at": "", "checkin_opens_at": "2026-12-05T10:00"},
            "set the start time too: check-in opens before it",
        ),
        (
            {"time_zone": "UTC", "starts_at": "2026-12-05T10:00", "round_time_1": "2026-12-05T09:00"},
            "round 1 starts before the tournament",
        ),
        (
            {"time_zone": "UTC", "round_time_1": "2026-12-05T11:00", "round_time_2": "2026-12-05T10:00"},
            "round 2 starts no later than round 1",
        ),
        (
            {"time_zone": "UTC", "starts_at": "soon"},
            "&#x27;soon&#x27; is not a time: write it as 2026-12-05 10:00",
        ),
    ]
    blank = {**shown, "round_time_1": "", "round_time_2": ""}
    for data, message in cases:
        response = client.post(f"{base}save/", {**blank, **data})
        assert response.status_code == 400, data
        assert message in response.content.decode(), data
    signup = client.post(f"{base}save/", {**shown, "self_signup": "on", "capacity": "0"})
    assert signup.status_code == 400
    assert "Ensure this value is greater than or equal to 1." in signup.content.decode()
    assert (
        client.post(
            f"{base}save/", {**shown, "self_signup": "on", "capacity": "12", "approval": "on"}
        ).status_code
        == 302
    )
    tournament.refresh_from_db()
    assert (tournament.self_signup, tournament.capacity, tournament.waitlist, tournament.approval) == (
        True,
        12,
        True,
        True,
    )


def test_settings_are_fixed_once_started_except_round_times_and_zone(client, organizer, ada, bea):
    tournament = open_signup(organizer, schedule={"time_zone": "UTC", "starts_at": "2026-12-05 10:00"})
    services.registration_join(tournament=tournament, by=ada)
    services.registration_join(tournament=tournament, by=bea)
    services.tournament_start(tournament=tournament, by=organizer)
    client.force_login(organizer)
    base = f"/tournaments/{tournament.slug}/settings/"
    page = client.get(base)
    assert "The tournament has started: sign-up is closed." in page.content.decode()
    shown = posted(page, "settings-form")
    assert "capacity" not in shown and "name" not in shown
    moved = client.post(f"{base}save/", {**shown, "starts_at": "2026-12-06T10:00"})
    assert moved.status_code == 409
    assert "the start and check-in are fixed once the tournament has started" in moved.content.decode()
    kept = client.post(
        f"{base}save/", {**shown, "name": "Renamed", "capacity": "4", "round_time_1": "2026-12-05T12:00"}
    )
    assert kept.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.capacity) == ("Open Day", None), "fixed parts are not read"
    assert [row.starts_at for row in tournament.round_times.all()] == [
        datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
    ]


@pytest.fixture
def desk(organizer):
    """Registration open, check-in open: Cal, Ada, Bea registered (in that order), Dov waitlisted (cap 3)."""
    tournament = open_signup(organizer, capacity=3, schedule=BERLIN)
    people = {name: user_with_player(name.lower(), name) for name in ("Cal", "Ada", "Bea", "Dov")}
    for user in people.values():
        services.registration_join(tournament=tournament, by=user)
    return tournament, people


def desk_rows(response) -> list[list[str]]:
    body = response.content.decode().split('<table id="desk">')[1].split("</tbody>")[0].split("<tbody>")[1]
    rows = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)).strip() for row in body.split("</tr>")[:-1]]
    return [row.split(" ", 1) for row in rows]


def test_the_check_in_desk_lists_everyone_by_name_and_checks_in_with_one_post(client, organizer, desk):
    tournament, people = desk
    client.force_login(organizer)
    url = f"/tournaments/{tournament.slug}/check-in/"
    response = client.get(url)
    assert desk_rows(response) == [
        ["Ada", "Registered Check in"],
        ["Bea", "Registered Check in"],
        ["Cal", "Registered Check in"],
        ["Dov", "Waitlisted Check in"],
    ]
    assert text(response, "counts").startswith("0 of 3 registered players checked in · 0 of 1 waitlisted.")
    answer = client.post(
        url, {"player": people["Bea"].player.pk, "checked_in": "1"}, HTTP_ACCEPT="application/json"
    )
    assert answer.json() == {
        "player": people["Bea"].player.pk,
        "name": "Bea",
        "checked_in": True,
        "counts": {"registered": 3, "registered_checked_in": 1, "waitlisted": 1, "waitlisted_checked_in": 0},
    }
    plain = client.post(url, {"player": people["Dov"].player.pk, "checked_in": "1", "q": "do"})
    assert plain["Location"] == f"{url}?q=do"
    filtered = client.get(plain["Location"])
    assert desk_rows(filtered) == [["Dov", "Waitlisted checked in Undo"]]
    undo = client.post(
        url, {"player": people["Bea"].player.pk, "checked_in": "0"}, HTTP_ACCEPT="application/json"
    )
    assert undo.json()["checked_in"] is False
    missing = client.post(url, {"player": 99999, "checked_in": "1"}, HTTP_ACCEPT="application/json")
    assert (missing.status_code, missing.json()) == (
        404,
        {"code": "not_found", "detail": "player 99999 is not registered", "field": "player"},
    )
    bad = client.post(url, {"player": "x"})
    assert bad.status_code == 400
    assert "player must be a whole number" in bad.content.decode()


def test_the_start_confirmation_lists_no_shows_and_promotions_then_starts(client, organizer, desk):
    tournament, people = desk
    for name in ("Ada", "Cal", "Dov"):
        services.registration_check_in(tournament=tournament, by=people[name])
    client.force_login(organizer)
    detail = client.get(f"/tournaments/{tournament.slug}/").content.decode()
    assert f'<a class="button" href="/tournaments/{tournament.slug}/start/" id="start">' in detail
    url = f"/tournaments/{tournament.slug}/start/"
    page = client.get(url)
    assert text(page, "dropped") == "Bea"
    assert text(page, "promoted") == "Dov (waitlist #1)"
    assert text(page, "confirm-start") == "Start with these 3 players"
    services.registration_check_in(tournament=tournament, by=people["Bea"])
    form = {
        "confirm": "1",
        "dropped": ["", str(people["Bea"].player.pk)],
        "promoted": ["", str(people["Dov"].player.pk)],
    }
    stale = client.post(url, form)
    assert stale.status_code == 409
    assert "check-ins changed since the preview: look at the start preview again" in stale.content.decode()
    assert text(stale, "dropped") == "Nobody: every registered player checked in."
    assert text(stale, "promoted") == "Nobody."
    fresh = {"confirm": "1", "dropped": [""], "promoted": [""]}
    started = client.post(url, fresh)
    assert started["Location"] == f"/tournaments/{tournament.slug}/"
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert statuses(tournament) == {"Cal": "active", "Ada": "active", "Bea": "active", "Dov": "waitlisted"}
    assert client.get(url)["Location"] == f"/tournaments/{tournament.slug}/", (
        "nothing to confirm once started"
    )


def test_without_check_in_the_start_button_posts_at_once(client, organizer, ada, bea):
    tournament = open_signup(organizer)
    services.registration_join(tournament=tournament, by=ada)
    services.registration_join(tournament=tournament, by=bea)
    client.force_login(organizer)
    detail = client.get(f"/tournaments/{tournament.slug}/").content.decode()
    assert f'<form method="post" action="/tournaments/{tournament.slug}/start/">' in detail
    assert (
        client.post(f"/tournaments/{tournament.slug}/start/")["Location"]
        == f"/tournaments/{tournament.slug}/"
    )
