"""Chicken Foot's search policy (`games.core.evaluator`): rollouts play the heaviest bone, in one loop over
the rules' own steps, stop between two rounds, and score a position as if the round ended now."""

from __future__ import annotations

import random
from typing import Any

from games.chicken_foot.rules import DEAL, LEAD, OVER, TURN, ChickenFootState
from games.core.evaluator import Evaluator
from games.core.state import Outcome


class ChickenFootEvaluator(Evaluator[ChickenFootState]):
    def evaluation(self, state: ChickenFootState) -> Outcome:
        """The scores as if the round ended now, every seat counting the bones in its hand."""
        if state.phase != TURN and state.phase != LEAD:
            return state.outcome()
        scores = [score + state.hand_points(seat) for seat, score in enumerate(state.scores)]
        # places_from_keys(scores, higher_is_better=False): one more than the number of lower totals.
        ordered = sorted(scores)
        return Outcome(places=tuple([ordered.index(score) + 1 for score in scores]), scores=tuple(scores))

    def playout_action(self, state: ChickenFootState, seat: int, legal: list[Any], rng: random.Random) -> Any:
        """The heaviest bone (the greedy bot's rule without its chickie check), ties at random."""
        values = list(map(state.points.__getitem__, legal))
        top = max(values)
        if values.count(top) == 1:
            rng.random()  # the tie-break's draw, made even without a tie
            return legal[values.index(top)]
        best = [action for action, value in zip(legal, values, strict=True) if value == top]
        return best[int(rng.random() * len(best))]

    def at_break(self, state: ChickenFootState) -> bool:
        """Between two rounds: the scores so far are a fair picture of the game."""
        return state.phase == DEAL and bool(state.rounds)

    def playout(
        self, state: ChickenFootState, rng: random.Random, max_events: int = 0, to_break: bool = True
    ) -> int:
        """`Evaluator.playout` in one loop: the same draws from `rng`, the same state at the end (a decision
        is due exactly when it is a seat's turn with plays to choose from, and `legal` is never changed in
        place), with `playout_action` inlined."""
        steps = 0
        draw = rng.random
        points = state.points.__getitem__  # the same table for the whole game
        apply, apply_chance, sample_chance = state._apply, state._apply_chance, state.sample_chance
        while state.phase != OVER and (max_events == 0 or steps < max_events):
            if to_break and steps and state.phase == DEAL and state.rounds:  # at_break
                break
            legal = state.legal
            if state.phase == TURN and legal:
                if len(legal) == 1:
                    action = legal[0]
                else:  # `playout_action`
                    values = list(map(points, legal))
                    top = max(values)
                    if values.count(top) == 1:
                        draw()
                        action = legal[values.index(top)]
                    else:
                        best = [action for action, value in zip(legal, values, strict=True) if value == top]
                        action = best[int(draw() * len(best))]
                apply({state.turn: action})
            else:
                apply_chance(sample_chance(rng))
            steps += 1
        return steps


EVALUATOR = ChickenFootEvaluator()
