"""A club's season in a browser, as its organizer and a visitor live it: the organizer makes a season on the
club's page, puts Week 1 in it, makes Weeks 2 and 3 as its clones ("Next week's"), invites a second club's
event, whose organizer accepts it in their own browser; one result is corrected on its result page; a
visitor on a phone reads the table and why a player has their points. The events' rounds are played through
the services (their own browser tests cover that); the table is checked against totals worked out by hand
below."""

import re

import pytest
from playwright.sync_api import expect

from league.seasons import services as seasons
from league.seasons.models import Season
from league.tournaments import services as tournaments
from league.tournaments.models import Tournament
from tests.e2e.site_pages import session_cookie
from tests.factories import StaffFactory, UserFactory
from tests.factories import tournaments as helpers

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
NAMES = ["Ada", "Bea", "Cal", "Dov"]


def play(tournament: Tournament, organizer, registrar, places: dict[str, int]) -> None:
    """Register Ada, Bea, Cal and Dov, start, play the one round in `places`."""
    registrations = [
        tournaments.registration_add(tournament=tournament, by=registrar, name=name, seed=seed)
        for seed, name in enumerate(NAMES, start=1)
    ]
    tournaments.tournament_start(tournament=tournament, by=organizer)
    names = {r.player_id: r.player.name for r in registrations}
    helpers.play_round(tournament, organizer, lambda index, seats: [places[names[p]] for p in seats])


def signed_in(browser, live_server, username: str, width: int = 1366):
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.add_cookies([session_cookie(username, live_server.url)])
    page = context.new_page()
    page.set_default_timeout(60_000)
    return context, page


def test_a_clubs_season_of_three_weeks_and_a_guest_event_read_on_a_phone(browser, live_server):
    staff = StaffFactory(username="sam")
    club = seasons.club_create(by=staff, name="Tuesday Nuggets")
    UserFactory(username="clara")
    seasons.club_organizer_add(club=club, by=staff, username="clara")
    guests = seasons.club_create(by=staff, name="Saturday Feet")
    UserFactory(username="olga")
    seasons.club_organizer_add(club=guests, by=staff, username="olga")
    clara = club.organizers.get(username="clara")
    week1 = tournaments.tournament_create(
        created_by=clara,
        name="Week 1",
        game_id="nacho_pile",
        format="swiss",
        table_size=4,
        rounds=1,
        time_zone="Europe/Berlin",
        starts_at="2026-11-03T19:00",
    )
    seasons.club_event_attach(club=club, by=clara, tournament=week1)

    context, page = signed_in(browser, live_server, "clara")
    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    page.fill("#season-name", "Autumn")
    page.fill("#place-points", "10 6 3 1")
    page.fill("#per-win", "1")
    page.check("input[name=tie_breaks][value=firsts]")
    page.click("#create-season")
    page.wait_for_url(re.compile(r"/seasons/autumn/$"))
    expect(page.locator("#rules")).to_contain_text(
        "Points per final place: 1: 10.00, 2: 6.00, 3: 3.00, 4: 1.00"
    )
    page.fill("#tournament", week1.slug)
    page.click("#add-event button[type=submit]")
    expect(page.locator("#events")).to_contain_text("Week 1 ×1.00")
    # Weeks 2 and 3: "Next week's" on the club's page, each a clone a week on, in the season at once
    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    page.get_by_role("button", name="The next of Week 1, a week later").click()
    page.wait_for_url(re.compile(r"/tournaments/week-2/$"))
    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    page.get_by_role("button", name="The next of Week 2, a week later").click()
    page.wait_for_url(re.compile(r"/tournaments/week-3/$"))
    week2, week3 = Tournament.objects.get(name="Week 2"), Tournament.objects.get(name="Week 3")
    for week in (week2, week3):
        tournaments.tournament_open_registration(tournament=week, by=clara)
    play(week1, clara, clara, {"Ada": 1, "Bea": 2, "Cal": 3, "Dov": 4})
    play(week2, clara, clara, {"Ada": 2, "Bea": 1, "Cal": 3, "Dov": 4})
    play(week3, clara, clara, {"Ada": 3, "Bea": 1, "Cal": 2, "Dov": 4})
    olga = guests.organizers.get(username="olga")
    away = tournaments.tournament_create(
        created_by=olga, name="Away day", game_id="nacho_pile", format="swiss", table_size=4, rounds=1
    )
    seasons.club_event_attach(club=guests, by=olga, tournament=away)
    play(away, olga, staff, {"Ada": 4, "Bea": 3, "Cal": 1, "Dov": 2})

    # the guest event is invited at ×2; its club's organizer accepts in their own browser
    page.goto(f"{live_server.url}/seasons/autumn/")
    page.fill("#tournament", away.slug)
    page.fill("#multiplier", "2")
    page.click("#add-event button[type=submit]")
    expect(page.locator("#events")).to_contain_text("Away day ×2.00 (invited: waiting for its organizers)")
    guest_context, guest_page = signed_in(browser, live_server, "olga")
    guest_page.goto(f"{live_server.url}/clubs/{guests.slug}/")
    guest_page.locator("#invitations").get_by_role("button", name="Accept").click()
    expect(guest_page.locator("#invitations")).to_have_count(0)
    guest_context.close()

    # Week 1's slip was misread: Dov won, Ada was last. Corrected on the table's result page.
    page.goto(f"{live_server.url}/tournaments/week-1/rounds/1/tables/1/result/")
    table = week1.round_set.get().tables.get()
    seats = list(table.match.seats.order_by("seat").values_list("seat", "player__name"))
    for seat, name in seats:
        page.fill(f"#id_place_{seat}", str({"Ada": 4, "Bea": 2, "Cal": 3, "Dov": 1}[name]))
    page.fill("#id_reason", "the slip was misread")
    page.get_by_role("button", name="Save and next table").click()
    page.wait_for_load_state()
    context.close()

    # By hand (places 10 6 3 1, 1 a win, the away day ×2):
    # Bea 6 + 11 + 11 + 3×2 = 34; Cal 3 + 3 + 6 + 11×2 = 34 (Bea ahead: two first places to one);
    # Dov 11 + 1 + 1 + 6×2 = 25; Ada 1 + 6 + 3 + 1×2 = 12.
    visitor = browser.new_context(viewport={"width": 390, "height": 844})
    phone = visitor.new_page()
    phone.set_default_timeout(60_000)
    phone.goto(f"{live_server.url}/seasons/autumn/")
    rows = phone.locator("#season-table tbody tr")
    expect(rows).to_have_count(4)
    table_text = [
        " ".join(rows.nth(i).locator("td, th").nth(n).inner_text() for n in range(4)) for i in range(4)
    ]
    assert table_text == ["1 Bea 34.00 4", "2 Cal 34.00 4", "3 Dov 25.00 4", "4 Ada 12.00 4"]
    season = Season.objects.get()
    dov = phone.locator(
        f"#line-{season.entries.first().tournament.registrations.get(player__name='Dov').player_id}"
    )
    dov.locator("summary").click()
    expect(dov).to_contain_text("Week 1: place 1 → 10.00 for the place + 1.00 for wins = 11.00")
    expect(dov).to_contain_text("Away day: place 2 → 6.00 for the place, × 2.00 = 12.00")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    visitor.close()
