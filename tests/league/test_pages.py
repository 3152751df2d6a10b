"""The public pages and the staff pages, as a visitor and as an organizer sees them."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.matches.models import Match
from league.results.models import ResultVersion
from tests.factories import MatchFactory, PlayerFactory, UserFactory


def grow(players, submit, count):
    """Add `count` more players and rated matches, so list pages have more rows."""
    for _ in range(count):
        extra = PlayerFactory()
        match = MatchFactory(players=[extra, *players[:2]])
        submit(match, [1, 2, 3])


def queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_leaderboard_ranks_by_conservative_rating_with_uncertainty(client, league):
    page = client.get("/games/nacho_pile/")
    rows = [(r.rank, r.player.name, r.matches) for r in page.context["page"]]
    assert rows == [(1, "Bob", 2), (2, "Cat", 2), (3, "Ann", 2), (4, "Dan", 1)]
    html = page.content.decode()
    assert '<th class="num">±</th>' in html
    top = page.context["page"][0]
    assert f"{3 * top.sigma:.2f}" in html
    assert html.count('<td class="num">provisional</td>') == 4, "fewer than 5 rated matches each"


def test_leaderboard_sorts_by_name_and_matches_and_ignores_unknown_sorts(client, league):
    def names(sort):
        return [r.player.name for r in client.get(f"/games/nacho_pile/?sort={sort}").context["page"]]

    assert names("player") == ["Ann", "Bob", "Cat", "Dan"]
    assert names("-player") == ["Dan", "Cat", "Bob", "Ann"]
    assert names("-matches") == ["Dan", "Bob", "Cat", "Ann"]
    assert names("drop table") == ["Bob", "Cat", "Ann", "Dan"]


def test_leaderboard_of_an_unknown_game_is_404_and_of_an_unplayed_game_says_so(client, db):
    assert client.get("/games/go/").status_code == 404
    assert "No rated matches of Chickie Nuggs yet" in client.get("/games/chickie_nuggs/").content.decode()


def test_player_page_shows_ratings_history_chart_and_results(client, league):
    page = client.get("/players/ann/").content.decode()
    assert "Nacho Pile: people" in page and "Chicken Foot: people" in page
    assert page.count("<polyline") == 2
    assert f'href="/matches/{league[0].pk}/">#{league[0].pk}</a>' in page


def test_match_page_lists_every_result_version(client, league, submit):
    first = league[0]
    submit(first, [4, 3, 2, 1], reason="upside down")
    page = client.get(f"/matches/{first.pk}/").content.decode()
    assert "upside down" in page
    versions = page[page.index("Result versions") :]
    assert versions.index("<td>4, 3, 2, 1</td>") < versions.index("<td>1, 1, 3, 4</td>")
    assert '<td class="num">2 <span class="badge finished">counts</span></td><td>4, 3, 2, 1</td>' in versions


def test_missing_pages_are_404(client, db):
    assert client.get("/matches/12345/").status_code == 404
    assert client.get("/players/nobody/").status_code == 404


@pytest.mark.parametrize("url", ["/", "/games/nacho_pile/", "/players/", "/matches/", "/players/ann/"])
def test_list_pages_do_not_grow_their_query_count_with_rows(client, league, players, submit, url):
    before = queries(client, url)
    grow(players, submit, 5)
    assert queries(client, url) == before


def test_list_page_query_counts(client, league, django_assert_num_queries):
    expected = {
        # home: the leaders of each of the 4 games, live and open tournaments, results and their seats
        "/": 8,
        "/games/nacho_pile/": 3,
        "/players/": 3,
        "/matches/": 3,
        "/players/ann/": 8,
    }  # the player page: + its upsets, + the seasons it counts in
    for url, count in expected.items():
        with django_assert_num_queries(count):
            client.get(url)


@pytest.mark.parametrize("url", ["/matches/new/", "/matches/1/result/"])
def test_staff_pages_send_visitors_to_log_in_and_refuse_non_staff(client, league, url):
    assert client.get(url).status_code == 302
    assert client.post(url, {"expected_version": 0}).status_code == 302
    client.force_login(UserFactory())
    response = client.post(url, {"expected_version": 0})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert ResultVersion.objects.count() == 3


def test_organizer_creates_a_match_and_enters_its_result(client, staff, players):
    client.force_login(staff)
    response = client.post(
        "/matches/new/",
        {
            "game": "chicken_foot",
            "seat_0": players[2].pk,
            "seat_1": players[0].pk,
            "options": "",
            "rated": "on",
        },
    )
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/result/"

    response = client.post(
        f"/matches/{match.pk}/result/", {"expected_version": 0, "score_0": 4, "score_1": 9, "reason": ""}
    )
    assert response.status_code == 302
    assert list(match.seats.order_by("seat").values_list("player__name", "place", "score")) == [
        ("Cat", 1, 4),
        ("Ann", 2, 9),
    ]


def test_new_match_options_nested_1000_deep_are_a_400_not_a_recursion_error(client, staff, players):
    client.force_login(staff)
    deep = '{"name": ' + "[" * 1000 + "1" + "]" * 1000 + "}"
    form = {"game": "nacho_pile", "seat_0": players[0].pk, "seat_1": players[1].pk, "options": deep}
    response = client.post("/matches/new/", form)
    assert response.status_code == 400
    assert response.context["form"].errors == {
        "options": ["not valid JSON: arrays and objects are nested deeper than 32 levels"]
    }
    assert not Match.objects.exists()


def test_new_match_form_shows_errors_without_writing(client, staff, players):
    client.force_login(staff)
    response = client.post(
        "/matches/new/", {"game": "chickie_nuggs", "seat_0": players[0].pk, "options": "{"}
    )
    assert response.status_code == 400
    assert "not valid JSON" in response.content.decode()
    response = client.post(
        "/matches/new/",
        {"game": "nacho_pile", "seat_0": players[0].pk, "seat_1": players[1].pk, "options": '{"colour": 1}'},
    )
    assert response.status_code == 400
    assert "unknown option colour" in response.content.decode()
    assert not Match.objects.exists()


def test_result_form_refuses_bad_input_and_reports_a_conflict(client, staff, league):
    client.force_login(staff)
    match = league[1]
    url = f"/matches/{match.pk}/result/"
    response = client.post(url, {"expected_version": 1, "place_0": 1, "place_1": 2, "reason": "fix"})
    assert response.status_code == 400
    assert "enter a place for every seat, or none" in response.content.decode()
    response = client.post(
        url, {"expected_version": 1, "place_0": 1, "place_1": 2, "place_2": 9, "reason": "fix"}
    )
    assert response.status_code == 400
    response = client.post(url, {"expected_version": "x", "place_0": 1, "place_1": 2, "place_2": 3})
    assert response.status_code == 400

    response = client.post(
        url, {"expected_version": 0, "place_0": 1, "place_1": 2, "place_2": 3, "reason": "late"}
    )
    assert response.status_code == 409
    page = response.content.decode()
    assert "saved this result a moment ago: 1st" in page
    assert 'name="expected_version" value="1"' in page
    assert ResultVersion.objects.filter(match=match).count() == 1
