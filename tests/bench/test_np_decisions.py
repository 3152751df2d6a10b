"""bench/studies/np_decisions.py: Nacho Pile's search seat split by decision, the heuristic elsewhere."""

from __future__ import annotations

import random

import pytest

from bench.studies import np_decisions
from games import registry
from games.core.runner import SeatPlayer, play_match
from games.nacho_pile.bots import HeuristicBot


def positions(kind: str, wanted: int = 12) -> list:
    """States of 4-seat heuristic games where seat `current` faces a draw or stop (`kind` "drawstop") or a
    Wild or a Special (`kind` "specials")."""
    game = registry.get_game("nacho_pile")
    found = []
    for seed in range(40):
        state = game.start(4, None, seed)
        rng = random.Random(seed)
        bots = [HeuristicBot(game, s, 4, state.options, None, random.Random(s)) for s in range(4)]
        while not state.is_terminal() and len(found) < wanted:
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
                continue
            seat = state.deciders()[0]
            legal = state.legal_actions(seat)
            if len(legal) > 1 and (legal == ["draw", "stop"]) == (kind == "drawstop"):
                found.append((state.clone(), seat, legal))
            state.apply({seat: bots[seat].act(state.observation(seat), legal)})
        if len(found) >= wanted:
            return found
    return found


@pytest.mark.parametrize("split, kind", [("specials", "drawstop"), ("drawstop", "specials")])
def test_the_decisions_the_split_leaves_out_are_the_heuristics(split, kind, monkeypatch):
    game = registry.get_game("nacho_pile")
    cls = np_decisions.split_bot(split, 0)
    monkeypatch.setattr(cls, "search", lambda self, observation: pytest.fail("the search was asked"))
    found = positions(kind)
    assert len(found) == 12
    for state, seat, legal in found:
        bot = cls(game, seat, 4, state.options, None, random.Random(5))
        heuristic = HeuristicBot(game, seat, 4, state.options, None, random.Random(5))
        observation = state.observation(seat)
        assert bot.act(observation, legal) == heuristic.act(observation, legal)


@pytest.mark.parametrize(
    "split, kind", [("specials", "specials"), ("drawstop", "drawstop"), ("both", "specials")]
)
def test_the_decisions_the_split_names_are_the_searchs(split, kind):
    game = registry.get_game("nacho_pile")
    cls = np_decisions.split_bot(split, 0)
    asked = []

    class Refusing:
        def act(self, observation, legal):
            pytest.fail("the split's heuristic was asked")

    for state, seat, legal in positions(kind, 3):
        bot = cls(game, seat, 4, state.options, {"iterations": 20}, random.Random(5))
        bot.heuristic = Refusing()
        action = bot.act(state.observation(seat), legal)
        assert action in legal
        asked.append(action)
    assert len(asked) == 3


def test_special_iterations_apply_to_wilds_and_specials_only(monkeypatch):
    game = registry.get_game("nacho_pile")
    cls = np_decisions.split_bot("both", 40)
    budgets = []

    def search(self, observation):
        budgets.append(self.config["iterations"])
        raise LookupError  # stop before choosing: only the budget is under test

    monkeypatch.setattr(cls, "search", search)
    for kind in ("specials", "drawstop"):
        state, seat, legal = positions(kind, 1)[0]
        bot = cls(game, seat, 4, state.options, {"iterations": 25}, random.Random(5))
        with pytest.raises(LookupError):
            bot.act(state.observation(seat), legal)
        assert bot.config["iterations"] == 25  # restored after a Special's search
    assert budgets == [40, 25]


def test_split_both_plays_the_default_search():
    cls = np_decisions.split_bot("both", 0)

    def make(game, seat, num_players, options, rng):
        return cls(game, seat, num_players, options, None, rng)

    for seed in (3, 4):
        split = play_match(
            "nacho_pile", 4, [SeatPlayer("search", make=make), "heuristic", "heuristic", "heuristic"], seed
        )
        plain = play_match("nacho_pile", 4, ["search", "heuristic", "heuristic", "heuristic"], seed)
        assert split["events"] == plain["events"]
        assert split["outcome"] == plain["outcome"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--games", "0"], "--games must be at least 1"),
        (
            ["--special-iterations", "-1"],
            "--special-iterations: option iterations: -1 is below the minimum 1",
        ),
        (
            ["--special-iterations", "2000000"],
            "--special-iterations: option iterations: 2000000 is above the maximum",
        ),
    ],
)
def test_bad_arguments_exit_2_with_a_message(argv, message, capsys):
    assert np_decisions.main(argv) == 2
    assert message in capsys.readouterr().err


def test_an_unknown_split_is_refused_by_argparse(capsys):
    with pytest.raises(SystemExit) as exit_:
        np_decisions.main(["--split", "everything"])
    assert exit_.value.code == 2
    assert "invalid choice: 'everything'" in capsys.readouterr().err
