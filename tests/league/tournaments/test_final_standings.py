"""Final standings of finished bracket events follow the bracket (champion, finalist, third-place match, then
by the round a player went out in), through the services, the API and the standings page."""

import random

import pytest
from rest_framework.test import APIClient

from league.matches.models import Match
from league.tournaments import selectors, services
from league.tournaments.history import load_history
from league.tournaments.models import Registration, Tournament
from tests.factories.tournaments import better_seed_wins, table_seats


def standings(tournament):
    return [(row.name, row.group) for row in selectors.standing_rows_of(load_history(tournament))]


def seed_order(tournament, final_order=None):
    """A `places` callback: each table finishes in seed order; at the final table,
    in `final_order` (names)."""
    seeds = dict(Registration.objects.filter(tournament=tournament).values_list("player_id", "seed"))
    names = dict(Registration.objects.filter(tournament=tournament).values_list("player_id", "player__name"))

    def places(index, seats):
        if final_order and len(seats) > 2 and tournament.round_set.filter(final=True).exists():
            return [final_order.index(names[pid]) + 1 for pid in seats]
        ranked = sorted(seats, key=seeds.__getitem__)
        return [ranked.index(pid) + 1 for pid in seats]

    return places


def play_out(tournament, play_round, places):
    while tournament.status == Tournament.Status.RUNNING:
        play_round(tournament, places)


def test_single_elimination_with_a_third_place_match(make_tournament, play_round):
    tournament, _ = make_tournament(
        8, format="single_elimination", table_size=2, third_place=True, rated=False
    )
    play_out(tournament, play_round, better_seed_wins(tournament))
    # by points the third-place winner Cal (2 wins) was listed above the finalist Bea (2 wins)
    assert standings(tournament) == [
        ("Ada", "Champion"),
        ("Bea", "Final"),
        ("Cal", "Third-place match"),
        ("Dov", "Third-place match"),
        ("Hal", "Out in the quarter-finals"),
        ("Fay", "Out in the quarter-finals"),
        ("Gus", "Out in the quarter-finals"),
        ("Eli", "Out in the quarter-finals"),
    ]


def test_a_third_place_winner_with_more_wins_stays_below_the_finalist(make_tournament, play_round):
    tournament, _ = make_tournament(
        5, format="single_elimination", table_size=2, third_place=True, rated=False
    )
    better = better_seed_wins(tournament)
    worse = better_seed_wins(tournament, upset=True)
    play_out(
        tournament,
        play_round,
        lambda index, seats: (worse if len(played(tournament)) == 3 and index == 1 else better)(index, seats),
    )
    # Ada and Bea had byes; Dov beat Eli, lost the semi-final to Ada and won the third-place match against
    # Cal: two wins, one more than the finalist Bea, who was listed below him by points
    assert standings(tournament) == [
        ("Ada", "Champion"),
        ("Bea", "Final"),
        ("Dov", "Third-place match"),
        ("Cal", "Third-place match"),
        ("Eli", "Out in the quarter-finals"),
    ]


def played(tournament):
    return list(tournament.round_set.values_list("number", flat=True))


@pytest.mark.parametrize("count", [6, 8])
@pytest.mark.parametrize("seed", range(6))
def test_double_elimination_the_grand_final_loser_is_second(make_tournament, play_round, count, seed):
    tournament, _ = make_tournament(count, format="double_elimination", table_size=2, rated=False)
    generator = random.Random(seed)
    play_out(tournament, play_round, lambda index, seats: generator.sample([1, 2], 2))
    last = tournament.round_set.order_by("-number").first().tables.get()
    assert last.label in ("GF", "GF2")
    winner, loser = last.match.seats.order_by("place").values_list("player__name", flat=True)
    lines = standings(tournament)
    assert lines[:2] == [(winner, "Champion"), (loser, "Final")]
    rounds = [int(group.removeprefix("Out in losers' round ")) for _, group in lines[2:]]
    assert rounds == sorted(rounds, reverse=True)


