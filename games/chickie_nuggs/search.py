"""Chickie Nuggs' search policy (`games.core.evaluator`): the generic one (uniform random rollouts to the end,
scored by the outcome; the game has no break between rounds), played through the rules' own fast playout."""

from __future__ import annotations

import random

from games.chickie_nuggs.rules import ChickieNuggsState
from games.core.evaluator import Evaluator


class ChickieNuggsEvaluator(Evaluator[ChickieNuggsState]):
    def playout(
        self, state: ChickieNuggsState, rng: random.Random, max_events: int = 0, to_break: bool = True
    ) -> int:
        """`Evaluator.playout` with uniform moves and no break: the rules' fast `playout`."""
        return state.playout(rng, max_events)


EVALUATOR = ChickieNuggsEvaluator()
