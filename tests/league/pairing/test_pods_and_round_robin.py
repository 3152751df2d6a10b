"""Multi-seat Swiss pods and round robins (2-seat circle method and multi-seat schedules)."""

from collections import Counter
from itertools import combinations

import pytest

from league.pairing import (
    Entrant,
    PairingError,
    RoundInputs,
    TableSpec,
    entrants_from_history,
    generate_round,
)
from tests.league.pairing.support import by_seed_results, field, pairs, seeds_of

FOUR_SEATS = TableSpec(preferred=4, minimum=3, maximum=4)
TWO_SEATS = TableSpec()


def pods(entrants, round_number=1, spec=FOUR_SEATS):
    return generate_round("swiss", RoundInputs(entrants=entrants, round_number=round_number, table=spec))


def round_robin(entrants, round_number, spec=TWO_SEATS, rounds=None):
    return generate_round(
        "round_robin", RoundInputs(entrants=entrants, round_number=round_number, table=spec, rounds=rounds)
    )


def test_thirteen_players_at_four_seat_pods_sit_at_tables_of_four_three_three_three():
    draft = pods(field(13, "q"))
    assert pairs(draft) == [
        ("q1", "q5", "q9", "q13"),
        ("q2", "q6", "q10"),
        ("q3", "q7", "q11"),
        ("q4", "q8", "q12"),
    ]
    assert draft.byes == ()
    assert draft.quality.tables == 4


def test_pods_put_short_tables_at_the_bottom_and_avoid_repeats():
    seeds = seeds_of(13, "q")
    played = []
    drafts = []
    for round_number in range(1, 4):
        entrants = entrants_from_history(seeds, played, bye_table_size=4)
        drafts.append(pods(entrants, round_number))
        played.append(by_seed_results(drafts[-1]))
    # after round 1 (places by seed) the scores are q1 3; q2-q5 2; q6-q9 1; q10-q13 0
    assert [sorted(table, key=lambda player: int(player[1:])) for table in pairs(drafts[1])] == [
        ["q1", "q2", "q3", "q4"],
        ["q5", "q6", "q7"],
        ["q8", "q9", "q10"],
        ["q11", "q12", "q13"],
    ]
    assert [draft.quality.repeat_pairs for draft in drafts] == [0, 0, 0]
    met = Counter(
        frozenset(pair) for draft in drafts for table in pairs(draft) for pair in combinations(table, 2)
    )
    assert max(met.values()) == 1
    # round 3: the leader (6 points) still plays at the full table; q5 met q1 in round 1 so sits short
    assert set(pairs(drafts[2])[0]) == {"q1", "q6", "q8", "q11"}


def test_pod_seats_rotate_to_unused_seats_unless_scores_say_otherwise():
    seeds = seeds_of(16)
    played = []
    drafts = []
    for round_number in range(1, 4):
        entrants = entrants_from_history(seeds, played, bye_table_size=4)
        drafts.append(pods(entrants, round_number))
        played.append(by_seed_results(drafts[-1]))
    # round 2 seats the four winners of round 1 together (score comes before seats): one of them starts again
    assert [draft.quality.seat_excess for draft in drafts] == [0, 4, 0]
    seats_used = {}
    for draft in drafts[:2]:
        for table in pairs(draft):
            for seat, player in enumerate(table):
                seats_used.setdefault(player, set()).add(seat)
    assert all(
        seat not in seats_used[player] for table in pairs(drafts[2]) for seat, player in enumerate(table)
    )


def test_pod_byes_only_when_no_table_can_be_formed():
    entrants = [Entrant(id=f"p{number}", seed=number, byes=1 if number == 5 else 0) for number in range(1, 6)]
    draft = pods(entrants, 2, TableSpec(preferred=4, minimum=4, maximum=4))
    assert draft.byes == ("p4",)
    assert pairs(draft) == [("p1", "p2", "p3", "p5")]
    assert pods(field(5), 1, TableSpec(preferred=4, minimum=3, maximum=5)).byes == ()


def test_pods_the_same_inputs_give_the_same_round_twice():
    seeds = seeds_of(41)
    played = []
    for round_number in range(1, 4):
        played.append(
            by_seed_results(pods(entrants_from_history(seeds, played, bye_table_size=4), round_number))
        )
    entrants = entrants_from_history(seeds, played, bye_table_size=4)
    assert pods(entrants, 4) == pods(list(reversed(entrants)), 4)


def test_two_seat_round_robin_of_six_is_the_circle_method():
    drafts = [round_robin(field(6), number) for number in range(1, 6)]
    assert pairs(drafts[0]) == [("p1", "p6"), ("p2", "p5"), ("p3", "p4")]
    assert pairs(drafts[1]) == [("p5", "p1"), ("p6", "p4"), ("p2", "p3")]
    met = Counter(frozenset(table) for draft in drafts for table in pairs(draft))
    assert len(met) == 15
    assert set(met.values()) == {1}
    starts = Counter(table[0] for draft in drafts for table in pairs(draft))
    assert sorted(starts.values()) == [2, 2, 2, 3, 3, 3]


def test_two_seat_round_robin_of_five_gives_everyone_one_bye():
    drafts = [round_robin(field(5), number) for number in range(1, 6)]
    assert sorted(player for draft in drafts for player in draft.byes) == ["p1", "p2", "p3", "p4", "p5"]
    met = Counter(frozenset(table) for draft in drafts for table in pairs(draft))
    assert len(met) == 10
    starts = Counter(table[0] for draft in drafts for table in pairs(draft))
    assert sorted(starts.values()) == [2, 2, 2, 2, 2]


def test_a_double_round_robin_swaps_seats_in_the_second_cycle():
    first = round_robin(field(4), 1, rounds=6)
    fourth = round_robin(field(4), 4, rounds=6)
    assert pairs(fourth) == [tuple(reversed(table)) for table in pairs(first)]


def test_a_round_past_the_schedule_is_refused():
    with pytest.raises(PairingError, match="this round robin has rounds 1 to 3, not 4"):
        round_robin(field(4), 4)


def test_sixteen_players_at_four_seats_meet_every_opponent_exactly_once_in_five_rounds():
    entrants = field(16)
    drafts = [round_robin(entrants, number, FOUR_SEATS) for number in range(1, 6)]
    met = Counter(
        frozenset(pair) for draft in drafts for table in pairs(draft) for pair in combinations(table, 2)
    )
    assert len(met) == 120
    assert set(met.values()) == {1}
    balance = drafts[-1].quality.schedule_balance
    assert (balance.min_meetings, balance.max_meetings, balance.pairs_never_met) == (1, 1, 0)
    assert drafts[0].quality.schedule_balance.pairs_never_met == 120 - 24


def test_twelve_players_at_four_seats_report_how_evenly_opponents_spread():
    entrants = field(12)
    drafts = [round_robin(entrants, number, FOUR_SEATS) for number in range(1, 5)]
    assert pairs(drafts[0]) == [
        ("p1", "p4", "p7", "p10"),
        ("p2", "p5", "p8", "p11"),
        ("p3", "p6", "p9", "p12"),
    ]
    balance = drafts[-1].quality.schedule_balance
    assert (balance.min_meetings, balance.max_meetings, balance.pairs_never_met) == (0, 2, 12)
    assert [round_robin(entrants, 3, FOUR_SEATS) for _ in range(2)] == [drafts[2], drafts[2]]
