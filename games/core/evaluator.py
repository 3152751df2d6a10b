"""What a search needs of a game beyond its rules: how to play a position on fast and how to score it.

A state (`games.core.state.State`) holds the rules only. The search bot (`games.bots.search.SearchBot`) is
handed one `Evaluator` per game, the `EVALUATOR` of the game's `search` module (`registry.evaluator`): the
cheap move a rollout plays, where a rollout may stop, and what a position is worth there. This class is the
generic one (uniform random rollouts to the end, scored by the outcome); a game's evaluator overrides what it
knows better. Its methods are called on states a search bot dealt itself (from its own observation, through
the sampler), so they may read the whole state they are given.
"""

from __future__ import annotations

import random
from typing import Generic, TypeVar

from games.core.state import Action, Outcome, State

S = TypeVar("S", bound=State)


class Evaluator(Generic[S]):
    """The generic search policy for states of type `S`: a game's own `search` module subclasses it for its
    state class (`Evaluator[NachoPileState]`) and overrides what it knows better."""

    def playout_action(self, state: S, seat: int, legal: list[Action], rng: random.Random) -> Action:
        """A fast move for rollouts: uniform random (one draw from `rng`) unless the game knows a better
        cheap rule."""
        return legal[int(rng.random() * len(legal))]

    def at_break(self, state: S) -> bool:
        """Whether `state` is a natural point to stop looking ahead and score the position (e.g. between two
        rounds). The generic evaluator knows none."""
        return False

    def playout(self, state: S, rng: random.Random, max_events: int = 0, to_break: bool = True) -> int:
        """Play `state` on in place as a rollout does, and return the number of events applied.

        Each decision takes the single legal action of a seat that has one and asks `playout_action(state,
        seat, legal, rng)` otherwise; each chance event applies `state.sample_chance(rng)`. It stops at the
        end, after `max_events` events (0: no limit), or with `to_break` at the first `at_break(state)`
        after at least one event. A game may override it with a faster loop that draws the same numbers
        from `rng` and reaches the same state (tests/games/test_conformance.py compares them)."""
        steps = 0
        at_break, playout_action = self.at_break, self.playout_action
        while not state.is_terminal() and (max_events == 0 or steps < max_events):
            if to_break and steps and at_break(state):
                break
            if state.is_chance():
                state._apply_chance(state.sample_chance(rng))
            else:
                actions = {}
                for seat in state.deciders():
                    legal = state.legal_actions(seat)
                    actions[seat] = legal[0] if len(legal) == 1 else playout_action(state, seat, legal, rng)
                state._apply(actions)
            steps += 1
        return steps

    def evaluation(self, state: S) -> Outcome:
        """The outcome a position is scored by where a rollout stops: `state.outcome()` unless the game knows
        a better estimate (e.g. counting the bones still in hand as if the round ended now)."""
        return state.outcome()

    def evaluation_mix(self, state: S) -> list[tuple[float, Outcome]] | None:
        """Where one outcome is a poor estimate, the outcomes a position is scored by, with their
        probabilities (summing to 1): the reward is the weighted mean of theirs. None (the default) means
        `evaluation(state)` alone. Each outcome's `scores` are counts where more is better (whatever the
        game's `score_order`), so a search may also weigh each seat's margin in them."""
        return None
