"""Pages of a large tournament come in parts: the standings and the players 100 rows a page, a published
round 100 tables a page by table number, and links to a table name its page."""

import re

import pytest

from league.core.names import name_key, search_key
from league.players.models import Player
from league.tournaments import round_selectors, services
from league.tournaments.models import Registration


@pytest.fixture
def large(organizer):
    """A 2-seat Swiss of 210 players (P001 ... P210, seeded in that order) with round 1 published."""
    tournament = services.tournament_create(
        created_by=organizer, name="Big Open", game_id="nacho_pile", format="swiss", table_size=2, rounds=3
    )
    names = [f"P{number:03d}" for number in range(1, 211)]
    Player.objects.bulk_create(
        Player(name=name, name_key=name_key(name), search_key=search_key(name), slug=name.lower())
        for name in names
    )
    players = {player.name: player for player in Player.objects.filter(name__in=names)}
    Registration.objects.bulk_create(
        Registration(tournament=tournament, player=players[name], seed=seed)
        for seed, name in enumerate(names, 1)
    )
    services.tournament_start(tournament=tournament, by=organizer)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    return tournament


def standings_names(html):
    table = html.split('id="standings"')[1].split("</table>")[0]
    return re.findall(r'/players/(p\d{3})/">', table)


def test_standings_and_players_come_100_rows_a_page(client, large):
    url = f"/tournaments/{large.slug}/"
    first = client.get(url).content.decode()
    assert standings_names(first) == [f"p{number:03d}" for number in range(1, 101)]
    assert "Places 1–100 of 210" in first
    assert '<a href="?standings=2#standings">Next 100 ›</a>' in first
    assert "Players 1–100 of 210" in first
    last = client.get(f"{url}?standings=3&players=3").content.decode()
    assert standings_names(last) == [f"p{number:03d}" for number in range(201, 211)]
    assert "Places 201–210 of 210" in last
    assert '<a href="?standings=2#standings">‹ Previous 100</a>' in last
    assert "Players 201–210 of 210" in last
    players = last.split('id="players"')[1].split("</table>")[0]
    assert re.findall(r"<td><bdi>(P\d{3})</bdi>", players) == [f"P{number:03d}" for number in range(201, 211)]
    fragment = client.get(f"{url}?fragment=live&standings=2").content.decode()
    assert standings_names(fragment) == [f"p{number:03d}" for number in range(101, 201)]


def test_a_round_shows_100_tables_a_page_and_links_name_the_page(client, large):
    url = f"/tournaments/{large.slug}/rounds/1/"
    first = client.get(url).content.decode()
    assert re.findall(r'id="table-(\d+)"', first) == [str(number) for number in range(1, 101)]
    assert "Tables 1–100 of 105" in first
    assert '<a href="?page=2">Next tables ›</a>' in first
    second = client.get(f"{url}?page=2").content.decode()
    assert re.findall(r'id="table-(\d+)"', second) == [str(number) for number in range(101, 106)]
    assert "Tables 101–105 of 105" in second
    assert '<a href="?page=1">‹ Previous tables</a>' in second
    assert client.get(f"{url}?page=x").content.decode().count('class="table-card"') == 100
    first_seats = {
        table.number: table.match.seats.order_by("seat").first().player.name
        for table in large.round_set.get(number=1).tables.filter(number__in=[1, 105]).select_related("match")
    }
    find = client.get(f"{url}find/", {"q": first_seats[105]}).content.decode()
    assert f'href="{url}?page=2#table-105"' in find
    find = client.get(f"{url}find/", {"q": first_seats[1]}).content.decode()
    assert f'href="{url}#table-1"' in find
    assert round_selectors.table_link(url, 100) == f"{url}#table-100"
    assert round_selectors.table_link(url, 101) == f"{url}?page=2#table-101"
