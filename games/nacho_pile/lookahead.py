"""An exact look-ahead over the rest of one's own turn in Nacho Pile (issue 19).

Nacho Pile hides nothing but the order of the bag, so the chances of every draw are known: the value of
drawing is the mean, over the chip kinds in the bag weighed by their counts, of what each draw leads to, and
the value of stopping is the position once the turn has passed. `best_action` works this out to `depth` more
draws (stopping at the horizon), scoring every turn's end by the fitted win chances of
`games.nacho_pile.value` (the position the next seat's turn starts from, the kind of position they were
fitted on), or by the win share where the game has ended. A turn that busts always ends in the same position
(every chip drawn goes back), so it is scored once. The Wild's value and the Specials, when they come up as
decisions, are chosen one at a time by the same score, with the heuristic bot finishing the rest of the turn;
inside the look-ahead the heuristic makes them.
"""

from __future__ import annotations

from typing import Any

from games.nacho_pile.rules import CHIP_LABELS, PHASE_CHANCE, PHASE_DRAW_OR_STOP
from games.nacho_pile.value import win_chances


def _score(state: Any, me: int) -> float:
    if state.is_terminal():
        places = state.outcome().places
        return 1 / places.count(1) if places[me] == 1 else 0.0
    chances = win_chances(state)
    return chances[me] if chances is not None else 0.0


def _finish(state: Any, me: int, bot: Any) -> Any:
    """Play `me`'s remaining decisions of this turn with `bot` (in place); return the state."""
    while not state.is_terminal() and not state.is_chance() and state.current == me:
        legal = state.legal_actions(me)
        if state.phase == PHASE_DRAW_OR_STOP:
            action = "stop"
        else:
            action = legal[0] if len(legal) == 1 else bot.act_in_state(state, me, legal)
        state._apply({me: action})
    return state


class TurnLookahead:
    """The look-ahead from one position of `me`'s turn (memoized by the set of chips drawn)."""

    def __init__(self, state: Any, me: int, bot: Any, depth: int):
        self.me = me
        self.bot = bot
        self.depth = depth
        self.memo: dict[int, float] = {}
        bust = state.clone()
        bust._bust()
        self.bust_value = _score(bust, me)

    def stop_value(self, state: Any) -> float:
        after = state.clone()
        after._apply({self.me: "stop"})
        return _score(_finish(after, self.me, self.bot), self.me)

    def draw_value(self, state: Any, depth: int) -> float:
        """The mean over the next chip of what it leads to, playing on `depth` - 1 more draws at most."""
        me = self.me
        bag = state.bag
        chips = len(state.chips)
        busts = state._busts_after[state.drawn_mask]
        total = 0.0
        for code, count in enumerate(bag):
            if not count:
                continue
            if busts >> code & 1:
                total += count * self.bust_value
                continue
            after = state.clone()
            after.phase = PHASE_CHANCE
            after._apply_chance(CHIP_LABELS[code])
            if after.phase == PHASE_DRAW_OR_STOP and after.current == me:
                total += count * self.value(after, depth - 1)
            else:  # the last chip: the turn resolves at once
                total += count * _score(_finish(after, me, self.bot), me)
        return total / chips

    def value(self, state: Any, depth: int) -> float:
        key = state.drawn_mask
        known = self.memo.get(key)
        if known is not None:
            return known
        best = self.stop_value(state)
        if depth > 0:
            best = max(best, self.draw_value(state, depth))
        self.memo[key] = best
        return best


def best_action(state: Any, me: int, legal: list[Any], bot: Any, depth: int) -> Any:
    """The look-ahead's choice among `legal` for `me`, whose turn it is in `state` (not changed)."""
    if state.phase == PHASE_DRAW_OR_STOP:
        look = TurnLookahead(state, me, bot, depth)
        stop = look.stop_value(state)
        draw = look.draw_value(state, depth)
        return "draw" if draw > stop else "stop"
    best, best_value = legal[0], -1.0
    for action in legal:
        after = state.clone()
        after._apply({me: action})
        value = _score(_finish(after, me, bot), me)
        if value > best_value:
            best, best_value = action, value
    return best
