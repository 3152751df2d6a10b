"""The create form in a browser: the script shows only the chosen format's settings, the chosen game's
variant options and the points rows the table size can use; the tournament is created from typed inputs."""

import pytest
from playwright.sync_api import expect

from league.tournaments.models import Tournament
from tests.factories import StaffFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "pass-word-123"


def test_the_form_shows_what_the_choices_use_and_creates_the_tournament(browser, live_server):
    staff = StaffFactory(username="organizer")
    staff.set_password(PASSWORD)
    staff.save()
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(f"{live_server.url}/accounts/login/?next=/tournaments/new/")
    page.fill("#id_username", "organizer")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/tournaments/new/")
    expect(page.locator("#id_rounds")).to_be_visible()
    expect(page.locator("#id_cut_size")).to_be_hidden()
    expect(page.locator("#options-nacho_pile")).to_be_visible()
    expect(page.locator("#options-chickie_nuggs")).to_be_hidden()
    expect(page.locator(".no-js").first).to_be_hidden()
    page.select_option("#id_format", "stages")
    expect(page.locator("#id_cut_size")).to_be_visible()
    page.select_option("#id_format", "double_elimination")
    expect(page.locator("#id_rounds")).to_be_hidden()
    expect(page.locator("#id_grand_final_reset")).to_be_visible()
    page.select_option("#id_format", "swiss")
    page.select_option("#id_game_id", "chickie_nuggs")
    expect(page.locator("#options-chickie_nuggs")).to_be_visible()
    expect(page.locator("#options-nacho_pile")).to_be_hidden()
    expect(page.locator('[data-size="3"]')).to_be_visible()
    expect(page.locator('[data-size="5"]')).to_be_hidden()
    page.fill("#id_table_size", "2")
    expect(page.locator('[data-size="3"]')).to_be_hidden()
    expect(page.locator('[data-size="2"]')).to_be_visible()
    expect(page.locator("#id_scale_points")).not_to_be_checked()  # follows the table size until touched
    page.fill("#id_table_size", "4")
    expect(page.locator("#id_scale_points")).to_be_checked()
    page.fill("#id_name", "Nugget Night")
    page.fill("#id_option__chickie_nuggs__sauce_value_bbq", "4")
    page.fill("#id_points__4__1", "5")
    page.select_option("#id_tiebreak_2", "opponents_points_average")
    page.fill("#id_start_date", "2099-12-05")
    page.fill("#id_start_time", "18:00")
    page.fill("#id_venue", "The Coop")
    page.get_by_role("button", name="Create tournament").click()
    page.wait_for_url(f"{live_server.url}/tournaments/nugget-night/")
    expect(page.locator("#venue")).to_have_text("Venue: The Coop")
    tournament = Tournament.objects.get()
    assert (tournament.options["sauce_value_bbq"], tournament.points, tournament.tiebreaks[:2]) == (
        4,
        {"4": [5.0, 2.0, 1.0, 0.0]},
        ["points", "opponents_points_average"],
    )
    context.close()


def test_a_cap_turns_open_sign_up_on_until_the_organizer_touches_the_box(browser, live_server):
    staff = StaffFactory(username="organizer")
    staff.set_password(PASSWORD)
    staff.save()
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(f"{live_server.url}/accounts/login/?next=/tournaments/new/")
    page.fill("#id_username", "organizer")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/tournaments/new/")
    signup = page.locator("#id_self_signup")
    expect(signup).not_to_be_checked()  # an invitational stays closed to strangers
    page.fill("#id_capacity", "24")
    expect(signup).to_be_checked()
    page.fill("#id_capacity", "")
    expect(signup).not_to_be_checked()
    page.fill("#id_capacity", "16")
    signup.uncheck()  # the organizer's choice stands from then on
    page.fill("#id_capacity", "20")
    expect(signup).not_to_be_checked()
    context.close()
