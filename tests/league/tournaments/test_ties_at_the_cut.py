"""A tie at an elimination table that leaves the cut undecided needs a decider (who goes through), stored with
the result version; without one the result is refused, with the same message through the service, the page
and the API. Ties elsewhere (Swiss, round robin, a final table) stand as they are."""

import pytest
from rest_framework.test import APIClient

from league.core.errors import UserError
from league.results.models import ResultVersion
from league.tournaments import services
from league.tournaments.models import Table
from tests.factories.tournaments import table_seats

TIED = "Ada and Dov share 1st place and only one of them goes through: say who"


@pytest.fixture
def cup(make_tournament, organizer):
    """Single elimination of 4: round 1 published, Ada v Dov and Bea v Cal."""
    tournament, _ = make_tournament(4, format="single_elimination", table_size=2, rated=False)
    first = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=first, by=organizer)
    return tournament, first


def named(tournament, seats):
    names = dict(tournament.registrations.values_list("player_id", "player__name"))
    return [[names[pid] for pid in table] for table in seats]


def test_a_drawn_bracket_match_needs_to_say_who_goes_through(cup, organizer, players_by_name):
    tournament, first = cup
    table = first.tables.get(number=1)
    with pytest.raises(UserError) as refused:
        services.table_result(table=table, by=organizer, expected_version=0, places=[1, 1])
    assert (refused.value.message, refused.value.field, refused.value.status) == (TIED, "advancing", 400)
    assert not ResultVersion.objects.filter(match=table.match_id).exists()
    dov = players_by_name["Dov"].pk
    services.table_result(table=table, by=organizer, expected_version=0, places=[1, 1], advancing=[dov])
    assert list(ResultVersion.objects.filter(match=table.match_id).values_list("places", "advancing")) == [
        ([1, 1], [dov])
    ]
    services.table_result(table=first.tables.get(number=2), by=organizer, expected_version=0, places=[1, 2])
    final = tournament.round_set.get(number=2)  # the bracket opens the final by itself
    assert named(tournament, table_seats(final)) == [["Bea", "Dov"]]


def test_a_decider_must_follow_the_places(make_tournament, organizer, players_by_name):
    tournament, _ = make_tournament(8, format="single_elimination", table_size=4, advance=2, rated=False)
    first = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=first, by=organizer)
    table = first.tables.get(number=1)
    seats = named(tournament, table_seats(first))[0]
    assert sorted(seats) == ["Ada", "Dov", "Eli", "Hal"]
    order = ["Ada", "Dov", "Eli", "Hal"]
    places = [{"Ada": 1, "Dov": 2, "Eli": 2, "Hal": 4}[name] for name in seats]
    ids = {name: players_by_name[name].pk for name in order}
    cases = [
        (None, "Dov and Eli share 2nd place and only one of them goes through: say who"),
        (
            [ids["Ada"], ids["Hal"]],
            "who goes through must follow the places: Ada by place, then one of Dov or Eli",
        ),
        (
            [ids["Dov"], ids["Eli"]],
            "who goes through must follow the places: Ada by place, then one of Dov or Eli",
        ),
        ([ids["Ada"]], "who goes through must follow the places: Ada by place, then one of Dov or Eli"),
    ]
    for advancing, message in cases:
        with pytest.raises(UserError, match=f"^{message}$"):
            services.table_result(
                table=table, by=organizer, expected_version=0, places=places, advancing=advancing
            )
    clear = [order.index(name) + 1 for name in seats]
    with pytest.raises(UserError, match="^the places already decide who goes through: Ada and Dov$"):
        services.table_result(
            table=table, by=organizer, expected_version=0, places=clear, advancing=[ids["Ada"], ids["Hal"]]
        )
    services.table_result(
        table=table, by=organizer, expected_version=0, places=places, advancing=[ids["Eli"], ids["Ada"]]
    )
    version = ResultVersion.objects.get(match=table.match_id)
    assert sorted(version.advancing) == sorted([ids["Ada"], ids["Eli"]])
    # the final table takes Ada and Eli from this table (Bea and Cal from the other, by seed order)
    other = first.tables.get(number=2)
    services.table_result(table=other, by=organizer, expected_version=0, places=[1, 2, 3, 4])
    services.round_complete(round_row=first, by=organizer)
    final = services.round_generate(tournament=tournament, by=organizer)
    finalists = sorted(named(tournament, table_seats(final))[0])
    assert "Eli" in finalists and "Dov" not in finalists and "Ada" in finalists


