"""The fitted win chances and the look-ahead over the rest of a turn (games.nacho_pile.value, .lookahead)."""

import random

import pytest

from games.nacho_pile import GAME, NachoPileState
from games.nacho_pile.bots import HeuristicBot
from games.nacho_pile.lookahead import best_action
from games.nacho_pile.value import NUMBER_WEIGHTS, OTHER_WEIGHTS, seat_features, softmax, with_stage, win_chances
from tests.games.nacho_pile import short_of_the_end


def reference_chances(state):
    """The fit's arithmetic (bench/np_value_fit.py's model_chances) on the state's counts, the slow way."""
    n = state.num_players
    plates = [[state.plate[s * 17 + v] + state.plate[s * 17 + 7 + v] for v in range(7)] for s in range(n)]
    fronts = [[state.front[s * 14 + v] + state.front[s * 14 + 7 + v] for v in range(7)] for s in range(n)]
    specials = [sum(state.plate[s * 17 + 14 : s * 17 + 17]) for s in range(n)]
    number_rows, other_rows, stage = seat_features(plates, fronts, specials, state.current, state.bag)
    total = sum(state.bag)
    out = [0.0] * n
    for value in range(7):
        if state.bag[value]:
            z = [sum(a * b for a, b in zip(NUMBER_WEIGHTS, with_stage(r, stage))) for r in number_rows[value]]
            for seat, p in enumerate(softmax(z)):
                out[seat] += state.bag[value] / total * p
    others = total - sum(state.bag[:7])
    if others:
        z = [sum(a * b for a, b in zip(OTHER_WEIGHTS, with_stage(r, stage))) for r in other_rows]
        for seat, p in enumerate(softmax(z)):
            out[seat] += others / total * p
    return out


def test_the_fitted_chances_follow_the_fit_and_sum_to_one():
    state = short_of_the_end()
    chances = win_chances(state)
    assert chances == pytest.approx(reference_chances(state), abs=1e-12)
    assert sum(chances) == pytest.approx(1.0)
    # Seat 1 leads the 5s (half the bag) and chips in total; seat 0 the 3s (a quarter); seat 2 has nothing.
    assert chances[1] > chances[0] > chances[2]


def test_the_fitted_chances_are_the_fits_on_positions_of_real_games():
    rng = random.Random(3)
    state = GAME.start(4, None, 3)
    bots = [HeuristicBot(GAME, s, 4, state.options, None, rng) for s in range(4)]
    checked = 0
    while not state.is_terminal():
        if state.is_chance():
            if checked < 40:
                assert win_chances(state) == pytest.approx(reference_chances(state), abs=1e-12)
                checked += 1
            state.apply_chance(state.sample_chance(rng))
            continue
        seat = state.current
        state.apply({seat: bots[seat].act_in_state(state, seat, state.legal_actions(seat))})
    assert checked == 40
    assert win_chances(state) is None and state.win_chances() is None


def lookahead(state, depth=3):
    bot = HeuristicBot(GAME, state.current, state.num_players, state.options, None, random.Random(0))
    return best_action(state, state.current, state.legal_actions(state.current), bot, depth)


def test_the_lookahead_stops_when_a_bust_is_likely_and_draws_a_free_chip():
    assert lookahead(NachoPileState.position(4, drawn=[1, 2, 3, 4, 5, 6])) == "stop"
    assert lookahead(NachoPileState.position(4, drawn=[1])) == "draw"
    # The same answer at any depth from 1 on where one more draw decides it; the state is not changed.
    state = NachoPileState.position(4, drawn=[1, 2, 3, 4, 5, 6])
    before = state.observation(0)
    assert lookahead(state, 1) == "stop"
    assert state.observation(0) == before


def test_the_lookahead_chooses_legal_wild_values_and_specials():
    wild = NachoPileState.position(4, drawn=[2, "W"], fronts={1: {5: 3}, 2: {6: 1}})
    wild.apply({0: "stop"})
    assert lookahead(wild) == 5  # the Wild takes the three 5s
    specials = NachoPileState.position(4, drawn=[3, "steal"], fronts={1: {5: 2}, 2: {6: 4}, 3: {1: 1}})
    specials.apply({0: "stop"})
    choice = lookahead(specials)
    assert choice in specials.legal_actions(0)
    assert choice == ["steal", 2, 6]
