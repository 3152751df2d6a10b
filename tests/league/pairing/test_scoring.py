"""Points per place (shared places share points), tie-breaks and standings, and the seam's errors."""

import pytest

from league.pairing import (
    Entrant,
    PairingError,
    PlayedRound,
    RoundInputs,
    Scoring,
    TableResult,
    compute_standings,
    default_points,
    entrants_from_history,
    generate_round,
    place_points,
)
from tests.league.pairing.support import field


def table(places, label=""):
    return TableResult(seats=tuple(places), places=places, label=label)


def test_default_points_per_place_by_table_size():
    assert default_points(2) == (1.0, 0.0)
    assert default_points(4) == (3.0, 2.0, 1.0, 0.0)
    assert default_points(7) == (6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0)


def test_shared_places_share_the_average_of_their_points():
    assert place_points(table({"a": 1, "b": 2, "c": 2, "d": 4}), Scoring()) == {
        "a": 3.0,
        "b": 1.5,
        "c": 1.5,
        "d": 0.0,
    }
    assert place_points(table({"a": 1, "b": 1, "c": 1}), Scoring()) == {"a": 1.0, "b": 1.0, "c": 1.0}
    assert place_points(table({"a": 1, "b": 1}), Scoring()) == {"a": 0.5, "b": 0.5}


def test_only_the_order_of_places_matters():
    dense = place_points(table({"a": 1, "b": 2, "c": 2, "d": 3}), Scoring())
    assert dense == {"a": 3.0, "b": 1.5, "c": 1.5, "d": 0.0}


def test_configured_points_per_place():
    scoring = Scoring(points_by_size={4: (5.0, 3.0, 1.0, 0.0), 2: (3.0, 0.0)})
    assert place_points(table({"a": 2, "b": 1, "c": 3, "d": 3}), scoring) == {
        "a": 3.0,
        "b": 5.0,
        "c": 0.5,
        "d": 0.5,
    }
    assert place_points(table({"a": 1, "b": 1}), scoring) == {"a": 1.5, "b": 1.5}
    assert scoring.bye_points(4) == 5.0
    assert scoring.points(3) == (2.0, 1.0, 0.0)


def test_bad_place_points_are_refused_with_a_message():
    with pytest.raises(PairingError, match="a table of 3 needs 3 place points, got 2"):
        Scoring(points_by_size={3: (2.0, 1.0)})
    with pytest.raises(PairingError, match="must not increase"):
        Scoring(points_by_size={2: (0.0, 1.0)})


def test_places_must_name_every_seated_player():
    with pytest.raises(PairingError, match="must name each seated player once"):
        place_points(TableResult(seats=("a", "b"), places={"a": 1}), Scoring())


def test_standings_apply_the_tie_breaks_in_order():
    seeds = {"ann": 1, "bob": 2, "cat": 3, "dan": 4, "eve": 5}
    rounds = [
        PlayedRound(tables=(table({"ann": 1, "bob": 2}), table({"cat": 1, "dan": 2})), byes=("eve",)),
        PlayedRound(tables=(table({"eve": 1, "ann": 2}), table({"bob": 1, "cat": 2})), byes=("dan",)),
        PlayedRound(tables=(table({"dan": 1, "eve": 2}), table({"ann": 1, "cat": 1})), byes=("bob",)),
    ]
    standings = compute_standings(seeds, rounds)
    # dan and eve tie on points, opponents' points and wins; dan beat eve. ann and cat drew: seed decides.
    assert [
        (line.id, line.points, line.opponents_points, line.wins, line.head_to_head) for line in standings
    ] == [
        ("dan", 2.0, 3.5, 2, 1),
        ("eve", 2.0, 3.5, 2, -1),
        ("bob", 2.0, 3.0, 2, 0),
        ("ann", 1.5, 5.5, 1, 0),
        ("cat", 1.5, 5.5, 1, 0),
    ]
    assert [line.rank for line in standings] == [1, 2, 3, 4, 5]
    assert [(line.played, line.byes) for line in standings] == [(2, 1), (2, 1), (2, 1), (3, 0), (3, 0)]


def test_head_to_head_separates_players_tied_on_the_earlier_tie_breaks():
    seeds = {"a": 1, "b": 2, "c": 3, "d": 4}
    rounds = [
        PlayedRound(tables=(table({"b": 1, "a": 2}), table({"c": 1, "d": 2}))),
        PlayedRound(tables=(table({"a": 1, "d": 2}), table({"c": 1, "b": 2}))),
    ]
    order = ["points", "head_to_head", "seed"]
    standings = compute_standings(seeds, rounds, tiebreaks=order)
    assert [(line.id, line.points, line.head_to_head) for line in standings] == [
        ("c", 2.0, 0),
        ("b", 1.0, 1),
        ("a", 1.0, -1),
        ("d", 0.0, 0),
    ]
    by_seed = compute_standings(seeds, rounds, tiebreaks=["points", "seed"])
    assert [line.id for line in by_seed] == ["c", "a", "b", "d"]


def test_an_unknown_tie_break_is_refused():
    with pytest.raises(PairingError, match="unknown tie-break 'luck'"):
        compute_standings({"a": 1}, [], tiebreaks=["points", "luck"])


def test_a_late_entry_starts_with_zero_points():
    seeds = {"a": 1, "b": 2, "late": 3}
    rounds = [PlayedRound(tables=(table({"a": 1, "b": 2}),))]
    entrants = {entrant.id: entrant for entrant in entrants_from_history(seeds, rounds)}
    assert entrants["late"] == Entrant(id="late", seed=3, score=0.0, standing=3)
    assert entrants["a"].opponents == ("b",)
    assert entrants["a"].seat_history == (0,)
    assert entrants["b"].seat_history == (1,)


def test_a_bye_scores_as_a_win_at_the_preferred_table_size():
    rounds = [PlayedRound(tables=(table({"a": 1, "b": 2, "c": 3, "d": 4}),), byes=("e",))]
    standings = {
        line.id: line
        for line in compute_standings({"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}, rounds, bye_table_size=4)
    }
    assert standings["e"].points == 3.0
    assert standings["e"].wins == 1


def test_the_seam_refuses_unknown_formats_and_bad_rounds():
    with pytest.raises(PairingError, match="unknown format 'ladder'"):
        generate_round("ladder", RoundInputs(entrants=field(4), round_number=1))
    with pytest.raises(PairingError, match="rounds are numbered from 1"):
        generate_round("swiss", RoundInputs(entrants=field(4), round_number=0))
    with pytest.raises(PairingError, match="a stage sequence needs its plan"):
        generate_round("stages", RoundInputs(entrants=field(4), round_number=1))
    with pytest.raises(PairingError, match="every entrant needs a distinct seed"):
        generate_round(
            "swiss", RoundInputs(entrants=[Entrant(id="a", seed=1), Entrant(id="b", seed=1)], round_number=1)
        )
