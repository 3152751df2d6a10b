"""The room's pages: print views (pairings by table and by name, score slips), the projector, live round
pages, the round timer (services, page, API) and the embeddable standings and bracket with their frame
headers."""

import html
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.staticfiles import finders
from rest_framework.test import APIClient

from league.core.errors import UserError
from league.tournaments import services, timers
from league.tournaments.errors import NotOrganizer, StateConflict
from league.tournaments.models import Round, Tournament
from tests.factories import UserFactory
from tests.league.csp import EMBED_POLICY, POLICY, policy

NOON = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch):
    """The timer's clock, set by the test: `clock.at = instant`."""

    class Clock:
        at = NOON

    monkeypatch.setattr(timers, "now", lambda: Clock.at)
    return Clock


@pytest.fixture
def running(make_tournament, organizer):
    """A 4-seat Swiss of 10 (Ada, Bea, ... Jon): round 1 published with tables [Ada, Dov, Gus, Jon],
    [Bea, Eli, Hal] and [Cal, Fay, Ivy]; table 1 has its result (places in seat order)."""
    tournament, _ = make_tournament(10)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    first = round_row.tables.get(number=1)
    services.table_result(table=first, by=organizer, expected_version=0, places=[1, 2, 3, 4])
    return tournament


def first_round(tournament) -> Round:
    return tournament.round_set.get(number=1)


