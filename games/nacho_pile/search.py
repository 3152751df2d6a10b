"""Nacho Pile's search policy (`games.core.evaluator`): rollouts uniformly at random through the rules' own
fast playout, and a position short of the end scored by what each possible last chip would decide."""

from __future__ import annotations

import random

from games.core.evaluator import Evaluator
from games.core.state import Outcome, places_from_keys
from games.nacho_pile.rules import FRONT_STRIDE, PHASE_OVER, PLATE_STRIDE, WILD, NachoPileState


class NachoPileEvaluator(Evaluator[NachoPileState]):
    """Nacho Pile has no break between rounds and no better cheap move than a random one."""

    def playout(
        self, state: NachoPileState, rng: random.Random, max_events: int = 0, to_break: bool = True
    ) -> int:
        """`Evaluator.playout` with uniform moves and no break: the rules' fast `playout`."""
        return state.playout(rng, max_events)

    def evaluation_mix(self, state: NachoPileState) -> list[tuple[float, Outcome]] | None:
        """Short of the end, what each possible last chip would decide now, weighed by its chips in the bag.

        Any chip in the bag may be the last one: a number's chips decide by that number's count (plate and
        front), a Wild's or a Special's by chips in total. Searches that stop short of the end score a
        position by this mix instead of by chips in total alone."""
        if state.phase == PHASE_OVER:
            return None
        bag = state.bag
        in_bag = sum(bag)
        if not in_bag:
            return None
        n = state.num_players
        plate, front = state.plate, state.front
        totals = [state.chips_in_total(seat) for seat in range(n)]
        mix = []
        for value in range(7):
            count = bag[value]
            if count:
                scores = tuple(
                    plate[seat * PLATE_STRIDE + value]
                    + plate[seat * PLATE_STRIDE + 7 + value]
                    + front[seat * FRONT_STRIDE + value]
                    + front[seat * FRONT_STRIDE + 7 + value]
                    for seat in range(n)
                )
                places = places_from_keys(list(zip(scores, totals, strict=True)))
                mix.append((count / in_bag, Outcome(places=places, scores=scores)))
        others = in_bag - sum(bag[:WILD])
        if others:
            scores = tuple(totals)
            places = places_from_keys(list(zip(scores, totals, strict=True)))
            mix.append((others / in_bag, Outcome(places=places, scores=scores)))
        return mix


EVALUATOR = NachoPileEvaluator()
