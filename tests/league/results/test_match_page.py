"""The match page's selector: what a match's page shows, and the 404 a visitor gets for a match not there."""

import pytest
from django.http import Http404

from league.results.pages import match_page


def test_a_matchs_page_holds_the_match_its_game_and_its_forecasts(league):
    first, _, foot = league

    page = match_page(first.pk, None)

    assert page.match == first and page.game_name == "Nacho Pile"
    assert [seat.player.name for seat in page.match.seats.all()] == ["Ann", "Bob", "Cat", "Dan"]
    assert sorted(page.forecasts) == [(first.pk, 0), (first.pk, 1), (first.pk, 2), (first.pk, 3)]
    assert page.verification is None  # a people's match has no record to verify
    assert match_page(foot.pk, None).game_name == "Chicken Foot"


def test_a_match_that_is_not_there_is_a_404(league):
    with pytest.raises(Http404):
        match_page(max(match.pk for match in league) + 1, None)


@pytest.mark.parametrize("pk", ["0", "123456", "9223372036854775807"])
def test_the_match_page_answers_404_for_any_match_number_not_there(client, league, pk):
    assert client.get(f"/matches/{pk}/").status_code == 404


def test_the_match_page_renders_from_its_selector(client, league):
    first, _, _ = league

    response = client.get(f"/matches/{first.pk}/")

    assert response.status_code == 200
    assert response.context["match"] == first and response.context["game_name"] == "Nacho Pile"
