"""Pages call a rating "provisional" until its fifth rated match in the pool (a new player's conservative
value is below zero); the API keeps the numbers."""

import re

import pytest

from league.ratings.models import Rating, RatingPool
from tests.factories import PlayerFactory


@pytest.fixture
def ratings(db):
    pool = RatingPool.objects.create(name="Nacho Pile people", kind="people", game_id="nacho_pile")
    new = PlayerFactory(name="Nova")
    seasoned = PlayerFactory(name="Sage")
    Rating.objects.create(pool=pool, player=new, mu=25, sigma=8.3, conservative=-0.03, matches=4)
    Rating.objects.create(pool=pool, player=seasoned, mu=30, sigma=4, conservative=18.0, matches=5)
    return new, seasoned


def _cells(page: str, name: str) -> list[str]:
    row = page.split(f"><bdi>{name}</bdi></a>", 1)[1].split("</tr>", 1)[0]
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>.*?</td>", row)]


def test_the_leaderboard_says_provisional_before_five_rated_matches(client, ratings):
    page = client.get("/games/nacho_pile/").content.decode()
    assert _cells(page, "Nova")[0] == "provisional"
    assert _cells(page, "Sage")[0] == "18.00"
    assert "-0.03" not in page


def test_a_players_page_says_provisional_and_the_api_keeps_the_number(client, ratings):
    new, _ = ratings
    page = client.get(new.get_absolute_url()).content.decode()
    assert "provisional" in page and "-0.03" not in page
    answer = client.get(f"/api/ratings/?player={new.pk}")
    assert [(row["conservative"], row["matches"]) for row in answer.json()["results"]] == [(-0.03, 4)]
