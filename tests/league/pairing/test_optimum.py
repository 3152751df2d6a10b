"""The optimiser reaches the documented cost order's optimum: exactly up to 14 players, and elsewhere no
single swap and no 3-way move lowers a draft's cost (docs/tournaments.md, "The pairing cost")."""

from __future__ import annotations

import pytest

from league.pairing import Entrant, PlayedRound, TableResult, swiss_round
from league.pairing.scoring import entrants_from_history
from league.pairing.search import local_search
from league.pairing.types import PlayerId
from tests.league.pairing.histories import (
    PAIRS,
    PODS,
    better_cycle,
    better_swap,
    inputs_of,
    next_round,
    optimum,
    scoring_for,
)

# (players, table spec, rounds played, seed, players dropping after round 1)
LOCAL_OPTIMA = [
    (64, PODS, 2, 1, 0),  # 16 full tables
    (64, PODS, 3, 2, 3),  # 61 players: 13 tables of 4, 3 short tables of 3
    (45, PODS, 2, 3, 2),  # 43 players: 10 tables of 4, one of 3
    (23, PODS, 3, 4, 1),  # 22 players: 4 tables of 4, 2 of 3
    (64, PAIRS, 3, 5, 0),
    (63, PAIRS, 2, 6, 0),  # a bye
    (40, PAIRS, 3, 7, 3),  # 37 players: a bye
]


@pytest.mark.parametrize(("players", "spec", "played", "seed", "drops"), LOCAL_OPTIMA)
def test_no_swap_and_no_three_way_move_lowers_the_drafts_cost(players, spec, played, seed, drops):
    upcoming = next_round(players, spec, played, seed, drops)
    draft = swiss_round(upcoming.entrants, spec)
    tables = upcoming.tables(draft)
    assert better_swap(upcoming.model, tables) is None
    assert better_cycle(upcoming.model, tables) is None
    assert len(draft.byes) == (players - drops) % 2 if spec is PAIRS else draft.byes == ()


EXACT = [
    (14, PODS, 1, 11, 0),  # 4, 4, 3, 3
    (14, PODS, 2, 12, 0),
    (14, PODS, 3, 13, 1),  # 13 players: 4, 3, 3, 3
    (13, PODS, 3, 14, 0),
    (12, PODS, 3, 15, 2),  # 10 players: 4, 3, 3
    (14, PAIRS, 3, 16, 0),
    (13, PAIRS, 3, 17, 0),  # a bye
    (14, PAIRS, 3, 18, 1),  # 13 players: a bye
]


@pytest.mark.parametrize(("players", "spec", "played", "seed", "drops"), EXACT)
def test_up_to_fourteen_players_the_draft_is_the_exact_optimum(players, spec, played, seed, drops):
    upcoming = next_round(players, spec, played, seed, drops)
    draft = swiss_round(upcoming.entrants, spec)
    sizes = [len(table.seats) for table in draft.tables]
    assert upcoming.cost(draft) == optimum(upcoming.model, sizes)


# The 24-player Chicken Foot event of issue 47 in shape: pods of 4 with scaled points (3, 2, 1, 0; a short
# table's places scaled to a table of 4), p19 dropping after round 1, so 23 players at round 3: five tables
# of 4 and one of 3. Each table lists its players in seat order with their places.
CHICKEN_FOOT_ROUNDS: tuple[tuple[dict[PlayerId, int], ...], ...] = (
    (
        {"p1": 4, "p7": 1, "p13": 2, "p19": 3},
        {"p2": 1, "p8": 4, "p14": 3, "p20": 2},
        {"p3": 2, "p9": 4, "p15": 3, "p21": 1},
        {"p4": 1, "p10": 4, "p16": 2, "p22": 3},
        {"p5": 1, "p11": 2, "p17": 4, "p23": 3},
        {"p6": 4, "p12": 2, "p18": 1, "p24": 3},
    ),
    (
        {"p7": 2, "p2": 3, "p4": 1, "p5": 4},
        {"p18": 3, "p21": 4, "p20": 1, "p13": 1},
        {"p11": 1, "p3": 4, "p12": 3, "p16": 2},
        {"p14": 1, "p22": 4, "p23": 2, "p15": 3},
        {"p24": 1, "p1": 2, "p9": 4, "p17": 3},
        {"p8": 2, "p6": 3, "p10": 1},
    ),
)


def chicken_foot_round_3() -> list[Entrant]:
    rounds = [
        PlayedRound(tables=tuple(TableResult(seats=tuple(places), places=places) for places in tables))
        for tables in CHICKEN_FOOT_ROUNDS
    ]
    seeds: dict[PlayerId, int] = {f"p{number}": number for number in range(1, 25)}
    entrants = entrants_from_history(seeds, rounds, scoring_for(PODS), bye_table_size=4)
    return [entrant for entrant in entrants if entrant.id != "p19"]


def test_the_24_player_chicken_foot_round_3_reaches_a_lower_cost_than_swaps_alone():
    entrants = chicken_foot_round_3()
    score = {entrant.id: entrant.score for entrant in entrants}
    upcoming = inputs_of(entrants, PODS)
    draft = swiss_round(entrants, PODS)

    # swaps alone from the reference stop at a local optimum: repeats 0, short 3, score 13.0625
    swapped = [list(members) for members in upcoming.reference]
    local_search(upcoming.model, swapped)
    old = sum(upcoming.model.table(members) for members in swapped)
    assert upcoming.model.unpack(old)[:3] == (0, 3.0, 13.0625)
    assert draft.quality.cost[:3] == (0, 1.0, 9.229166666666666)
    assert upcoming.cost(draft) < old

    # that local optimum seats a player on 3 at the short table while a player on 1 plays at a full one
    assert max(score[upcoming.entrant_at(member)] for member in swapped[-1]) == 3.0
    # the draft: the leader (6) plays players on 4 to 5, the short table takes the three lowest scores
    assert [sorted(score[player] for player in table.seats) for table in draft.tables] == [
        [4.0, 4.5, 5.0, 6.0],
        [4.0, 4.0, 4.5, 5.0],
        [2.0, 3.0, 4.0, 4.0],
        [2.0, 3.0, 3.0, 3.0],
        [1.0, 1.5, 2.0, 3.0],
        [0.0, 0.0, 1.0],
    ]
    assert draft.quality.max_score_spread == 2.0
    assert draft.quality.repeat_pairs == 0


def test_restarts_give_the_same_round_every_time():
    entrants = chicken_foot_round_3()
    first = swiss_round(entrants, PODS)
    again = swiss_round(list(reversed(entrants)), PODS)
    assert [table.seats for table in again.tables] == [table.seats for table in first.tables]
