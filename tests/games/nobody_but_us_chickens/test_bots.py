"""The heuristic bot of Nobody but Us Chickens: strength against random, mixing, takes."""

import random

from games.core.arena import play_series
from games.nobody_but_us_chickens import GAME
from games.nobody_but_us_chickens.bots import HeuristicBot
from games.nobody_but_us_chickens.rules import NobodyButUsChickensState


def heuristic(seed, **params):
    return HeuristicBot(GAME, 0, 4, GAME.spec.validate_options(), params, random.Random(seed))


def test_heuristic_beats_random_at_four_seats():
    result = play_series(
        "nobody_but_us_chickens", ["heuristic", "random", "random", "random"], 4, games=200, seed=11
    )
    line = result.lines["heuristic"]
    assert line.seat_games == 200
    assert line.wins_low > 1 / 4
    assert line.mean_score > result.lines["random"].mean_score


def test_heuristic_mixes_its_picks_but_repeats_itself_for_a_seed():
    state = GAME.start(4)
    observation = state.observation(0)
    legal = state.legal_actions(0)
    picks = [heuristic(seed).act(observation, legal) for seed in range(30)]
    assert len(set(picks)) >= 4
    assert [heuristic(seed).act(observation, legal) for seed in range(30)] == picks


def test_heuristic_takes_the_most_valuable_chicken():
    hand = ["healthy", "healthy", "plump", "fox", "rat", "dog"]
    state = NobodyButUsChickensState.position(4, hour=3, hands=[hand] * 4, coop=["sickly", "prize"])
    state.apply(dict(enumerate(["rat", "healthy", "plump", "rat"])))
    assert state.deciders() == (0,)
    assert heuristic(0).act(state.observation(0), state.legal_actions(0)) == "take_prize"
    state.apply({0: "take_prize"})
    assert heuristic(0).act(state.observation(3), state.legal_actions(3)) == "take_plump"


def test_heuristic_sends_its_dog_when_predators_are_likely_and_the_coop_is_rich():
    hand = ["healthy", "healthy", "plump", "fox", "rat", "dog"]
    state = NobodyButUsChickensState.position(4, hour=3, hands=[hand] * 4, coop=["prize", "prize", "plump"])
    values = heuristic(5, playouts=200).card_values(state.observation(0), [0, 2, 4, 5, 6])
    assert max(values, key=values.get) == 6  # the Guard Dog