def test_ties_that_leave_no_cut_open_need_no_decider(make_tournament, play_round, organizer, players_by_name):
    swiss, _ = make_tournament(4, table_size=2, rounds=1, rated=False)
    round_row = services.round_generate(tournament=swiss, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    table = round_row.tables.get(number=1)
    with pytest.raises(UserError, match="^nobody goes through from this table: leave advancing empty$"):
        services.table_result(
            table=table,
            by=organizer,
            expected_version=0,
            places=[1, 1],
            advancing=[players_by_name["Ada"].pk],
        )
    services.table_result(table=table, by=organizer, expected_version=0, places=[1, 1])
    pods, _ = make_tournament(
        8, format="single_elimination", table_size=4, advance=2, name="Pods", rated=False
    )
    play_round(pods)
    final = services.round_generate(tournament=pods, by=organizer)
    services.round_publish(round_row=final, by=organizer)
    final_table = final.tables.get()
    assert final_table.label == "Final"
    services.table_result(table=final_table, by=organizer, expected_version=0, places=[1, 1, 3, 3])


def test_the_page_asks_who_goes_through_and_shows_the_message(client, cup, organizer, players_by_name):
    tournament, first = cup
    client.force_login(organizer)
    url = f"/tournaments/{tournament.slug}/rounds/1/tables/1/result/"
    page = client.get(url).content.decode()
    assert "<legend>Goes through (1 of 2)</legend>" in page
    assert 'name="advancing"' in page
    answer = client.post(url, {"expected_version": 0, "place_0": 1, "place_1": 1, "reason": ""})
    assert answer.status_code == 400
    assert TIED in answer.content.decode()
    dov = players_by_name["Dov"].pk
    saved = client.post(
        url, {"expected_version": 0, "place_0": 1, "place_1": 1, "reason": "", "advancing": [dov]}
    )
    assert saved.status_code == 302
    assert Table.objects.get(round=first, number=1).match.result_versions.get().advancing == [dov]
    round_page = client.get(f"/tournaments/{tournament.slug}/rounds/1/").content.decode()
    assert (
        '<bdi>Dov</bdi><span class="place">1st · 0.5 pt</span> <span class="muted">· goes through</span>'
        in round_page
    )


def test_the_api_refuses_an_undecided_tie_and_stores_the_decider(cup, organizer, players_by_name):
    _, first = cup
    table = first.tables.get(number=1)
    api = APIClient()
    api.force_authenticate(organizer)
    url = f"/api/tournament-tables/{table.pk}/result/"
    refused = api.post(url, {"expected_version": 0, "places": [1, 1]}, format="json")
    assert refused.status_code == 400
    assert refused.json() == {
        "code": "invalid",
        "detail": TIED,
        "field": "advancing",
        "errors": [{"field": "advancing", "code": "invalid", "detail": TIED}],
    }
    dov = players_by_name["Dov"].pk
    saved = api.post(url, {"expected_version": 0, "places": [1, 1], "advancing": [dov]}, format="json")
    assert saved.status_code == 201
    assert saved.json()["advancing"] == [dov]
    foreign = api.post(
        f"/api/tournament-tables/{first.tables.get(number=2).pk}/result/",
        {"expected_version": 0, "places": [1, 1], "advancing": [dov]},
        format="json",
    )
    assert (foreign.status_code, foreign.json()["detail"]) == (
        400,
        "advancing lists players of this table, each once",
    )
