"""Final standings of elimination: the bracket orders the players (champion, finalist, third-place match,
then by the round a player went out in), the tie-breaks order each group."""

import random
import re

import pytest

from league.pairing import (
    PlayedRound,
    RoundInputs,
    TableResult,
    TableSpec,
    bracket_placement,
    compute_standings,
    cut_placement,
    double_elimination_bracket,
    generate_round,
    placed_standings,
    pod_placement,
    single_elimination_bracket,
)
from tests.league.pairing.support import field, seed_number, seeds_of

FOUR_SEATS = TableSpec(preferred=4, minimum=3, maximum=4)


def play(format_name, count, decide, **options):
    """Play every round of a bracket; return the results in playing order."""
    entrants = field(count)
    results = []
    round_number = 1
    while True:
        try:
            draft = generate_round(
                format_name,
                RoundInputs(entrants=entrants, round_number=round_number, results=results, **options),
            )
        except Exception as error:  # the bracket is finished
            assert "finished" in str(error) or "final table" in str(error), error
            return results
        for table in draft.tables:
            order = decide(table)
            results.append(
                TableResult(
                    seats=table.seats,
                    places={p: place for place, p in enumerate(order, 1)},
                    label=table.label,
                )
            )
        round_number += 1


def by_seed(table):
    return sorted(table.seats, key=seed_number)


def final_standings(count, results, groups):
    base = compute_standings(seeds_of(count), [PlayedRound(tables=tuple(results))])
    return [(standing.id, standing.group) for standing in placed_standings(base, groups)]


def test_single_elimination_with_a_third_place_match_ranks_the_finalist_above_the_third_place_winner():
    results = play("single_elimination", 8, by_seed, third_place=True)
    groups = bracket_placement(single_elimination_bracket(8, third_place=True), field(8), results)
    # By points the third-place winner p3 (2 wins, opponents' points 4) would be above the finalist p2 (2
    # wins, opponents' points 1). The quarter-final losers are ordered by the tie-breaks: p8 met the champion
    # (opponents' points 3), p6 and p7 met players of 2 points (seed settles), p5 met p4 (1 point).
    assert final_standings(8, results, groups) == [
        ("p1", "Champion"),
        ("p2", "Final"),
        ("p3", "Third-place match"),
        ("p4", "Third-place match"),
        ("p8", "Out in the quarter-finals"),
        ("p6", "Out in the quarter-finals"),
        ("p7", "Out in the quarter-finals"),
        ("p5", "Out in the quarter-finals"),
    ]


def test_without_a_third_place_match_the_semi_final_losers_share_third_by_the_tie_breaks():
    def upset_in_the_semis(table):
        order = by_seed(table)
        return order[::-1] if table.label == "R2-2" else order

    results = play("single_elimination", 8, upset_in_the_semis)
    groups = bracket_placement(single_elimination_bracket(8), field(8), results)
    assert final_standings(8, results, groups)[:4] == [
        ("p1", "Champion"),
        ("p3", "Final"),
        ("p4", "Out in the semi-finals (shared third)"),
        ("p2", "Out in the semi-finals (shared third)"),
    ]  # p4 met the champion (3 points), p2 the finalist (2)


def test_double_elimination_of_four_grand_final_loser_second_then_by_losers_round():
    results = play("double_elimination", 4, by_seed)
    groups = bracket_placement(double_elimination_bracket(4), field(4), results)
    assert final_standings(4, results, groups) == [
        ("p1", "Champion"),
        ("p2", "Final"),
        ("p3", "Out in losers' round 2"),
        ("p4", "Out in losers' round 1"),
    ]


def test_double_elimination_after_a_reset_the_champion_is_the_winner_of_the_second_final():
    def p2_wins_the_finals(table):
        order = by_seed(table)
        return order[::-1] if table.label in ("GF", "GF2") else order

    results = play("double_elimination", 4, p2_wins_the_finals)
    assert [result.label for result in results][-2:] == ["GF", "GF2"]
    groups = bracket_placement(double_elimination_bracket(4), field(4), results)
    assert final_standings(4, results, groups)[:2] == [("p2", "Champion"), ("p1", "Final")]


def last_defeat(results, player):
    """The label of the last match `player` lost."""
    return [result.label for result in results if result.places.get(player) == 2][-1]


