"""The search bot mixes at simultaneous steps, so that it cannot be read."""

import random
from collections import Counter

from games import registry
from games.bots.search import SearchBot
from games.nobody_but_us_chickens.rules import NobodyButUsChickensState


def guessing_position():
    """The last two hours of a two-player game, level on points, a Prize Chicken in the coop.

    Seat 0 holds a Fox and a Healthy Chicken; seat 1 a Guard Dog and a Plump Chicken. Whoever guesses right
    wins: the Fox now against the Chicken takes 6 points, against the Dog gives the Dog 4; holding the Fox
    back sends it next hour against the Dog (seat 1 takes 7) or against the Chicken (seat 0 takes 7). Matching
    pennies: the right answer is a mix.
    """
    return NobodyButUsChickensState.position(
        2,
        {"allow_two_players": True},
        night=1,
        hour=7,
        hands=[["healthy", "fox"], ["plump", "dog"]],
        coop=["prize"],
        night_scores=[[5, 5]],
    )


def test_the_position_is_a_guessing_game():
    game = registry.get_game("nobody_but_us_chickens")
    results = {}
    for mine in ("fox", "healthy"):
        for theirs in ("dog", "plump"):
            state = guessing_position()
            state.apply({0: mine, 1: theirs})
            assert state.is_terminal()
            results[mine, theirs] = state.outcome().places
    assert results == {
        ("fox", "dog"): (2, 1),
        ("fox", "plump"): (1, 2),
        ("healthy", "dog"): (1, 2),
        ("healthy", "plump"): (2, 1),
    }
    assert game.spec.id == "nobody_but_us_chickens"


def test_both_sides_of_the_guess_are_each_taken_between_30_and_70_percent_of_200_seeds():
    game = registry.get_game("nobody_but_us_chickens")
    state = guessing_position()
    for seat, choices in ((0, ("fox", "healthy")), (1, ("dog", "plump"))):
        observation = state.observation(seat)
        legal = state.legal_actions(seat)
        counts = Counter(
            SearchBot(game, seat, 2, state.options, {"iterations": 200}, random.Random(seed)).act(
                observation, legal
            )
            for seed in range(200)
        )
        assert set(counts) == set(choices)
        for choice in choices:
            assert 60 <= counts[choice] <= 140, counts


def test_the_tuned_default_bot_of_the_game_mixes_too():
    """The registry's search bot for this game (its tuned defaults, e.g. a sharpened average strategy) still
    takes each side of the guess between 30% and 70% of 200 seeds."""
    game = registry.get_game("nobody_but_us_chickens")
    cls = registry.bot_class("search", game.spec.id)
    state = guessing_position()
    for seat, choices in ((0, ("fox", "healthy")), (1, ("dog", "plump"))):
        observation = state.observation(seat)
        legal = state.legal_actions(seat)
        counts = Counter(
            cls(game, seat, 2, state.options, None, random.Random(seed)).act(observation, legal)
            for seed in range(200)
        )
        assert set(counts) == set(choices)
        for choice in choices:
            assert 60 <= counts[choice] <= 140, counts