def test_four_seat_elimination_top_two_ranks_the_final_table_by_place(make_tournament, play_round):
    tournament, _ = make_tournament(
        16, format="single_elimination", table_size=4, advance=2, leftovers="byes", rated=False
    )
    play_out(tournament, play_round, seed_order(tournament, final_order=["Dov", "Ada", "Bea", "Cal"]))
    lines = standings(tournament)
    # the final table's winner Dov was listed 2nd or 3rd by points
    assert lines[:4] == [(name, "Final table, by place") for name in ("Dov", "Ada", "Bea", "Cal")]
    assert [name for name, _ in lines[4:8]] == ["Fay", "Eli", "Gus", "Hal"]
    assert {group for _, group in lines[4:8]} == {"Out in round 2, by place at the table"}
    assert {group for _, group in lines[8:]} == {"Out in round 1, by place at the table"}
    assert [name for name, _ in lines[8:12]] == ["Lea", "Ivy", "Jon", "Kai"]


def test_swiss_then_a_top_cut_ranks_the_cut_first(make_tournament, play_round):
    tournament, _ = make_tournament(8, format="stages", table_size=2, rounds=3, cut_size=4, rated=False)
    for _ in range(3):
        play_round(tournament, seed_order(tournament))
    assert [name for name, _ in standings(tournament)] == [
        "Ada",
        "Bea",
        "Cal",
        "Dov",
        "Eli",
        "Fay",
        "Gus",
        "Hal",
    ]
    # the cut: Ada v Dov and Bea v Cal, the worse seed wins every match, so Dov beats Cal in the final
    play_out(tournament, play_round, better_seed_wins(tournament, upset=True))
    assert standings(tournament) == [
        ("Dov", "Champion"),
        ("Cal", "Final"),
        ("Ada", "Out in the semi-finals (shared third)"),
        ("Bea", "Out in the semi-finals (shared third)"),
        ("Eli", "Did not make the cut: by the Swiss standings"),
        ("Fay", "Did not make the cut: by the Swiss standings"),
        ("Gus", "Did not make the cut: by the Swiss standings"),
        ("Hal", "Did not make the cut: by the Swiss standings"),
    ]


def test_the_api_and_the_page_name_the_rule_of_each_group(client, make_tournament, play_round):
    tournament, _ = make_tournament(
        4, format="single_elimination", table_size=2, third_place=True, rated=False
    )
    play_out(tournament, play_round, better_seed_wins(tournament))
    rows = APIClient().get(f"/api/tournaments/{tournament.pk}/standings/").json()
    assert [(row["rank"], row["name"], row["group"]) for row in rows] == [
        (1, "Ada", "Champion"),
        (2, "Bea", "Final"),
        (3, "Cal", "Third-place match"),
        (4, "Dov", "Third-place match"),
    ]
    page = client.get(f"/tournaments/{tournament.slug}/").content.decode()
    assert page.count('<tr class="group">') == 3
    for rule in ("Champion", "Final", "Third-place match"):
        assert f'scope="rowgroup">{rule}</th>' in page
    assert "Ordered by the bracket, group by group" in page
    assert "within a group by points, opponents&#x27; points, wins, head to head, then seed." in page


def test_a_top_cut_names_the_tournaments_round_a_player_went_out_in(make_tournament, play_round):
    """The cut's rounds carry the tournament's numbers (round 3 after a 2-round Swiss), as the round pages do,
    not the elimination's own count ("round 1" would name a Swiss round)."""
    tournament, _ = make_tournament(
        12, format="stages", rounds=2, cut_size=8, table_size=4, advance=2, rated=False
    )
    play_out(tournament, play_round, seed_order(tournament))
    assert tournament.round_set.count() == 4
    groups = [group for _, group in standings(tournament)]
    assert list(dict.fromkeys(groups)) == [
        "Final table, by place",
        "Out in round 3, by place at the table",
        "Did not make the cut: by the Swiss standings",
    ]


