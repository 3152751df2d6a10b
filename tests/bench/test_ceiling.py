"""bench/studies/ceiling.py: the search that sees every hidden card, kept out of the registry."""

from __future__ import annotations

import random

import pytest

from bench.studies import ceiling
from games import registry
from games.core.errors import UnknownBot


def position(game_id: str, players: int = 4, seed: int = 3, decisions: int = 6):
    """A state a few random decisions into a game."""
    game = registry.get_game(game_id)
    state = game.start(players, None, seed)
    rng = random.Random(seed)
    while decisions and not state.is_terminal():
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
            continue
        state.apply({s: rng.choice(state.legal_actions(s)) for s in state.deciders()})
        decisions -= 1
    while state.is_chance():
        state.apply_chance(state.sample_chance(rng))
    return game, state


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_no_league_or_arena_can_seat_the_ceiling_bot(game_id):
    assert ceiling.CEILING not in registry.bots_for(game_id)
    with pytest.raises(UnknownBot):
        registry.bot_class(ceiling.CEILING, game_id)


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_the_ceiling_bot_searches_the_true_state_not_a_deal(game_id):
    game, state = position(game_id)
    seer = ceiling.SeeingGame(game, state)
    seat = state.deciders()[0]
    copy = seer.sample_state(state.observation(seat), random.Random(1))
    assert copy is not state
    # every seat's view of the copy is that seat's view of the true state: every hidden card is the same
    assert [copy.observation(s) for s in range(4)] == [state.observation(s) for s in range(4)]


def test_a_ceiling_series_is_the_same_for_a_seed_with_any_jobs():
    args = ("nacho_pile", 4, 8, 11, {"iterations": 20})
    one = ceiling.ceiling_series(*args, jobs=1)
    two = ceiling.ceiling_series(*args, jobs=2)
    assert one.lines[ceiling.CEILING].seat_games == 8
    assert one.lines["heuristic"].seat_games == 24
    for name in (ceiling.CEILING, "heuristic"):
        a, b = one.lines[name], two.lines[name]
        assert (a.wins, a.place_total, a.score_total, a.decisions) == (
            b.wins,
            b.place_total,
            b.score_total,
            b.decisions,
        )


@pytest.mark.parametrize(
    "argv, message",
    [
        (["no_such_game"], "unknown game 'no_such_game'"),
        (["nacho_pile", "--params", "iterations=lots"], "expected a whole number, got 'lots'"),
        (["nacho_pile", "--params", "iterations"], "parameter 'iterations' is not key=value"),
        (["nacho_pile", "--opponent", "nobody"], "nobody"),
        (["nacho_pile", "--games", "0"], "--games and --jobs must be at least 1"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(argv, message, capsys):
    assert ceiling.main(argv) == 2
    assert message in capsys.readouterr().err


def test_the_ceiling_bot_searches_with_the_games_tuned_defaults():
    from games.bots.search import TUNED

    for game_id, tuned in TUNED.items():
        made = ceiling.ceiling_class(game_id)
        assert made.name == "ceiling"
        assert {k: made.validate_params({})[k] for k in tuned} == tuned
