"""The tie-breaks, scaled points and requested byes, on the worked examples of docs/tournaments.md: every
expected number here was computed by hand there."""

import pytest

from league.pairing import PairingError, PlayedRound, Scoring, TableResult, compute_standings, place_points
from league.pairing.scoring import TIEBREAKS


def table(places):
    return TableResult(seats=tuple(places), places=places)


# Example A (docs/tournaments.md): six players, three rounds at 2 seats.
SIX = {"Ann": 1, "Bob": 2, "Cat": 3, "Dan": 4, "Eve": 5, "Fay": 6}
SIX_ROUNDS = [
    PlayedRound(
        tables=(table({"Ann": 1, "Dan": 2}), table({"Bob": 1, "Eve": 1}), table({"Cat": 1, "Fay": 2}))
    ),
    PlayedRound(
        tables=(table({"Cat": 1, "Ann": 2}), table({"Bob": 1, "Fay": 2}), table({"Dan": 1, "Eve": 2}))
    ),
    PlayedRound(
        tables=(table({"Bob": 1, "Cat": 2}), table({"Ann": 1, "Eve": 2}), table({"Fay": 1, "Dan": 2}))
    ),
]
COLUMNS = (
    "points",
    "opponents_points",
    "opponents_points_average",
    "buchholz_cut1",
    "buchholz_median",
    "sonneborn_berger",
    "opponents_match_win_percentage",
    "cumulative",
)


def lines(standings):
    return {line.id: tuple(getattr(line, name) for name in COLUMNS) for line in standings}


def test_every_tie_break_of_the_two_seat_example_is_the_number_worked_out_by_hand():
    assert lines(compute_standings(SIX, SIX_ROUNDS)) == {
        "Ann": (2.0, 3.5, 1.166666667, 3.0, 1.0, 1.5, 0.443333333, 4.0),
        "Bob": (2.5, 3.5, 1.166666667, 3.0, 1.0, 3.25, 0.443333333, 4.5),
        "Cat": (2.0, 5.5, 1.833333333, 4.5, 2.0, 3.0, 0.611111111, 5.0),
        "Dan": (1.0, 3.5, 1.166666667, 3.0, 1.0, 0.5, 0.443333333, 2.0),
        "Eve": (0.5, 5.5, 1.833333333, 4.5, 2.0, 1.25, 0.611111111, 1.5),
        "Fay": (1.0, 5.5, 1.833333333, 4.5, 2.0, 1.0, 0.611111111, 1.0),
    }


@pytest.mark.parametrize(
    ("second", "order"),
    [
        ("opponents_points", ["Bob", "Cat", "Ann", "Fay", "Dan", "Eve"]),
        ("opponents_points_average", ["Bob", "Cat", "Ann", "Fay", "Dan", "Eve"]),
        ("buchholz_cut1", ["Bob", "Cat", "Ann", "Fay", "Dan", "Eve"]),
        ("buchholz_median", ["Bob", "Cat", "Ann", "Fay", "Dan", "Eve"]),
        ("sonneborn_berger", ["Bob", "Cat", "Ann", "Fay", "Dan", "Eve"]),
        ("opponents_match_win_percentage", ["Bob", "Cat", "Ann", "Fay", "Dan", "Eve"]),
        ("cumulative", ["Bob", "Cat", "Ann", "Dan", "Fay", "Eve"]),
    ],
)
def test_each_tie_break_orders_the_players_level_on_points(second, order):
    standings = compute_standings(SIX, SIX_ROUNDS, tiebreaks=["points", second, "seed"])
    assert [line.id for line in standings] == order


def test_the_match_win_percentage_floor_lifts_a_weak_opponent_to_33_percent():
    # Eve won 0.5 of 3 (17%): Ann's average counts her as 33%, so (1/3 + 2/3 + 0.33) / 3.
    ann = next(line for line in compute_standings(SIX, SIX_ROUNDS) if line.id == "Ann")
    assert ann.opponents_match_win_percentage == round((1 / 3 + 2 / 3 + 0.33) / 3, 9) == 0.443333333


# Example B (docs/tournaments.md): seven players at tables of 4, so one short table of 3 a round.
SEVEN = {"A": 1, "B": 2, "C": 3, "D": 4, "E": 5, "F": 6, "G": 7}
SEVEN_ROUNDS = [
    PlayedRound(tables=(table({"A": 1, "B": 2, "C": 3, "D": 4}), table({"E": 1, "F": 2, "G": 3}))),
    PlayedRound(tables=(table({"E": 1, "A": 2, "F": 3, "B": 4}), table({"C": 1, "G": 2, "D": 3}))),
]


