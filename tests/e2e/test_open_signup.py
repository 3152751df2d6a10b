"""Open sign-up in three browsers at once: an organizer opens registration (a cap, a waitlist) and check-in;
two newcomers sign up from the home page (following the link mailed to them), create their players, join
(the second onto the waitlist) and check in; the organizer checks the others in at the desk, confirms the
start (a no-show dropped, the waitlisted newcomer moved up), publishes round 1, and each newcomer finds their
table on their own page."""

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from league.tournaments.models import Round, Tournament
from tests.factories import StaffFactory

PASSWORD = "pass-word-123"
NEWCOMER_PASSWORD = "a-long-Pass-phrase-42"


def new_page(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(60_000)  # a loaded machine's live server can take seconds to answer
    return page


def organizer_opens_the_tournament(page, base: str) -> str:
    page.goto(f"{base}/accounts/login/?next=/tournaments/new/")
    page.fill("#id_username", "organizer")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.fill("#id_name", "Open Doors")
    page.select_option("#id_game_id", "nacho_pile")
    page.select_option("#id_format", "swiss")
    page.fill("#id_table_size", "2")
    page.fill("#id_rounds", "2")
    page.fill("#id_start_date", "2099-12-05")
    page.fill("#id_start_time", "10:00")
    page.select_option("#id_time_zone", "Europe/Berlin")
    assert not page.is_checked("#id_self_signup")  # open sign-up starts off on the create form
    page.fill("#id_capacity", "4")
    assert page.is_checked("#id_self_signup")  # setting a cap turns it on
    page.check("#id_waitlist")
    page.fill("#id_checkin_opens_at", "2020-01-01T09:00")
    page.get_by_role("button", name="Create tournament").click()
    url = f"{base}/tournaments/open-doors/"
    expect(page).to_have_url(url)
    assert page.inner_text(".messages") == "Open Doors created: open registration when you are ready."
    page.goto(url)
    page.get_by_role("button", name="Open registration").click()
    page.fill("#id_names", "Ada\nBea\nCal")
    page.get_by_role("button", name="Register", exact=True).click()
    page.get_by_role(
        "button", name="Yes, register all 3, creating the new players"
    ).click()  # all three are new
    assert page.inner_text(".messages") == "Registered 3 players (3 new)."
    assert page.inner_text("#starts-at") == "Sat 5 Dec 2099, 10:00 (Europe/Berlin)"
    return url


def newcomer_signs_up_and_joins(page, base: str, url: str, username: str, name: str) -> str:
    page.goto(f"{base}/")
    # on a phone the header's links are in its menu: a newcomer opens it first
    assert not page.is_visible("#sign-up")
    page.click("header.site summary")
    page.click("#sign-up")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.org")
    page.fill("#id_password1", NEWCOMER_PASSWORD)
    page.fill("#id_password2", NEWCOMER_PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page).to_have_url(f"{base}/accounts/signup/sent/")
    [message] = [message for message in mail.outbox if message.to == [f"{username}@example.org"]]
    page.goto(re.search(r"^http://\S+/accounts/signup/\S+/$", message.body, re.MULTILINE).group(0))
    page.get_by_role("button", name="Create my account").click()
    expect(page).to_have_url(f"{base}/me/")
    page.fill("#id_name", name)
    page.get_by_role("button", name="Create my player").click()
    assert page.inner_text("#my-player") == f"You play as {name}."
    page.goto(url)
    page.click("#join")
    status = page.inner_text("#my-entry")
    page.click("#check-in")
    assert page.inner_text(".messages") == "You are checked in."
    return status


def check_in_at_the_desk(page, name: str) -> None:
    page.fill("#search", name)
    row = page.locator("#desk tbody tr:not([hidden])")
    expect(row).to_have_count(1)
    row.get_by_role("button", name="Check in").click()
    expect(row.get_by_role("button")).to_have_text("Undo")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_two_newcomers_sign_up_join_check_in_and_find_their_tables(live_server, browser, settings):
    StaffFactory(username="organizer")
    base = live_server.url
    settings.SITE_URL = base  # mails link to the site's address
    organizer, max_, nia = new_page(browser), new_page(browser), new_page(browser)
    url = organizer_opens_the_tournament(organizer, base)

    assert newcomer_signs_up_and_joins(max_, base, url, "max", "Max") == "You are registered. Check in now."
    assert newcomer_signs_up_and_joins(nia, base, url, "nia", "Nia") == (
        "You are number 1 on the waitlist. Check in now."
    )

    organizer.goto(f"{url}check-in/")
    assert organizer.inner_text("#counts").startswith(
        "1 of 4 registered players checked in · 1 of 1 waitlisted."
    )
    check_in_at_the_desk(organizer, "Ada")
    check_in_at_the_desk(organizer, "Bea")
    assert organizer.inner_text("#counts").startswith("3 of 4 registered players checked in")
    organizer.goto(url)
    organizer.get_by_role("link", name="Start the tournament…").click()
    assert organizer.inner_text("#dropped") == "Cal"
    assert organizer.inner_text("#promoted") == "Nia (waitlist #1)"
    organizer.get_by_role("button", name="Start with these 4 players").click()
    assert organizer.inner_text("#status") == "Running"
    organizer.get_by_role("button", name="Generate round 1").click()
    organizer.get_by_role("button", name="Publish round 1").click()
    assert organizer.inner_text("#round-status") == "Published"

    tournament = Tournament.objects.get(slug="open-doors")
    assert dict(tournament.registrations.values_list("player__name", "status")) == {
        "Ada": "active",
        "Bea": "active",
        "Cal": "no_show",
        "Max": "active",
        "Nia": "active",
    }
    round_row = Round.objects.get(tournament=tournament, number=1)
    for page, name in ((max_, "Max"), (nia, "Nia")):
        table = next(
            table
            for table in round_row.tables.select_related("match")
            if name in [seat.player.name for seat in table.match.seats.select_related("player")]
        )
        seats = list(table.match.seats.select_related("player").order_by("seat"))
        mine = next(seat for seat in seats if seat.player.name == name)
        other = next(seat for seat in seats if seat.player.name != name)
        page.goto(f"{base}/me/")
        card = page.locator("#next-tables .next-table")
        expect(card).to_have_count(1)
        assert card.locator("h3").inner_text() == "Open Doors"
        assert (
            card.locator("p")
            .first.inner_text()
            .startswith(f"Round 1 · table {table.number} · seat {mine.seat + 1}")
        )
        assert card.locator("ul.seats").inner_text() == f"seat {other.seat + 1}: {other.player.name}"
    for page in (organizer, max_, nia):
        page.context.close()
