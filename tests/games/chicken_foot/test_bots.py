"""Chicken Foot bots: strength at four seats (seeded series, rotated seats) and the choices they make."""

import random

from games.chicken_foot import GAME
from games.chicken_foot.bots import GreedyBot, HeuristicBot
from games.core.arena import play_series
from tests.games.chicken_foot.test_rules import D6, full_spinner


def bot(cls):
    return cls(GAME, 0, 2, GAME.spec.validate_options(D6), None, random.Random(0))


def test_greedy_beats_random_at_four_seats():
    result = play_series("chicken_foot", ["greedy", "random", "random", "random"], 4, games=100, seed=3)
    line = result.lines["greedy"]
    assert line.seat_games == 100
    assert line.wins_low > 1 / 4
    assert line.mean_score < result.lines["random"].mean_score


def test_heuristic_beats_greedy_at_four_seats():
    result = play_series("chicken_foot", ["heuristic", "greedy", "greedy", "greedy"], 4, games=300, seed=5)
    line = result.lines["heuristic"]
    assert line.seat_games == 300
    assert line.wins_low > 1 / 4
    assert line.mean_score < result.lines["greedy"].mean_score


def test_greedy_plays_its_heaviest_bone():
    state = full_spinner([["1-0", "4-3", "0-0"], ["3-3", "2-0", "6-0"]])
    assert state.legal_actions(0) == ["1-0@4-1", "4-3@6-4"]
    assert bot(GreedyBot).act(state.observation(0), state.legal_actions(0)) == "4-3@6-4"


def test_greedy_plays_a_double_only_when_its_chickie_can_be_filled():
    # Three 4s are off the table (4-0, 4-2, 4-3): the 4-4 can be filled and is the heaviest.
    state = full_spinner([["4-4", "5-1", "0-0"], ["3-3", "2-0", "6-0"]])
    assert bot(GreedyBot).act(state.observation(0), state.legal_actions(0)) == "4-4@6-4"
    # Only 5-0 and 5-1 show a 5 off the table: the 5-5 cannot be filled, so the lighter 2-1 goes first.
    state = full_spinner([["5-5", "2-1", "0-0"], ["3-3", "2-0", "6-0"]])
    assert state.legal_actions(0) == ["2-1@4-1", "5-5@5-3", "5-5@5-2"]
    assert bot(GreedyBot).act(state.observation(0), state.legal_actions(0)) == "2-1@4-1"


def test_heuristic_opens_a_number_the_next_player_showed_it_lacks():
    hand = ["5-1", "4-3", "1-0"]
    # Seat 1 drew and passed on 1, 4 and 5: a free 1 is safe, so 5-1 goes on a 5 and leaves a 1.
    state = full_spinner([hand, ["3-3", "2-0", "6-0"]], turn=1)
    state.apply_chance("3-0")
    assert state.legal_actions(0) == ["1-0@4-1", "5-1@4-1", "4-3@6-4", "5-1@5-3", "5-1@5-2"]
    assert bot(HeuristicBot).act(state.observation(0), state.legal_actions(0)) == "5-1@5-3"
    # The same table without that pass: four 1s are unseen against one 5, so it leaves a 5 instead.
    state = full_spinner([hand, ["3-3", "2-0", "6-0", "3-0"]])
    assert bot(HeuristicBot).act(state.observation(0), state.legal_actions(0)) == "5-1@4-1"
    # Greedy sheds the heaviest bone either way.
    assert bot(GreedyBot).act(state.observation(0), state.legal_actions(0)) == "4-3@6-4"
