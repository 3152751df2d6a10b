"""Tournaments in a browser on a phone-sized screen: an organizer runs a 4-seat Swiss of 12 players from the
pages alone and a visitor reads the final standings; a single-elimination bracket is played out; a user who
does not organize the tournament never sees its controls."""

import pytest
from playwright.sync_api import expect

from league.tournaments import services
from league.tournaments.models import Round, Tournament
from tests.factories import StaffFactory, UserFactory
from tests.factories.tournaments import NAMES, make_tournament

PASSWORD = "pass-word-123"


def log_in(page, base_url: str, username: str, next_path: str) -> None:
    page.set_default_timeout(60_000)  # a page of a loaded machine's live server can take seconds to answer
    page.goto(f"{base_url}/accounts/login/?next={next_path}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")


def as_read(text: str) -> str:
    """A rendered text as a person reads it: without the invisible Unicode isolates around names."""
    return text.replace("\u2068", "").replace("\u2069", "")


def fits_the_screen(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def enter_round_by_seat_order(page, number: int) -> None:
    """Generate, publish and score round `number` from the pages: seat 1 wins, seat 2 second, and so on.
    Each table's form is filled and sent with Enter, which opens the next table waiting for a result, in table
    order."""
    page.get_by_role("button", name=f"Generate round {number}").click()
    assert page.inner_text("#round-status") == "Draft"
    page.get_by_role("button", name=f"Publish round {number}").click()
    assert page.inner_text("#round-status") == "Published"
    tables = page.locator("#tables .table-card").count()
    page.get_by_role("link", name="Enter results (table 1)").click()
    visited = []
    while "/result/" in page.url:
        visited.append(page.inner_text("h1").split(" (")[0])
        inputs = page.locator("input[name^=place_]")
        for seat in range(inputs.count()):
            page.fill(f"#id_place_{seat}", str(seat + 1))
        with page.expect_navigation():
            page.press(f"#id_place_{inputs.count() - 1}", "Enter")
    assert visited == [f"Round {number}, table {table}" for table in range(1, tables + 1)]
    page.get_by_role("button", name=f"Complete round {number}").click()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_organizer_runs_a_four_seat_swiss_and_a_visitor_reads_the_final_standings(live_server, page):
    StaffFactory(username="organizer")
    base = live_server.url
    log_in(page, base, "organizer", "/tournaments/new/")
    page.fill("#id_name", "Autumn Pods")
    page.select_option("#id_game_id", "nacho_pile")
    page.select_option("#id_format", "swiss")
    page.fill("#id_table_size", "4")
    page.fill("#id_rounds", "3")
    page.get_by_role("button", name="Create tournament").click()
    expect(page).to_have_url(f"{base}/tournaments/autumn-pods/")
    page.get_by_role("button", name="Open registration").click()
    page.fill("#id_names", "\n".join(NAMES[:12]))
    page.get_by_role("button", name="Register", exact=True).click()
    expect(page.locator("#batch li.new")).to_have_count(12)  # shown as new before they are created
    page.get_by_role("button", name="Yes, register all 12, creating the new players").click()
    assert page.inner_text(".messages") == "Registered 12 players (12 new)."
    page.get_by_role("button", name="Start the tournament").click()

    for number in (1, 2, 3):
        enter_round_by_seat_order(page, number)
        page.goto(f"{base}/tournaments/autumn-pods/")
    assert page.inner_text("#status") == "Finished"
    assert list(Round.objects.values_list("number", "status")) == [
        (1, "complete"),
        (2, "complete"),
        (3, "complete"),
    ]

    page.context.clear_cookies()
    page.goto(f"{base}/tournaments/autumn-pods/")
    assert page.locator("#controls").count() == 0
    assert page.inner_text("h2 >> nth=0") == "Final standings"
    rows = [row.split("\t") for row in page.locator("#standings tbody tr").all_inner_texts()]
    # rank, player, points, opponents' points, wins, head to head, tables played
    assert rows == [
        ["1", "Ada", "6", "43", "1", "0", "3"],
        ["2", "Bea", "6", "42", "1", "0", "3"],
        ["3", "Fay", "6", "36", "1", "0", "3"],
        ["4", "Dov", "5", "44", "1", "0", "3"],
        ["5", "Eli", "5", "42", "1", "0", "3"],
        ["6", "Jon", "5", "38", "1", "0", "3"],
        ["7", "Ivy", "4", "41", "1", "0", "3"],
        ["8", "Cal", "4", "40", "1", "0", "3"],
        ["9", "Hal", "4", "38", "1", "0", "3"],
        ["10", "Kai", "3", "43", "0", "0", "3"],
        ["11", "Gus", "3", "42", "0", "0", "3"],
        ["12", "Lea", "3", "37", "0", "0", "3"],
    ]
    assert sum(int(row[2]) for row in rows) == 3 * 3 * (3 + 2 + 1 + 0)
    assert fits_the_screen(page), "the tournament page scrolls sideways on a phone"
    page.get_by_role("link", name="By name").nth(2).click()
    page.fill("#find-q", "a")  # find my table answers a search, never the whole field
    page.click("#find-form button[type=submit]")
    found = [row.split("\t")[0] for row in page.locator("#find tbody tr").all_inner_texts()]
    assert found == sorted(name for name in NAMES[:12] if "a" in name.lower())


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_single_elimination_bracket_is_played_out(live_server, page):
    organizer = StaffFactory(username="organizer")
    tournament, _ = make_tournament(organizer, 5, format="single_elimination", table_size=2, name="Cup")
    base = live_server.url
    log_in(page, base, "organizer", f"/tournaments/{tournament.slug}/")
    page.get_by_role("button", name="Generate round 1").click()
    page.get_by_role("button", name="Publish round 1").click()
    # Bea and Cal both had byes: their semi-final R2-2 opens at once, while Dov v Eli (R1-2) is still played
    page.goto(f"{base}/tournaments/{tournament.slug}/rounds/2/")
    assert page.locator("#tables .table-card h3").all_inner_texts() == ["Table 2\nR2-2\nplaying"]
    visited = []
    page.goto(f"{base}/tournaments/{tournament.slug}/")
    while page.get_by_role("link", name="Enter results").count():
        page.get_by_role("link", name="Enter results").click()
        while "/result/" in page.url:
            visited.append(page.inner_text("h1"))
            page.fill("#id_place_0", "1")
            page.fill("#id_place_1", "2")
            with page.expect_navigation():
                page.press("#id_place_1", "Enter")
        page.goto(f"{base}/tournaments/{tournament.slug}/")
    assert visited == [
        "Round 1, table 1 (R1-2)",
        "Round 2, table 1 (R2-1)",
        "Round 2, table 2 (R2-2)",
        "Round 3, table 1 (F)",
    ]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    boxes = page.locator(".bracket g.match")
    written = {
        box.locator("text.label").text_content(): box.locator("text:not(.label)").all_text_contents()
        for box in boxes.all()
    }
    # players' names are held between Unicode isolates (SVG text has no <bdi>); the site's own "bye" is not
    assert written["R1-1"] == ["\u2068Ada\u2069", "bye"]
    drawn = {label: [as_read(text) for text in texts] for label, texts in written.items()}
    assert drawn == {
        "R1-1": ["Ada", "bye"],
        "R1-2": ["Dov (1)", "Eli (2)"],
        "R1-3": ["Bea", "bye"],
        "R1-4": ["Cal", "bye"],
        "R2-1": ["Ada (1)", "Dov (2)"],
        "R2-2": ["Bea (1)", "Cal (2)"],
        "F": ["Ada (1)", "Bea (2)"],
    }
    winners = [as_read(text) for text in page.locator(".bracket text.won").all_text_contents()]
    assert winners == ["Ada", "Dov (1)", "Bea", "Cal", "Ada (1)", "Bea (1)", "Ada (1)"]
    assert fits_the_screen(page), "the bracket makes the page scroll sideways on a phone"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_user_who_does_not_organize_never_sees_the_controls(live_server, page):
    organizer = StaffFactory(username="organizer")
    UserFactory(username="visitor")
    tournament, _ = make_tournament(organizer, 8, name="Club Night")
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    base = live_server.url
    log_in(page, base, "visitor", f"/tournaments/{tournament.slug}/")
    expect(page).to_have_url(f"{base}/tournaments/{tournament.slug}/")
    assert page.locator("#controls").count() == 0
    assert page.locator("text=Register players").count() == 0
    page.goto(f"{base}/tournaments/{tournament.slug}/rounds/1/")
    assert page.locator("#tables .table-card").count() == 2
    assert page.locator("#controls").count() == 0
    assert page.locator("text=Enter the result").count() == 0
    response = page.goto(f"{base}/tournaments/{tournament.slug}/rounds/1/tables/1/result/")
    assert response.status == 403
    assert page.inner_text("#forbidden") == (
        "Only the tournament's organizers and scorekeepers (and site staff) can do this."
    )
    answer = page.evaluate(
        """async (url) => {
            const token = document.cookie.split('; ').find(c => c.startsWith('csrftoken='));
            const response = await fetch(url, {method: 'POST', """
        """headers: {'X-CSRFToken': token ? token.split('=')[1] : ''}});
            return [response.status, await response.text()];
        }""",
        f"{base}/tournaments/{tournament.slug}/rounds/1/complete/",
    )
    assert answer[0] == 403
    assert "Only the tournament&#x27;s organizers" in answer[1]
    assert Round.objects.get().status == Round.Status.PUBLISHED


def enter_seat_order(page) -> str:
    """On a result page: seat 1 first, seat 2 second; save with Enter. The label of the match entered."""
    label = page.inner_text("h1").split("(")[-1].rstrip(")")
    page.fill("#id_place_0", "1")
    page.fill("#id_place_1", "2")
    with page.expect_navigation():
        page.press("#id_place_1", "Enter")
    return label


def table_state(tournament, label):
    from league.tournaments.models import Table

    table = Table.objects.filter(round__tournament=tournament, label=label).select_related("match").get()
    return table.match.status


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_sixteen_player_double_elimination_is_played_match_by_match(live_server, page):
    organizer = StaffFactory(username="organizer")
    tournament, _ = make_tournament(
        organizer, 16, format="double_elimination", table_size=2, name="Double Cup", rated=False
    )
    base = f"{live_server.url}/tournaments/{tournament.slug}"
    log_in(page, live_server.url, "organizer", f"/tournaments/{tournament.slug}/")
    page.get_by_role("button", name="Generate round 1").click()
    page.get_by_role("button", name="Publish round 1").click()
    page.get_by_role("link", name="Enter results (table 1)").click()
    while "/result/" in page.url:  # round 1, table after table; the better seed sits in seat 1 and wins
        enter_seat_order(page)
    # winners' quarter-finals W2-1 and W2-2, then their semi-final W3-1 while W2-3 and W2-4 are still to play
    for table in (1, 2):
        page.goto(f"{base}/rounds/2/tables/{table}/result/")
        enter_seat_order(page)
    page.goto(f"{base}/rounds/3/")
    semi = page.locator("#tables .table-card", has_text="W3-1")
    assert semi.locator(".badge").inner_text() == "playing"
    semi.get_by_role("link", name="Enter the result").click()
    assert enter_seat_order(page) == "W3-1"
    assert (table_state(tournament, "W2-3"), table_state(tournament, "W2-4")) == ("scheduled", "scheduled")
    assert table_state(tournament, "W3-1") == "finished"
    played = []
    page.goto(f"{base}/")
    while page.get_by_role("link", name="Enter results").count():
        page.get_by_role("link", name="Enter results").click()
        while "/result/" in page.url:
            played.append(enter_seat_order(page))
        page.goto(f"{base}/")
    assert len(played) == 30 - 8 - 3  # 15 + 14 matches and the grand final, no reset
    assert page.inner_text("#status") == "Finished"
    groups = page.locator("#standings tr.group th").all_inner_texts()
    assert groups == ["Champion", "Final"] + [
        f"Out in losers' round {number}" for number in (6, 5, 4, 3, 2, 1)
    ]
    names = [row.split("\t")[1] for row in page.locator("#standings tbody tr:not(.group)").all_inner_texts()]
    assert names[:4] == ["Ada", "Bea", "Cal", "Dov"]
    assert sorted(names[4:6]) == ["Eli", "Fay"] and sorted(names[6:8]) == ["Gus", "Hal"]
    assert sorted(names[8:12]) == ["Ivy", "Jon", "Kai", "Lea"] and sorted(names[12:]) == [
        "Max",
        "Noa",
        "Oli",
        "Pia",
    ]
