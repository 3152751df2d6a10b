"""The player page's selector: what a player's page shows, and the 404 and paging a visitor can ask for."""

import pytest
from django.http import Http404

from league.ratings.pages import player_page


def test_a_players_page_holds_their_ratings_chart_matches_and_upsets(league):
    page = player_page("ann", None, page=None)

    assert page.player.name == "Ann"
    assert [(rating.pool.game_id, rating.pool.kind) for rating in page.ratings] == [
        ("chicken_foot", "people"),
        ("nacho_pile", "people"),
    ]
    assert [line.label for line in page.chart.lines] == ["Chicken Foot", "Nacho Pile"]
    assert page.page.paginator.count == 3 and page.page.number == 1
    assert page.upsets == [] and page.upset_matches == set()  # no win here beat the odds that far


def test_an_unknown_player_is_a_404(league):
    with pytest.raises(Http404):
        player_page("nobody", None, page=None)


@pytest.mark.parametrize(("asked", "shown"), [("abc", 1), ("-1", 1), ("0", 1), ("99999", 1), ("1e9", 1)])
def test_any_page_number_a_visitor_sends_shows_a_page_of_matches(league, asked, shown):
    assert player_page("ann", None, page=asked).page.number == shown


def test_the_player_page_renders_from_its_selector(client, league):
    response = client.get("/players/ann/?page=zz")

    assert response.status_code == 200
    assert response.context["player"].name == "Ann" and response.context["page"].number == 1
