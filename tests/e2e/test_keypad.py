"""The floor's pages in a browser: a scorekeeper enters a whole round from the keypad alone (no mouse), a
fixed-seat player's slip shows their table; the keypad, seating and slips pages pass axe at 390 and 1366 px
(light and dark) and fit a phone. Screenshots go to /work/shots/h48keypad/ when that folder exists."""

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from league.matches.models import Match
from league.tournaments import services
from league.tournaments.models import Registration
from tests.e2e.site_pages import session_cookie
from tests.factories import StaffFactory, UserFactory
from tests.factories import tournaments as helpers

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 900}}
SHOTS = Path("/work/shots/h48keypad")


def _shot(page, name: str) -> None:
    if SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / name), full_page=True)


def _event():
    """12 players at 3 tables of 4, round 1 published; Bea keeps table 9 and has a note; a scorekeeper."""
    organizer = StaffFactory(username="organizer")
    UserFactory(username="keeper")
    tournament, players = helpers.make_tournament(organizer, 12)
    services.role_add(tournament=tournament, by=organizer, role="scorekeeper", username="keeper")
    bea = Registration.objects.get(tournament=tournament, player=players[1])
    services.registration_seating(
        registration=bea, by=organizer, fixed_table=9, accessibility_note="Wheelchair: the table's end"
    )
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    return tournament, round_row


def test_a_scorekeeper_enters_a_whole_round_from_the_keypad_alone(live_server, browser):
    tournament, round_row = _event()
    context = browser.new_context(viewport=SCREENS["phone"])
    context.add_cookies([session_cookie("keeper", live_server.url)])
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        page.goto(f"{live_server.url}/tournaments/{tournament.slug}/rounds/1/keypad/")
        tables = list(round_row.tables.order_by("number"))
        physical = sorted(table.physical_number for table in tables)
        assert 9 in physical
        missing = page.locator("#keypad-missing li")
        assert missing.all_inner_texts() == [str(number) for number in physical]
        typed = {}
        for index, table in enumerate(tables):
            # the table field has the focus: type the number, Enter, then the places, Enter
            assert page.evaluate("document.activeElement.id") == "keypad-table"
            page.keyboard.type(str(table.physical_number))
            page.keyboard.press("Enter")
            page.wait_for_selector("#keypad-seats")
            assert page.evaluate("document.activeElement.id") == "keypad-places"
            places = ["1234", "4321", "2143"][index]
            typed[table.pk] = [int(digit) for digit in places]
            page.keyboard.type(places)
            if index == 0:
                _shot(page, "keypad-table-chosen-390.png")
            page.keyboard.press("Enter")
            page.wait_for_selector(".messages li")
            assert f"Table {table.physical_number} saved" in page.inner_text(".messages")
        assert page.evaluate("document.activeElement.id") == "keypad-table"
        assert page.inner_text("#keypad-missing-heading") == "Every table is in"
        _shot(page, "keypad-done-390.png")
        for table in tables:
            match = Match.objects.get(pk=table.match_id)
            assert match.status == Match.Status.FINISHED
            assert list(match.seats.order_by("seat").values_list("place", flat=True)) == typed[table.pk]
        # a typo is a form error and the table field is ready again
        page.keyboard.type("77")
        page.keyboard.press("Enter")
        assert page.inner_text("#keypad-error") == "Round 1 has no table 77."
        assert page.evaluate("document.activeElement.id") == "keypad-table"
    finally:
        context.close()


def _violations(axe: Axe, page) -> list[str]:
    found = axe.run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} " + " ".join(str(node["target"]) for node in v["nodes"][:4])
        for v in found
        if v["impact"] in {"serious", "critical"}
    ]


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_floor_pages_pass_axe_and_fit_the_screen(live_server, browser, screen):
    tournament, round_row = _event()
    # one table in, so the keypad lists the others; a draft-free seating page with its players
    services.table_result(
        table=round_row.tables.order_by("number")[0],
        by=round_row.tournament.created_by or _staff(),
        expected_version=0,
        places=[1, 2, 3, 4],
    )
    context = browser.new_context(viewport=SCREENS[screen])
    context.add_cookies([session_cookie("organizer", live_server.url)])
    axe, report = Axe(), []
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        for name, path in (
            ("keypad", f"/tournaments/{tournament.slug}/rounds/1/keypad/"),
            ("seating", f"/tournaments/{tournament.slug}/seating/"),
            ("slips", f"/tournaments/{tournament.slug}/rounds/1/slips/"),
        ):
            response = page.goto(live_server.url + path, wait_until="load")
            assert response.status == 200, path
            width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            if width[0] > width[1]:
                report.append(f"{name}: {width[0]} px wide on a {width[1]} px screen")
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                report += [f"{name} ({scheme}): {line}" for line in _violations(axe, page)]
            page.emulate_media(color_scheme="light")
            _shot(page, f"{name}-{SCREENS[screen]['width']}.png")
        # the keypad's form error, checked too
        page.goto(f"{live_server.url}/tournaments/{tournament.slug}/rounds/1/keypad/")
        page.keyboard.type("abc")
        page.keyboard.press("Enter")
        page.wait_for_selector("#keypad-error")
        report += [f"keypad error: {line}" for line in _violations(axe, page)]
    finally:
        context.close()
    assert not report, "\n".join(report)


def _staff():
    return StaffFactory()
