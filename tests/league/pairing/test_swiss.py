"""2-seat Swiss pairings: score groups, rematch avoidance, byes, seat balance, reproducibility."""

import random
from collections import Counter

from league.pairing import (
    Entrant,
    PlayedRound,
    RoundInputs,
    TableResult,
    entrants_from_history,
    generate_round,
)
from tests.league.pairing.support import by_seed_results, field, pairs, seeds_of


def swiss(entrants, round_number=1):
    return generate_round("swiss", RoundInputs(entrants=entrants, round_number=round_number))


def test_first_round_is_the_dutch_fold_top_half_against_bottom_half():
    draft = swiss(field(8))
    assert pairs(draft) == [("p1", "p5"), ("p2", "p6"), ("p3", "p7"), ("p4", "p8")]
    assert draft.byes == ()
    assert draft.quality.repeat_pairs == 0


def test_nine_players_over_four_rounds():
    """Results follow the seeds; every round's pairing is the unique optimum of the documented cost."""
    seeds = seeds_of(9)
    played = []
    drafts = []
    for round_number in range(1, 5):
        draft = swiss(entrants_from_history(seeds, played), round_number)
        drafts.append(draft)
        played.append(by_seed_results(draft))
    assert [pairs(draft) for draft in drafts] == [
        [("p1", "p5"), ("p2", "p6"), ("p3", "p7"), ("p4", "p8")],
        [("p1", "p3"), ("p9", "p2"), ("p6", "p4"), ("p5", "p7")],
        [("p2", "p1"), ("p4", "p5"), ("p8", "p3"), ("p6", "p9")],
        [("p1", "p4"), ("p3", "p2"), ("p5", "p8"), ("p7", "p9")],
    ]
    assert [draft.byes for draft in drafts] == [("p9",), ("p8",), ("p7",), ("p6",)]
    met = Counter(frozenset(table) for draft in drafts for table in pairs(draft))
    assert max(met.values()) == 1
    assert [draft.quality.repeat_pairs for draft in drafts] == [0, 0, 0, 0]
    # round 2: the five 1-pointers (p1-p4 and p9 after its bye) cannot pair among themselves, one floats
    assert drafts[1].quality.max_score_spread == 1.0
    # seats: in rounds 2 and 4 some pairs had both players due to sit second, and score came first
    assert [draft.quality.seat_excess for draft in drafts] == [0, 2, 0, 1]
    starts = Counter(table[0] for draft in drafts for table in pairs(draft))
    assert dict(sorted(starts.items())) == {
        "p1": 3,
        "p2": 2,
        "p3": 2,
        "p4": 2,
        "p5": 2,
        "p6": 2,
        "p7": 1,
        "p8": 1,
        "p9": 1,
    }


def test_the_bye_goes_to_the_lowest_ranked_player_without_one():
    entrants = [
        Entrant(id="ann", seed=1, score=2),
        Entrant(id="bob", seed=2, score=1),
        Entrant(id="cat", seed=3, score=1, byes=1),
        Entrant(id="dan", seed=4, score=0, byes=1),
        Entrant(id="eve", seed=5, score=1),
    ]
    draft = swiss(entrants, 3)
    assert draft.byes == ("eve",)


def test_everyone_has_had_a_bye_so_the_lowest_ranked_gets_a_second():
    entrants = [Entrant(id=f"p{number}", seed=number, byes=1) for number in range(1, 4)]
    assert swiss(entrants, 4).byes == ("p3",)


def test_a_rematch_is_avoided_within_a_score_group():
    entrants = [
        Entrant(id="a", seed=1, score=1, opponents=("c",)),
        Entrant(id="b", seed=2, score=1, opponents=("d",)),
        Entrant(id="c", seed=3, score=1, opponents=("a",)),
        Entrant(id="d", seed=4, score=1, opponents=("b",)),
    ]
    draft = swiss(entrants, 2)
    assert pairs(draft) == [("a", "b"), ("c", "d")]
    assert draft.quality.repeat_pairs == 0


def test_a_rematch_is_avoided_even_at_the_cost_of_score_differences():
    entrants = [
        Entrant(id="a", seed=1, score=2, opponents=("b",)),
        Entrant(id="b", seed=2, score=2, opponents=("a",)),
        Entrant(id="c", seed=3, score=0),
        Entrant(id="d", seed=4, score=0),
    ]
    draft = swiss(entrants, 2)
    assert pairs(draft) == [("a", "c"), ("b", "d")]
    assert draft.quality.max_score_spread == 2.0


def test_an_unavoidable_rematch_is_made_and_reported():
    entrants = [
        Entrant(id="a", seed=1, score=1, opponents=("b",)),
        Entrant(id="b", seed=2, score=0, opponents=("a",)),
    ]
    draft = swiss(entrants, 2)
    assert pairs(draft) == [("a", "b")]
    assert draft.quality.repeat_pairs == 1
    assert draft.quality.cost[0] == 1


def test_seat_zero_goes_to_the_player_who_started_less():
    entrants = [
        Entrant(id="a", seed=1, score=1, opponents=("c",), seat_history=(0,)),
        Entrant(id="b", seed=2, score=1, opponents=("d",), seat_history=(1,)),
        Entrant(id="c", seed=3, score=0, opponents=("a",), seat_history=(1,)),
        Entrant(id="d", seed=4, score=0, opponents=("b",), seat_history=(0,)),
    ]
    draft = swiss(entrants, 2)
    assert pairs(draft) == [("b", "a"), ("c", "d")]
    assert draft.quality.seat_excess == 0


def play_random_swiss(players, rounds, seed):
    generator = random.Random(seed)
    seeds = seeds_of(players)
    played = []
    drafts = []
    for round_number in range(1, rounds + 1):
        draft = swiss(entrants_from_history(seeds, played), round_number)
        drafts.append(draft)
        tables = []
        for table in draft.tables:
            winner = generator.choice(table.seats)
            tables.append(
                TableResult(seats=table.seats, places={p: 1 if p == winner else 2 for p in table.seats})
            )
        played.append(PlayedRound(tables=tuple(tables), byes=draft.byes))
    return drafts


def test_forty_one_players_over_six_random_rounds_never_rematch_nor_repeat_a_bye():
    drafts = play_random_swiss(41, 6, seed=7)
    met = Counter(frozenset(table) for draft in drafts for table in pairs(draft))
    assert max(met.values()) == 1
    byes = [player for draft in drafts for player in draft.byes]
    assert len(byes) == 6
    assert len(set(byes)) == 6
    for draft in drafts:
        seated = [player for table in pairs(draft) for player in table]
        assert len(seated) == len(set(seated)) == 40


def test_the_same_inputs_give_the_same_round_twice():
    seeds = seeds_of(60)
    played = []
    generator = random.Random(3)
    for round_number in range(1, 4):
        draft = swiss(entrants_from_history(seeds, played), round_number)
        tables = []
        for table in draft.tables:
            order = list(table.seats)
            generator.shuffle(order)
            tables.append(
                TableResult(seats=table.seats, places={p: place for place, p in enumerate(order, 1)})
            )
        played.append(PlayedRound(tables=tuple(tables), byes=draft.byes))
    entrants = entrants_from_history(seeds, played)
    first = swiss(entrants, 4)
    second = swiss(list(entrants), 4)
    assert first == second
    assert first.quality.repeat_pairs == 0