def test_scaled_points_make_a_win_at_a_short_table_worth_a_win_at_a_full_one():
    scaled = Scoring(scale_to=4)
    assert scaled.points(3) == (3.0, 1.5, 0.0)
    assert scaled.points(4) == (3.0, 2.0, 1.0, 0.0)
    assert scaled.points(5) == (3.0, 2.25, 1.5, 0.75, 0.0)
    assert place_points(table({"E": 1, "F": 2, "G": 3}), scaled) == {"E": 3.0, "F": 1.5, "G": 0.0}
    assert Scoring(points_by_size={4: (5.0, 3.0, 1.0, 0.0)}, scale_to=4).points(3) == (5.0, 2.5, 0.0)
    assert Scoring().points(3) == (2.0, 1.0, 0.0), "unscaled unless asked"


def test_the_pods_example_scaled_with_the_average_of_opponents_points():
    standings = compute_standings(
        SEVEN, SEVEN_ROUNDS, Scoring(scale_to=4), ["points", "opponents_points_average"]
    )
    assert [
        (line.id, line.points, line.opponents_points, line.opponents_points_average) for line in standings
    ] == [
        ("E", 6.0, 13.5, 2.7),
        ("A", 5.0, 16.5, 2.75),
        ("C", 4.0, 8.5, 1.7),
        ("F", 2.5, 20.5, 4.1),
        ("B", 2.0, 22.5, 3.75),
        ("G", 1.5, 12.5, 3.125),
        ("D", 0.0, 16.5, 3.3),
    ]


def test_the_pods_example_unscaled_leaves_the_short_table_winner_level_with_a_runner_up():
    standings = compute_standings(SEVEN, SEVEN_ROUNDS, Scoring(), ["points", "seed"])
    assert [(line.id, line.points) for line in standings] == [
        ("A", 5.0),
        ("E", 5.0),
        ("C", 3.0),
        ("B", 2.0),
        ("F", 2.0),
        ("G", 1.0),
        ("D", 0.0),
    ]


def test_thirds_of_scaled_points_add_up_exactly_so_level_players_stay_level():
    # Tables of 5 preferred: a table of 4 scores 4, 8/3, 4/3, 0,
    # and 4 + 8/3 + 4/3 is 7.999999999999999 in floats.
    seeds = {"v": 1, "p": 2, "a": 3, "b": 4, "c": 5, "d": 6, "e": 7, "f": 8, "g": 9}
    rounds = [
        PlayedRound(
            tables=(table({"p": 1, "a": 2, "b": 3, "c": 4, "d": 5}), table({"v": 1, "e": 2, "f": 3, "g": 4}))
        ),
        PlayedRound(
            tables=(table({"p": 1, "b": 2, "c": 3, "d": 4, "a": 5}), table({"e": 1, "v": 2, "f": 3, "g": 4}))
        ),
        PlayedRound(
            tables=(table({"a": 1, "b": 2, "c": 3, "d": 4, "p": 5}), table({"e": 1, "f": 2, "v": 3, "g": 4}))
        ),
    ]
    standings = compute_standings(seeds, rounds, Scoring(scale_to=5), ["points", "seed"])
    assert [(line.id, line.points) for line in standings][:4] == [
        ("e", 10.666666667),
        ("v", 8.0),
        ("p", 8.0),
        ("b", 8.0),
    ]


@pytest.mark.parametrize(("score", "points", "wins"), [("win", 3.0, 1), ("half", 1.5, 0), ("zero", 0.0, 0)])
def test_a_requested_bye_scores_as_the_tournament_says(score, points, wins):
    rounds = [PlayedRound(tables=(table({"a": 1, "b": 2, "c": 3, "d": 4}),), requested_byes=(("e", score),))]
    standings = {
        line.id: line
        for line in compute_standings({"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}, rounds, bye_table_size=4)
    }
    assert (standings["e"].points, standings["e"].wins, standings["e"].requested_byes) == (points, wins, 1)
    assert (standings["e"].byes, standings["e"].played, standings["e"].cumulative) == (0, 0, points)


def test_a_requested_bye_with_an_unknown_score_is_refused():
    with pytest.raises(PairingError, match="a requested bye scores one of win, half, zero, not 'double'"):
        compute_standings({"a": 1}, [PlayedRound(tables=(), requested_byes=(("a", "double"),))])


def test_every_tie_break_is_known_and_the_default_order_is_unchanged():
    assert TIEBREAKS == (
        "points",
        "opponents_points",
        "opponents_points_average",
        "buchholz_cut1",
        "buchholz_median",
        "sonneborn_berger",
        "opponents_match_win_percentage",
        "cumulative",
        "wins",
        "head_to_head",
        "seed",
    )
    assert compute_standings(SIX, SIX_ROUNDS) == compute_standings(
        SIX, SIX_ROUNDS, tiebreaks=["points", "opponents_points", "wins", "head_to_head", "seed"]
    )