def text(fragment: str) -> str:
    """The visible text of an HTML fragment (inline <bdi> around names dropped), spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"</?bdi>", "", fragment))).split())


def element(page: str, element_id: str) -> str:
    """The markup of the element with this id, nested elements of its kind included."""
    match = re.search(rf'<(\w+)[^>]*\bid="{element_id}"[^>]*>', page)
    assert match, f"no #{element_id}"
    tag, depth = match.group(1), 1
    for mark in re.finditer(rf"<(/?){tag}\b[^>]*>", page[match.end() :]):
        depth += -1 if mark.group(1) else 1
        if depth == 0:
            return page[match.start() : match.end() + mark.end()]
    raise AssertionError(f"#{element_id} is not closed")


def rows(fragment: str) -> list[list[str]]:
    """The cells of each table row of a fragment, as text."""
    return [
        [text(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", fragment, re.S)
    ]


def items(fragment: str) -> list[str]:
    return [text(item) for item in re.findall(r"<li[^>]*>(.*?)</li>", fragment, re.S)]


def static_text(path: str) -> str:
    with open(finders.find(path), encoding="utf-8") as handle:
        return handle.read()


# Print views


def test_pairings_print_lists_the_round_by_table_and_by_name(client, running):
    page = client.get(f"/tournaments/{running.slug}/rounds/1/print/").content.decode()
    assert rows(element(page, "by-table")) == [
        ["Table", "Seat 1", "Seat 2", "Seat 3", "Seat 4"],
        ["1", "Ada", "Dov", "Gus", "Jon"],
        ["2", "Bea", "Eli", "Hal", ""],
        ["3", "Cal", "Fay", "Ivy", ""],
    ]
    assert items(element(page, "by-name")) == [
        "Ada table 1 · seat 1",
        "Bea table 2 · seat 1",
        "Cal table 3 · seat 1",
        "Dov table 1 · seat 2",
        "Eli table 2 · seat 2",
        "Fay table 3 · seat 2",
        "Gus table 1 · seat 3",
        "Hal table 2 · seat 3",
        "Ivy table 3 · seat 3",
        "Jon table 1 · seat 4",
    ]
    assert text(element(page, "by-table")).startswith("Spring Open · Round 1 Nacho Pile · pairings by table")


def test_pairings_print_one_list_at_a_time(client, running):
    tables = client.get(f"/tournaments/{running.slug}/rounds/1/print/?list=tables").content.decode()
    names = client.get(f"/tournaments/{running.slug}/rounds/1/print/?list=names").content.decode()
    assert 'id="by-table"' in tables and 'id="by-name"' not in tables
    assert 'id="by-name"' in names and 'id="by-table"' not in names


def test_pairings_print_names_byes(client, make_tournament, organizer):
    tournament, _ = make_tournament(9, table_size=4, leftovers="byes")
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    page = client.get(f"/tournaments/{tournament.slug}/rounds/1/print/").content.decode()
    assert "<strong>Bye</strong> (scores as a win): <bdi>Ivy</bdi>" in page
    assert items(element(page, "by-name"))[8] == "Ivy bye"


def test_score_slips_one_per_table_with_seats_and_blank_boxes(client, running):
    page = client.get(f"/tournaments/{running.slug}/rounds/1/slips/").content.decode()
    assert page.count('<section class="slip"') == 3 == first_round(running).tables.count()
    slip = element(page, "slip-2")
    assert text(slip).startswith("Spring Open · Nacho Pile Round 1 Table 2")
    assert rows(slip) == [
        ["Seat", "Player", "Place", "Score", "Signature"],
        ["1", "Bea", "", "", ""],
        ["2", "Eli", "", "", ""],
        ["3", "Hal", "", "", ""],
    ]
    assert slip.count('<td class="box"></td>') == 6
    assert "Entered by" in text(slip)
    assert "3 slips, three to an A4 page" in text(page)


def test_print_stylesheet_hides_the_chrome_and_puts_three_slips_on_an_a4_page(client, running):
    page = client.get(f"/tournaments/{running.slug}/rounds/1/slips/").content.decode()
    assert '<link rel="stylesheet" href="/static/tournaments/room.css">' in page
    assert '<header class="site">' in page  # on screen; the print stylesheet hides it
    css = static_text("tournaments/room.css")
    printing = css[css.index("@media print {") :]
    assert "header.site, .messages, .no-print, .controls { display: none !important; }" in printing
    assert "@page { size: A4; margin: 1cm; }" in printing
    assert ".slip:nth-of-type(3n) { break-after: page; border-bottom: 0; }" in printing
    assert "break-inside: avoid; }" in printing[printing.index(".slip {") :]
    assert ".new-page { break-before: page; margin-top: 0; }" in printing
    assert 'class="print-bar no-print"' in page


@pytest.mark.parametrize("who", ["anonymous", "stranger", "organizer"])
def test_print_views_of_a_published_round_are_public_and_linked_for_organizers(client, running, who, request):
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    for path in ("print", "slips"):
        assert client.get(f"/tournaments/{running.slug}/rounds/1/{path}/").status_code == 200
    round_page = client.get(f"/tournaments/{running.slug}/rounds/1/").content.decode()
    assert ('id="room-links"' in round_page) is (who == "organizer")
    if who == "organizer":
        assert text(element(round_page, "room-links")) == (
            "For the room: Print pairings · Print score slips · Projector view · Keypad entry"
        )


def test_print_views_of_a_draft_are_for_organizers_and_say_draft(client, running, organizer, stranger):
    round_one = first_round(running)
    for table in round_one.tables.exclude(number=1):
        services.table_result(table=table, by=organizer, expected_version=0, places=[1, 2, 3])
    services.round_complete(round_row=round_one, by=organizer)
    services.round_generate(tournament=running, by=organizer)
    client.force_login(stranger)
    assert client.get(f"/tournaments/{running.slug}/rounds/2/print/").status_code == 404
    assert client.get(f"/tournaments/{running.slug}/rounds/2/slips/").status_code == 404
    client.force_login(organizer)
    for path in ("print", "slips"):
        page = client.get(f"/tournaments/{running.slug}/rounds/2/{path}/").content.decode()
        assert '<p class="draft-mark">Draft: not published yet</p>' in page


# Projector and live pages


def test_projector_shows_the_current_round_and_standings_without_chrome(client, running, organizer):
    client.force_login(organizer)
    page = client.get(f"/tournaments/{running.slug}/projector/").content.decode()
    assert '<header class="site">' not in page and "<nav" not in page
    assert "<form" not in page and "<button" not in page
    assert text(element(page, "pj-tables")) == (
        "Table 1 Ada 1 Dov 2 Gus 3 Jon 4 Table 2 Bea Eli Hal Table 3 Cal Fay Ivy"
    )
    assert "Round 1 · 3 tables, 2 still playing" in text(page)
    standings = rows(element(page, "pj-standings"))
    assert standings[0] == ["#", "Player", "Pts", "Pl"]
    assert standings[1:5] == [
        ["1", "Ada", "3", "1"],
        ["2", "Dov", "2", "1"],
        ["3", "Gus", "1", "1"],
        ["4", "Jon", "0", "1"],
    ]
    assert '<main id="projector" data-live data-live-seconds="5">' in page
    assert '<script src="/static/tournaments/live.js" defer></script>' in page


def test_projector_top_rows_and_one_part_per_screen(client, running):
    page = client.get(f"/tournaments/{running.slug}/projector/?top=3").content.decode()
    assert len(rows(element(page, "pj-standings"))) == 4
    assert '<p class="pj-note">and 7 more</p>' in page
    round_only = client.get(f"/tournaments/{running.slug}/projector/?show=round").content.decode()
    standings_only = client.get(f"/tournaments/{running.slug}/projector/?show=standings").content.decode()
    assert 'id="pj-tables"' in round_only and 'id="pj-standings"' not in round_only
    assert 'id="pj-standings"' in standings_only and 'id="pj-tables"' not in standings_only


def test_projector_never_shows_a_draft_and_stops_refreshing_when_finished(
    client, make_tournament, organizer, play_round
):
    tournament, _ = make_tournament(8, rounds=2)
    play_round(tournament)
    services.round_generate(tournament=tournament, by=organizer)
    client.force_login(organizer)
    page = client.get(f"/tournaments/{tournament.slug}/projector/").content.decode()
    assert "Round 1 · complete" in text(page)
    services.round_discard(round_row=tournament.round_set.get(number=2), by=organizer)
    play_round(tournament)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    page = client.get(f"/tournaments/{tournament.slug}/projector/").content.decode()
    assert "Round 2 · complete · final standings" in text(page)
    assert "Final standings" in page
    assert "data-live-seconds" not in page


def test_projector_of_a_draft_tournament_is_not_found_even_for_its_organizer(
    client, make_tournament, organizer
):
    tournament, _ = make_tournament(8, start=False)
    client.force_login(organizer)
    assert client.get(f"/tournaments/{tournament.slug}/projector/").status_code == 404


def test_a_published_round_page_refreshes_its_tables_and_a_complete_one_does_not(client, running, organizer):
    page = client.get(f"/tournaments/{running.slug}/rounds/1/").content.decode()
    assert '<div class="tables" id="tables" data-live data-live-seconds="5">' in page
    assert 'id="round-status" data-live>' in page
    assert '<script src="/static/tournaments/live.js" defer></script>' in page
    round_one = first_round(running)
    for table in round_one.tables.exclude(number=1):
        services.table_result(table=table, by=organizer, expected_version=0, places=[1, 2, 3])
    page = client.get(f"/tournaments/{running.slug}/rounds/1/").content.decode()
    # A table of 3 among tables of 4: its points scaled to a full table's (3, 1.5, 0).
    # a visitor sees places and points; the chances of first are for those who run the event
    assert text(element(page, "table-2")) == "Table 2 done Bea 1st · 3 pt Eli 2nd · 1.5 pt Hal 3rd · 0 pt"
    services.round_complete(round_row=round_one, by=organizer)
    page = client.get(f"/tournaments/{running.slug}/rounds/1/").content.decode()
    assert '<div class="tables" id="tables" data-live>' in page


def test_live_script_replaces_the_marked_parts_from_a_fresh_copy_of_the_page():
    script = static_text("tournaments/live.js")
    assert "fetch(window.location.href" in script
    assert 'document.querySelectorAll("[data-live][id]")' in script
    # It asks with the last ETag; while nothing changes (a 304, or the same page) it waits twice as long, up
    # to 60 s, and a change brings it back to data-live-seconds.
    assert '{ "If-None-Match": etag }' in script
    backing_off = "if (html === null || html === last) { wait = Math.min(wait * 2, most); later(); return; }"
    assert backing_off in script
    assert "Number(holder.dataset.liveMaxSeconds || 60) * 1000" in script
    assert "wait = base;" in script


# The round timer: services


def test_timer_start_pause_resume_extend_and_reset(running, organizer, clock):
    round_row = first_round(running)
    services.round_timer_start(round_row=round_row, by=organizer, minutes=50)
    round_row.refresh_from_db()
    assert (round_row.timer_duration_seconds, round_row.timer_ends_at, round_row.timer_paused_remaining) == (
        3000,
        NOON + timedelta(minutes=50),
        None,
    )
    clock.at = NOON + timedelta(minutes=10, seconds=30)
    assert timers.timer_view(round_row) == timers.TimerView(
        "running", 3000, 2370, NOON + timedelta(minutes=50)
    )
    assert timers.timer_view(round_row).clock == "39:30"
    services.round_timer_pause(round_row=round_row, by=organizer)
    round_row.refresh_from_db()
    assert (round_row.timer_ends_at, round_row.timer_paused_remaining) == (None, 2370)
    clock.at = NOON + timedelta(minutes=30)
    assert timers.timer_view(round_row) == timers.TimerView("paused", 3000, 2370, None)
    services.round_timer_extend(round_row=round_row, by=organizer, minutes=5)
    round_row.refresh_from_db()
    assert (round_row.timer_duration_seconds, round_row.timer_paused_remaining) == (3300, 2670)
    services.round_timer_resume(round_row=round_row, by=organizer)
    round_row.refresh_from_db()
    assert round_row.timer_ends_at == NOON + timedelta(minutes=30, seconds=2670)
    services.round_timer_extend(round_row=round_row, by=organizer, minutes=10)
    round_row.refresh_from_db()
    assert (round_row.timer_duration_seconds, round_row.timer_ends_at) == (
        3900,
        NOON + timedelta(minutes=40, seconds=2670),
    )
    services.round_timer_reset(round_row=round_row, by=organizer)
    round_row.refresh_from_db()
    assert (round_row.timer_duration_seconds, round_row.timer_ends_at, round_row.timer_paused_remaining) == (
        None,
        None,
        None,
    )
    assert timers.timer_view(round_row) is None


def test_a_timer_that_ran_out_shows_over_and_can_be_extended_from_now_or_started_again(
    running, organizer, clock
):
    round_row = first_round(running)
    services.round_timer_start(round_row=round_row, by=organizer, minutes=1)
    clock.at = NOON + timedelta(minutes=3)
    view = timers.timer_view(round_row)
    assert (view.state, view.seconds_left, view.clock) == ("over", 0, "0:00")
    services.round_timer_extend(round_row=round_row, by=organizer, minutes=2)
    assert round_row.timer_ends_at == NOON + timedelta(minutes=5)
    clock.at = NOON + timedelta(minutes=6)
    services.round_timer_start(round_row=round_row, by=organizer, minutes=20)
    assert (round_row.timer_duration_seconds, round_row.timer_ends_at) == (1200, NOON + timedelta(minutes=26))


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        (["start", "start"], "the timer is running: pause, extend or reset it"),
        (["start", "pause", "start"], "the timer is paused: pause, extend or reset it"),
        (["pause"], "the timer is not started: only a running timer pauses"),
        (["start", "pause", "pause"], "the timer is paused: only a running timer pauses"),
        (["start", "resume"], "the timer is running: only a paused timer resumes"),
        (["extend"], "the round has no timer: start one"),
        (["reset"], "the round has no timer to reset"),
    ],
)
def test_timer_steps_that_do_not_fit_its_state_are_refused(running, organizer, clock, steps, message):
    round_row = first_round(running)
    calls = {
        "start": lambda: services.round_timer_start(round_row=round_row, by=organizer, minutes=30),
        "pause": lambda: services.round_timer_pause(round_row=round_row, by=organizer),
        "resume": lambda: services.round_timer_resume(round_row=round_row, by=organizer),
        "extend": lambda: services.round_timer_extend(round_row=round_row, by=organizer, minutes=5),
        "reset": lambda: services.round_timer_reset(round_row=round_row, by=organizer),
    }
    for step in steps[:-1]:
        calls[step]()
    with pytest.raises(StateConflict) as refused:
        calls[steps[-1]]()
    assert refused.value.message == message


@pytest.mark.parametrize(
    ("minutes", "message"),
    [
        (0, "minutes must be a whole number from 1 to 600"),
        (601, "minutes must be a whole number from 1 to 600"),
        ("50", "minutes must be a whole number from 1 to 600"),
        (True, "minutes must be a whole number from 1 to 600"),
        (None, "minutes must be a whole number from 1 to 600"),
    ],
)
def test_timer_minutes_are_checked(running, organizer, minutes, message):
    with pytest.raises(UserError) as refused:
        services.round_timer_start(round_row=first_round(running), by=organizer, minutes=minutes)
    assert (refused.value.message, refused.value.field) == (message, "minutes")
    services.round_timer_start(round_row=first_round(running), by=organizer, minutes=30)
    with pytest.raises(UserError) as refused:
        services.round_timer_extend(round_row=first_round(running), by=organizer, minutes=121)
    assert refused.value.message == "minutes must be a whole number from 1 to 120"


def test_timer_runs_only_for_a_published_round(running, organizer, play_round):
    round_one = first_round(running)
    for table in round_one.tables.exclude(number=1):
        services.table_result(table=table, by=organizer, expected_version=0, places=[1, 2, 3])
    services.round_complete(round_row=round_one, by=organizer)
    draft = services.round_generate(tournament=running, by=organizer)
    with pytest.raises(StateConflict) as refused:
        services.round_timer_start(round_row=round_one, by=organizer, minutes=30)
    assert refused.value.message == "round 1 is complete: the timer runs for a published round"
    with pytest.raises(StateConflict) as refused:
        services.round_timer_start(round_row=draft, by=organizer, minutes=30)
    assert refused.value.message == "round 2 is a draft: the timer runs for a published round"


def test_only_organizers_and_staff_run_the_timer_not_scorekeepers(running, organizer, stranger):
    helper = UserFactory(username="helper")
    running.organizers.add(helper)
    round_row = first_round(running)
    with pytest.raises(NotOrganizer):
        services.round_timer_start(round_row=round_row, by=stranger, minutes=30)
    services.round_timer_start(round_row=round_row, by=helper, minutes=30)
    with pytest.raises(NotOrganizer):
        services.round_timer_pause(round_row=round_row, by=stranger)
    keeper = UserFactory(username="keeper")
    services.role_add(tournament=running, by=organizer, username="keeper", role="scorekeeper")
    with pytest.raises(NotOrganizer):
        services.round_timer_pause(round_row=round_row, by=keeper)
    services.round_timer_pause(round_row=round_row, by=organizer)


# The round timer: pages


def test_timer_controls_on_the_round_page(client, running, organizer, clock):
    client.force_login(organizer)
    url = f"/tournaments/{running.slug}/rounds/1/timer/"
    page = client.get(f"/tournaments/{running.slug}/rounds/1/").content.decode()
    assert 'name="action" value="start" class="small">Start the timer</button>' in page
    assert '<div id="round-timer" data-live hidden></div>' in page
    response = client.post(url, {"action": "start", "minutes": "45"}, follow=True)
    page = response.content.decode()
    assert response.redirect_chain == [(f"/tournaments/{running.slug}/rounds/1/", 302)]
    assert "Timer started." in page
    assert text(element(page, "round-timer")).endswith("ends 12:45 (UTC)")  # the browser counts down
    ends_ms = int(Round.objects.get(tournament=running, number=1).timer_ends_at.timestamp() * 1000)
    assert f'data-state="running" data-ends-at="{ends_ms}"' in page  # an instant: a shared copy stays true
    assert (
        'value="pause" class="small">Pause</button>' in page
        and 'value="extend" class="small">Extend the timer</button>' in page
    )
    clock.at = NOON + timedelta(minutes=5)
    client.post(url, {"action": "pause"})
    page = client.get(f"/tournaments/{running.slug}/rounds/1/").content.decode()
    assert text(element(page, "round-timer")) == "Paused 40:00 of 45:00"
    assert 'value="resume" class="small">Resume</button>' in page
    client.post(url, {"action": "extend", "minutes": "10"})
    client.post(url, {"action": "resume"})
    page = client.get(f"/tournaments/{running.slug}/rounds/1/").content.decode()
    assert text(element(page, "round-timer")) == "Time left ends 12:55 (UTC)"
    clock.at = NOON + timedelta(hours=1)
    page = client.get(f"/tournaments/{running.slug}/rounds/1/").content.decode()
    assert text(element(page, "round-timer")) == "Time is up 0:00 ended 12:55 (UTC)"
    client.post(url, {"action": "reset"})
    page = client.get(f"/tournaments/{running.slug}/rounds/1/").content.decode()
    assert '<div id="round-timer" data-live hidden></div>' in page


@pytest.mark.parametrize(
    ("data", "status", "message"),
    [
        ({"action": "start", "minutes": "soon"}, 400, "give the minutes as a whole number"),
        ({"action": "start", "minutes": "0"}, 400, "minutes must be a whole number from 1 to 600"),
        ({"action": "pause"}, 409, "the timer is not started: only a running timer pauses"),
        ({"action": "stop"}, 400, "choose start, pause, resume, extend or reset"),
    ],
)
def test_timer_errors_show_on_the_round_page(client, running, organizer, data, status, message):
    client.force_login(organizer)
    response = client.post(f"/tournaments/{running.slug}/rounds/1/timer/", data)
    assert response.status_code == status
    assert f'<p class="error-box" role="alert">{message}</p>' in response.content.decode()


def test_timer_controls_need_an_organizer(client, running, stranger):
    url = f"/tournaments/{running.slug}/rounds/1/timer/"
    response = client.post(url, {"action": "start", "minutes": "30"})
    assert (
        response.status_code == 302
        and response["Location"] == f"/accounts/login/?next=/tournaments/{running.slug}/rounds/1/timer/"
    )
    client.force_login(stranger)
    assert client.post(url, {"action": "start", "minutes": "30"}).status_code == 403
    assert client.get(url).status_code == 405
    page = client.get(f"/tournaments/{running.slug}/rounds/1/").content.decode()
    assert 'id="timer-controls"' not in page
    assert first_round(running).timer_duration_seconds is None


def test_the_timer_shows_on_the_projector_table_and_find_pages(client, running, organizer, clock):
    services.round_timer_start(round_row=first_round(running), by=organizer, minutes=50)
    clock.at = NOON + timedelta(seconds=75)
    expected = "Time left ends 12:50 (UTC)"
    projector = client.get(f"/tournaments/{running.slug}/projector/").content.decode()
    assert text(element(projector, "round-timer")) == expected
    assert 'class="round-timer running big"' in projector
    find = client.get(f"/tournaments/{running.slug}/rounds/1/find/").content.decode()
    assert text(element(find, "round-timer")) == expected
    client.force_login(organizer)
    table = client.get(f"/tournaments/{running.slug}/rounds/1/tables/2/result/").content.decode()
    assert text(element(table, "round-timer")) == expected


# The round timer: API


def test_timer_through_the_api(running, organizer, stranger, clock):
    api_client = APIClient()
    round_row = first_round(running)
    url = f"/api/tournament-rounds/{round_row.pk}/timer/"
    assert api_client.post(url, {"action": "start", "minutes": 30}, format="json").status_code == 401
    api_client.force_authenticate(stranger)
    response = api_client.post(url, {"action": "start", "minutes": 30}, format="json")
    assert (response.status_code, response.json()["code"]) == (403, "forbidden")
    api_client.force_authenticate(organizer)
    response = api_client.post(url, {"action": "start", "minutes": 30}, format="json")
    assert response.status_code == 200
    assert response.json()["timer"] == {
        "state": "running",
        "duration_seconds": 1800,
        "seconds_left": 1800,
        "ends_at": "2026-12-05T12:30:00Z",
    }
    clock.at = NOON + timedelta(minutes=1)
    response = api_client.post(url, {"action": "pause"}, format="json")
    assert response.json()["timer"] == {
        "state": "paused",
        "duration_seconds": 1800,
        "seconds_left": 1740,
        "ends_at": None,
    }
    response = api_client.post(url, {"action": "extend", "minutes": 500}, format="json")
    assert (response.status_code, response.json()["detail"]) == (
        400,
        "minutes must be a whole number from 1 to 120",
    )
    response = api_client.post(url, {"action": "pause"}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "conflict")
    response = api_client.post(url, {"action": "reset"}, format="json")
    assert response.json()["timer"] is None
    assert api_client.get(f"/api/tournament-rounds/{round_row.pk}/").json()["timer"] is None


# The embed and the frame headers


def test_the_embed_may_be_framed_and_no_other_page_may(client, running, organizer):
    embed = client.get(f"/tournaments/{running.slug}/embed/")
    assert embed.status_code == 200
    assert "X-Frame-Options" not in embed.headers
    assert policy(embed) == EMBED_POLICY
    client.force_login(organizer)
    slug = running.slug
    for path in (
        f"/tournaments/{slug}/",
        f"/tournaments/{slug}/rounds/1/",
        f"/tournaments/{slug}/rounds/1/print/",
        f"/tournaments/{slug}/rounds/1/slips/",
        f"/tournaments/{slug}/projector/",
        f"/tournaments/{slug}/rounds/1/find/",
        f"/tournaments/{slug}/standings.csv",
        "/tournaments/",
        "/",
        f"/api/tournaments/{running.pk}/",
        "/admin/",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response["X-Frame-Options"] == "DENY", path
        assert policy(response) == POLICY, path


def test_the_embed_holds_no_control_and_reads_no_session_even_for_an_organizer(client, running, organizer):
    client.force_login(organizer)
    response = client.get(f"/tournaments/{running.slug}/embed/")
    page = response.content.decode()
    for mark in ("<form", "<button", "<input", "csrfmiddlewaretoken", "organizer", "Log out"):
        assert mark not in page, mark
    assert "Cookie" not in response.get("Vary", "")
    assert not response.cookies
    client.logout()
    assert client.get(f"/tournaments/{running.slug}/embed/").content.decode() == page


def test_the_embed_shows_the_standings_and_the_bracket(client, make_tournament, organizer, play_round):
    tournament, _ = make_tournament(4, format="single_elimination", table_size=2)
    play_round(tournament)
    page = client.get(f"/tournaments/{tournament.slug}/embed/").content.decode()
    assert '<base target="_blank">' in page
    assert rows(element(page, "standings"))[0] == ["#", "Player", "Pts", "Opp. pts", "Wins", "H2H", "Pl"]
    assert (
        '<div class="bracket" tabindex="0" role="region" aria-label="Main bracket (drawing)"><svg '
        'role="group"' in page
    )
    assert '<main id="embed" data-live data-live-seconds="10">' in page
    standings = client.get(f"/tournaments/{tournament.slug}/embed/?show=standings").content.decode()
    bracket = client.get(f"/tournaments/{tournament.slug}/embed/?show=bracket").content.decode()
    assert 'id="standings"' in standings and 'class="bracket"' not in standings
    assert 'class="bracket"' in bracket and 'id="standings"' not in bracket


def test_embed_1_on_the_tournament_page_leads_to_the_embed(client, running):
    response = client.get(f"/tournaments/{running.slug}/?embed=1&show=bracket")
    assert (response.status_code, response["Location"]) == (
        302,
        f"/tournaments/{running.slug}/embed/?show=bracket",
    )
    response = client.get(f"/tournaments/{running.slug}/?embed=1")
    assert response["Location"] == f"/tournaments/{running.slug}/embed/"


def test_the_embed_of_a_draft_tournament_is_not_found_even_for_its_organizer(
    client, make_tournament, organizer
):
    tournament, _ = make_tournament(8, start=False)
    client.force_login(organizer)
    assert client.get(f"/tournaments/{tournament.slug}/embed/").status_code == 404


def test_the_tournament_page_offers_projector_and_embed_code_to_organizers(
    client, running, organizer, stranger
):
    client.force_login(stranger)
    assert 'id="room-links"' not in client.get(f"/tournaments/{running.slug}/").content.decode()
    client.force_login(organizer)
    page = client.get(f"/tournaments/{running.slug}/").content.decode()
    assert f'<a href="/tournaments/{running.slug}/projector/">Projector view</a>' in page
    assert (
        f'value=\'<iframe src="http://testserver/tournaments/{running.slug}/embed/" width="100%" height="600"'
        in page
    )


def test_the_timer_ends_in_the_events_time_zone(client, running, organizer, clock):
    Tournament.objects.filter(pk=running.pk).update(time_zone="Europe/Berlin")
    services.round_timer_start(round_row=first_round(running), by=organizer, minutes=30)
    page = client.get(f"/tournaments/{running.slug}/rounds/1/").content.decode()
    assert text(element(page, "round-timer")) == "Time left ends 13:30 (Europe/Berlin)"