def test_a_two_seat_top_cut_names_the_tournaments_round_too(make_tournament, play_round):
    tournament, _ = make_tournament(16, format="stages", rounds=1, cut_size=16, table_size=2, rated=False)
    play_out(tournament, play_round, better_seed_wins(tournament))
    groups = [group for _, group in standings(tournament)]
    assert list(dict.fromkeys(groups)) == [
        "Champion",
        "Final",
        "Out in the semi-finals (shared third)",
        "Out in the quarter-finals",
        "Out in round 2",
    ]


def _cut_players(tournament, round_row):
    names = dict(Registration.objects.filter(tournament=tournament).values_list("player_id", "player__name"))
    return sorted(names[pid] for seats in table_seats(round_row) for pid in seats)


@pytest.mark.parametrize("during_last_round", [False, True])
def test_a_player_who_drops_before_the_cut_is_drawn_gives_their_place_to_the_next(
    make_tournament, play_round, organizer, during_last_round
):
    """Ada leads the Swiss (seat 1 wins every table) but leaves before the top cut is drawn, after the last
    Swiss round or during it: the cut takes the next eight, Ada is no cut table's forfeit."""
    tournament, players = make_tournament(
        12, format="stages", table_size=4, rounds=2, cut_size=8, advance=2, rated=False
    )
    play_round(tournament, seed_order(tournament))
    ada = players[0]
    if during_last_round:  # round 2 is played but for Ada's table, where the others play on without her
        last = services.round_generate(tournament=tournament, by=organizer)
        services.round_publish(round_row=last, by=organizer)
        for table in last.tables.exclude(match__seats__player=ada):
            services.table_result(table=table, by=organizer, expected_version=0, places=[1, 2, 3, 4])
    else:
        last = play_round(tournament, seed_order(tournament))
    swiss = [name for name, _ in standings(tournament)]
    services.registration_leave(tournament=tournament, by=organizer, player_id=ada.pk, status="dropped")
    if during_last_round:
        table = last.tables.get(match__seats__player=ada)
        seated = list(table.match.seats.order_by("seat").values_list("player_id", flat=True))
        others = iter(range(1, 4))
        places = [4 if pid == ada.pk else next(others) for pid in seated]
        services.table_result(table=table, by=organizer, expected_version=0, places=places)
        assert Match.objects.get(pk=table.match_id).seats.get(player=ada).place == 4
        services.round_complete(round_row=last, by=organizer)
    top = [name for name, _ in standings(tournament) if name != "Ada"][:8]
    cut = play_round(tournament, seed_order(tournament))
    assert "Ada" not in _cut_players(tournament, cut)
    assert _cut_players(tournament, cut) == sorted(top)
    assert swiss[0] == "Ada" or during_last_round


def test_players_who_missed_the_cut_show_their_swiss_figures(make_tournament, play_round):
    """Their opponents' points do not count the cut's matches (the Swiss standings ordered them)."""
    tournament, _ = make_tournament(8, format="stages", table_size=2, rounds=3, cut_size=4, rated=False)
    for _ in range(3):
        play_round(tournament, seed_order(tournament))

    def figures():
        rows = selectors.standing_rows_of(load_history(tournament))
        return {row.name: (row.points, row.opponents_points, row.wins, row.played) for row in rows}

    swiss = figures()
    play_out(tournament, play_round, better_seed_wins(tournament, upset=True))
    final = figures()
    assert (
        {name: final[name] for name in ("Eli", "Fay", "Gus", "Hal")}
        == {name: swiss[name] for name in ("Eli", "Fay", "Gus", "Hal")}
        == {
            "Eli": (1.0, 6.0, 1, 3),
            "Fay": (1.0, 4.0, 1, 3),
            "Gus": (1.0, 3.0, 1, 3),
            "Hal": (0.0, 4.0, 0, 3),
        }
    )
    assert final["Dov"] != swiss["Dov"]  # the cut's players count their cut matches