@pytest.mark.parametrize("count", [6, 8])
@pytest.mark.parametrize("seed", range(40))
def test_double_elimination_with_random_results_ranks_by_the_bracket(count, seed):
    generator = random.Random(seed)
    results = play("double_elimination", count, lambda table: generator.sample(table.seats, 2))
    final = results[-1]
    assert final.label in ("GF", "GF2")
    winner, loser = sorted(final.seats, key=final.places.__getitem__)
    lines = final_standings(
        count, results, bracket_placement(double_elimination_bracket(count), field(count), results)
    )
    assert lines[:2] == [(winner, "Champion"), (loser, "Final")]
    # everyone else by the losers' round of their second defeat, later first, each group named after it
    rounds = [int(re.match(r"L(\d+)-", last_defeat(results, player)).group(1)) for player, _ in lines[2:]]
    assert rounds == sorted(rounds, reverse=True)
    assert [group for _, group in lines[2:]] == [f"Out in losers' round {number}" for number in rounds]


def test_a_bracket_still_being_played_puts_the_players_still_in_first():
    results = play("single_elimination", 8, by_seed)[:4]  # the quarter-finals only
    groups = bracket_placement(single_elimination_bracket(8), field(8), results)
    assert [(group.rule, group.players) for group in groups] == [
        ("Still in", ("p1", "p2", "p3", "p4")),
        ("Out in the quarter-finals", ("p8", "p5", "p7", "p6")),
    ]


def test_four_seat_elimination_top_two_ranks_the_final_table_by_place_then_earlier_tables():
    def seed_four_wins_the_final(table):
        order = by_seed(table)
        return ["p4", "p1", "p2", "p3"] if table.label == "Final" else order

    results = play("single_elimination", 16, seed_four_wins_the_final, table=FOUR_SEATS, advance=2)
    groups = pod_placement(field(16), 2, results)
    lines = final_standings(16, results, groups)
    assert lines[:4] == [
        ("p4", "Final table, by place"),
        ("p1", "Final table, by place"),
        ("p2", "Final table, by place"),
        ("p3", "Final table, by place"),
    ]
    # round 2 tables were (1, 4, 6, 7) and (2, 3, 5, 8): third places p6 and p5 (3 points each; p6 met the
    # final table's p1 and p4, so more opponents' points), then fourth places p7 and p8
    assert [player for player, group in lines[4:8]] == ["p6", "p5", "p7", "p8"]
    assert {group for _, group in lines[4:8]} == {"Out in round 2, by place at the table"}
    # round 1: third places p9..p12 above fourth places p13..p16
    assert [seed_number(player) for player, _ in lines[8:12]] == [12, 9, 10, 11]  # p12 met p4 and p5
    assert [seed_number(player) for player, _ in lines[12:]] == [13, 16, 15, 14]  # by opponents' points
    assert {group for _, group in lines[8:]} == {"Out in round 1, by place at the table"}


def test_a_top_cut_ranks_above_everyone_who_did_not_make_it():
    cut = bracket_placement(
        single_elimination_bracket(2),
        field(2, "c"),
        [TableResult(seats=("c1", "c2"), places={"c1": 2, "c2": 1}, label="F")],
    )
    first_stage = compute_standings({"c1": 1, "c2": 2, "x": 3}, [])
    groups = cut_placement(cut, first_stage, "Swiss")
    assert [(group.rule, group.players) for group in groups] == [
        ("Champion", ("c2",)),
        ("Final", ("c1",)),
        ("Did not make the cut: by the Swiss standings", ("x",)),
    ]


def test_a_void_match_sends_nobody_on_and_places_both_players_by_its_round():
    bracket = single_elimination_bracket(8, third_place=True)

    def won(label, winner, loser):
        return TableResult(seats=(winner, loser), places={winner: 1, loser: 2}, label=label)

    results = [
        TableResult(seats=("p1", "p8"), places={}, label="R1-1", void=True),
        won("R1-2", "p4", "p5"),
        won("R1-3", "p2", "p7"),
        won("R1-4", "p3", "p6"),
        won("R2-2", "p2", "p3"),  # R2-1 is a walkover for p4: nobody to lose it, so no third-place match
        TableResult(seats=("p2", "p4"), places={}, label="F", void=True),
    ]
    groups = bracket_placement(bracket, field(8), results)
    assert [(group.rule, sorted(group.players)) for group in groups] == [
        ("Third-place match", ["p3"]),  # a walkover: R2-1 had no loser
        ("Absent at F", ["p2", "p4"]),
        ("Out in the quarter-finals", ["p1", "p5", "p6", "p7", "p8"]),
    ]
