"""An organizer enters a result at the table on a phone-sized screen; a visitor reads the leaderboard."""

import pytest
from playwright.sync_api import expect

from league.ratings.services import pool_update
from league.results.models import ResultVersion
from tests.factories import MatchFactory, PlayerFactory, StaffFactory


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_organizer_enters_a_result_on_a_phone_and_visitors_see_it(live_server, page):
    StaffFactory(username="table-judge")
    players = [PlayerFactory(name=name) for name in ("Ann", "Bob", "Cat")]
    match = MatchFactory(players=players)

    page.goto(f"{live_server.url}/admin/login/?next=/matches/{match.pk}/")
    page.fill("#id_username", "table-judge")
    page.fill("#id_password", "pass-word-123")
    page.click("input[type=submit]")
    page.click("text=Enter the result")
    for seat, place in enumerate([2, 1, 3]):
        page.fill(f"#id_place_{seat}", str(place))
    page.click("text=Save result")

    expect(page).to_have_url(f"{live_server.url}/matches/{match.pk}/")
    assert page.inner_text(".messages") == "Result saved."
    rows = page.locator("table").first.locator("tbody tr").all_inner_texts()
    assert [row.split("\t") for row in rows] == [
        ["1", "Ann", "33%", "2.00", "2", "–"],  # seat, player, chance of first, expected place, place, score
        ["2", "Bob", "33%", "2.00", "1", "–"],
        ["3", "Cat", "33%", "2.00", "3", "–"],
    ]
    assert list(ResultVersion.objects.values_list("version", "places")) == [(1, [2, 1, 3])]

    pool_update(pool_id=match.rating_pool_id)
    page.context.clear_cookies()
    page.goto(f"{live_server.url}/games/nacho_pile/")
    names = page.locator("tbody tr td:nth-child(2)").all_inner_texts()
    assert names == ["Bob", "Ann", "Cat"]
    fits = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert fits, "the leaderboard scrolls sideways on a phone"
