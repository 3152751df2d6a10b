"""Nobody but Us Chickens' search policy (`games.core.evaluator`): rollouts play random cards and take the
best Chicken, in one loop over the rules' own steps, and stop at dawn, when a night is scored."""

from __future__ import annotations

import random

from games.core.evaluator import Evaluator
from games.core.state import Action
from games.nobody_but_us_chickens.rules import (
    HEALTHY,
    KINDS_OF,
    OVER,
    PICK,
    PLUMP,
    PRIZE,
    SICKLY,
    TAKE,
    NobodyButUsChickensState,
)

PLAYOUT_TAKE_ORDER = {"take_prize": 0, "take_plump": 1, "take_healthy": 2, "take_sickly": 3}


class NobodyButUsChickensEvaluator(Evaluator[NobodyButUsChickensState]):
    def playout_action(
        self, state: NobodyButUsChickensState, seat: int, legal: list[Action], rng: random.Random
    ) -> Action:
        """A random card, but a take grabs the best Chicken (Prize, Plump, Healthy, Sickly)."""
        if state.phase == TAKE:
            return min(legal, key=PLAYOUT_TAKE_ORDER.__getitem__)
        return legal[int(rng.random() * len(legal))]

    def at_break(self, state: NobodyButUsChickensState) -> bool:
        """Dawn: a night is scored and the next has not begun."""
        return state.phase == PICK and state.hour == 0 and state.night > 0

    def playout(
        self, state: NobodyButUsChickensState, rng: random.Random, max_events: int = 0, to_break: bool = True
    ) -> int:
        """`Evaluator.playout` in one loop: the same draws from `rng`, the same state at the end. A pick draws
        each seat's card by kind index from its hand's table (the legal list's order), a take grabs the best
        Chicken as `playout_action` does; both go straight to the rules' `_reveal` and `_take`."""
        draw = rng.random
        kinds_of = KINDS_OF
        seats = state.all_seats
        steps = 0
        while state.phase != OVER and (max_events == 0 or steps < max_events):
            if to_break and steps and state.hour == 0 and state.phase == PICK and state.night > 0:
                break  # at_break: dawn
            if state.phase == PICK:
                hands = state.hands
                cards = []
                for seat in seats:
                    kinds = kinds_of[hands[seat]]
                    cards.append(kinds[0] if len(kinds) == 1 else kinds[int(draw() * len(kinds))])
                state.narrate_from = len(state.log)
                state._reveal(cards)
            else:
                coop = state.coop
                state.narrate_from = len(state.log) - 1
                state._take(
                    PRIZE if coop[PRIZE] else PLUMP if coop[PLUMP] else HEALTHY if coop[HEALTHY] else SICKLY
                )
                state._run_takes()
            steps += 1
        return steps


EVALUATOR = NobodyButUsChickensEvaluator()
