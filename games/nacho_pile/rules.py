"""Nacho Pile, as implemented (the published rule text, read with the league's rulings on its open points).

The chips. 54 chips in a bag: six each of the numbers 1-7, six Wilds (W) and two each of the Specials Steal,
Score and Remove. 2-6 players; seat 0 goes first, then seat order. Every chip drawn is shown to the table, so
there is no hidden information: the bag's contents follow from what is on the table (the bag has no order, so
a draw is a pick from a multiset).

A turn.
1. The player claims the chips in front of them: every pile in front of them goes onto their plate, where
   nothing can touch it any more.
2. The player draws a chip (the first draw of a turn is compulsory), and after each draw that did not bust
   decides to draw again or to stop.
3. Bust: the drawn chip is identical to one drawn earlier this turn: the same number, a second Wild, or a
   second Special of the same kind (with the variant `specials_all_identical`, any second Special). A Wild
   never busts against a number, but the turn busts at the draw that leaves a Wild with no value it could take
   (a Wild and all of 1-7 drawn this turn, whichever came last). On a bust every chip drawn this turn,
   Specials included, goes back into the bag and the turn passes on.
4. Stop, in this order:
   a. each Wild drawn this turn is given a value 1-7 that was not drawn this turn (one decision; at most one
      Wild is ever drawn in a turn, since a second one busts);
   b. the drawn numbers and the Wild go in front of the player in piles by value (a Wild counts in the pile of
      its value and keeps that value for good, travelling with the pile);
   c. the player takes every pile in front of the other players whose value is one of the values drawn this
      turn (the Wild's included);
   d. the Specials drawn this turn are resolved one at a time, in the order the player chooses, and each then
      goes onto the player's plate (Specials count as chips for "most chips in total"):
      - Steal: one pile in front of another player joins the player's pile of that value (it cannot bust and
        triggers no further taking);
      - Score: the player's pile of one value drawn this turn goes onto their plate; it is ignored if the
        player drew no number or Wild this turn;
      - Remove: one pile in front of any player, the player's own included, goes back into the bag (a Wild
        goes back as a W and forgets its value).
5. End: when a draw that did not bust leaves exactly one chip in the bag, that chip is set aside as the last
   chip and the drawer stops at once and resolves the stop as usual, except that chips a Remove would return
   leave the game instead. Then every pile in front of a player goes onto that player's plate and the last
   chip is revealed. A number: each seat's score is its count of chips of that number (a Wild counts as its
   assigned value). A Wild or a Special: each seat's score is its count of chips in total. Places go by score,
   then by chips in total; seats still level share the place.

Choices made here where neither the rule text nor the rulings say (the rulings leave them to the table):
- Every Special's effect is compulsory when it has a target; the variant `optional_specials` lets the player
  decline it instead. A Special with no target at its turn to resolve has no effect and goes to the plate
  without a decision (a Steal with no pile in front of another player, a Remove with no pile anywhere, a Score
  with no pile of a value drawn this turn left in front of the player).
- Score takes the player's whole pile of that value, chips taken from other players included, and a value only
  counts as "drawn this turn" while its pile is still in front of the player (a Remove resolved earlier may
  have returned it).
- The last chip's identity is known to everyone (all other chips are on the table), so setting it aside is not
  a chance event.
- Termination: a stop is always legal after a draw that did not bust, and `NachoPileGame.max_events` caps a
  match at 20,000 events (thousands of turns; a game between random players takes about 150 events). A match
  that reaches the cap ends with the places `outcome()` gives there: chips in total (plate and in front)
  decide, as if the last chip were a Wild; the runner's record says `turn_cap`. A state never ends by itself
  short of the last chip, so whoever plays clones out (a search bot's rollouts) caps them too.

Decisions (actions are JSON values), all taken by the seat whose turn it is; a decision with a single legal
choice (a Wild with one value left, a Special with one target) is still asked, so records show every choice:
- after a draw that did not bust: `"draw"` or `"stop"`;
- the Wild's value: an int 1-7, one of the values not drawn this turn;
- each Special, one decision that picks both which unresolved Special goes next and its target, so the order
  of resolution is the order of these decisions: `["steal", seat, value]`, `["score", value]`, `["remove",
  seat, value]`, and with `optional_specials` also `["decline", kind]`. Legal lists are ordered Steal, Score,
  Remove, then by seat and value.
Chance outcomes: the chip drawn, as `1`-`7`, `"W"`, `"steal"`, `"score"` or `"remove"`.

Build a position for a test or an analysis with `NachoPileState.position(...)`.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable, Mapping, Sequence
from operator import add
from typing import Any, cast

from games.core.errors import IllegalAction, OptionError
from games.core.sampling import RecentPlans
from games.core.state import SEAT_KEYS, Game, Observation, Outcome, State, places_from_keys
from games.nacho_pile.spec import SPEC

# Chip codes: 0-6 are the numbers 1-7, then the Wild and the three Specials.
WILD = 7
STEAL = 8
SCORE = 9
REMOVE = 10
CHIP_KINDS = 11
CHIP_LABELS: tuple[int | str, ...] = (1, 2, 3, 4, 5, 6, 7, "W", "steal", "score", "remove")
CHIP_KEYS = tuple(str(label) for label in CHIP_LABELS)  # the keys of the bag in an observation
SPECIAL_NAMES = ("steal", "score", "remove")
CHIPS_PER_KIND = (6, 6, 6, 6, 6, 6, 6, 6, 2, 2, 2)
_CODE_OF_NUMBER = {number: number - 1 for number in range(1, 8)}
_CODE_OF_NAME = {"W": WILD, "steal": STEAL, "score": SCORE, "remove": REMOVE}
ALL_NUMBERS_MASK = (1 << 7) - 1
SPECIALS_MASK = (1 << STEAL) | (1 << SCORE) | (1 << REMOVE)
SPECIAL_CODES = (STEAL, SCORE, REMOVE)
# SPECIALS_OF[drawn mask >> STEAL]: the codes of the Specials drawn, in code order.
SPECIALS_OF = tuple(tuple(code for code in SPECIAL_CODES if mask << STEAL >> code & 1) for mask in range(8))
VALUES_OF_MASK = tuple(tuple(value for value in range(7) if mask >> value & 1) for mask in range(1 << 7))
# WILD_VALUES[mask of the numbers drawn]: the value indexes a Wild may take, ascending (the legal list's
# order).
WILD_VALUES = tuple(VALUES_OF_MASK[ALL_NUMBERS_MASK ^ mask] for mask in range(1 << 7))
# WILD_ACTIONS[mask of the numbers drawn]: the legal actions giving the Wild its value (1-7), in order.
WILD_ACTIONS = tuple(tuple(value + 1 for value in values) for values in WILD_VALUES)
# The code of every chance outcome's label (a legal outcome only: 1 and True look alike to a dict).
CODE_OF_LABEL: dict[Any, int] = {label: code for code, label in enumerate(CHIP_LABELS)}


def _bust_table(identical_specials: bool) -> tuple[int, ...]:
    """Per mask of the chips drawn this turn, the mask of the chip codes whose draw busts the turn now."""
    table = []
    for mask in range(1 << CHIP_KINDS):
        busting = 0
        for code in range(CHIP_KINDS):
            if mask >> code & 1:
                busts = True
            elif code < WILD:
                busts = bool(mask >> WILD & 1) and (mask | 1 << code) & ALL_NUMBERS_MASK == ALL_NUMBERS_MASK
            elif code == WILD:
                busts = mask & ALL_NUMBERS_MASK == ALL_NUMBERS_MASK
            else:
                busts = identical_specials and mask & SPECIALS_MASK != 0
            busting |= busts << code
        table.append(busting)
    return tuple(table)


# BUSTS[specials_all_identical][drawn mask] >> code & 1: whether drawing `code` now busts.
BUSTS = (_bust_table(False), _bust_table(True))

# Per seat, a front and a plate are flat runs of a list: 7 counts of number chips by value, then 7 counts of
# Wilds by assigned value; a plate then holds the Steal, Score and Remove chips.
FRONT_STRIDE = 14
PLATE_STRIDE = 17
# OTHER_SEATS[num_players][seat]: the other seats, in seat order.
OTHER_SEATS = tuple(
    tuple(tuple(other for other in range(n) if other != seat) for seat in range(n)) for n in range(7)
)

# PLATE_AND_FRONT_BASES[num_players]: per seat, where its plate and its front begin.
PLATE_AND_FRONT_BASES = tuple(
    tuple((seat * PLATE_STRIDE, seat * FRONT_STRIDE) for seat in range(n)) for n in range(7)
)

PHASE_CHANCE, PHASE_DRAW_OR_STOP, PHASE_WILD, PHASE_SPECIAL, PHASE_OVER = range(5)
PHASE_NAMES = ("draw", "draw_or_stop", "wild", "special", "over")


def chip_code(label: Any) -> int | None:
    """The chip code of a chance outcome / observation label, or None if it names no chip."""
    if type(label) is int:
        return _CODE_OF_NUMBER.get(label)
    if type(label) is str:
        return _CODE_OF_NAME.get(label)
    return None


class NachoPileState(State):
    """A Nacho Pile position. See the module docstring for the rules and the action encoding."""

    __slots__ = (
        "num_players",
        "options",
        "rng",
        "_identical_specials",
        "_optional_specials",
        "bag",
        "chips",
        "_busts_after",
        "front",
        "piles",
        "plate",
        "out_of_game",
        "current",
        "turn",
        "phase",
        "drawn",
        "drawn_mask",
        "wild_value",
        "pending",
        "last_chip",
    )

    def __init__(self, num_players: int, options: Mapping[str, Any], rng: random.Random | None = None):
        self.num_players = num_players
        self.options = dict(options)
        self.rng = rng
        self._identical_specials = bool(options["specials_all_identical"])
        self._optional_specials = bool(options["optional_specials"])
        self._busts_after = BUSTS[self._identical_specials]
        self.bag = list(CHIPS_PER_KIND)
        # The bag's chips one by one, by code: a draw is the chip at a uniform index (see `sample_chance`).
        self.chips = FULL_BAG_CHIPS[:]
        self.front = [0] * (FRONT_STRIDE * num_players)
        # Per seat, bit v set while a pile of value index v (number chips or Wilds) is in front of it.
        self.piles = [0] * num_players
        self.plate = [0] * (PLATE_STRIDE * num_players)
        self.out_of_game = [0] * CHIP_KINDS
        self.current = 0
        self.turn = 0
        self.phase = PHASE_CHANCE
        self.drawn: list[int] = []
        self.drawn_mask = 0
        self.wild_value = -1  # the value index 0-6 given to this turn's Wild, -1 before it has one
        self.pending: list[int] = []  # Specials drawn this turn and not yet resolved, by code
        self.last_chip = -1  # the code of the chip set aside at the end, -1 before

    # ----- building positions -------------------------------------------------------------------------------

    @classmethod
    def position(
        cls,
        num_players: int,
        *,
        options: Mapping[str, Any] | None = None,
        current: int = 0,
        turn: int = 0,
        drawn: Sequence[int | str] = (),
        fronts: Mapping[int, Mapping[int, int]] | None = None,
        front_wilds: Mapping[int, Mapping[int, int]] | None = None,
        plates: Mapping[int, Mapping[int | str, int]] | None = None,
        plate_wilds: Mapping[int, Mapping[int, int]] | None = None,
        bag: Mapping[int | str, int] | None = None,
    ) -> NachoPileState:
        """A hand-built position in the middle of seat `current`'s turn.

        `drawn` lists the chips drawn so far this turn (labels as in chance outcomes; none of them may bust):
        with none, the turn's compulsory first draw is due (a chance node); otherwise the seat is to decide
        "draw" or "stop". `fronts[seat][value]` counts number chips in front of a seat,
        `front_wilds[seat][value]` Wilds given that value; `plates` and `plate_wilds` likewise for plates,
        where `plates[seat]` may also count "steal", "score" and "remove" chips. `bag` gives the bag's
        contents by label; by default it holds every chip not placed elsewhere. Raises OptionError on a
        position the chips cannot make.
        """
        options = SPEC.validate_options(options, num_players)
        state = cls(num_players, options)
        if not 0 <= current < num_players:
            raise OptionError(f"no seat {current} among {num_players} players")
        state.current = current
        state.turn = turn
        placed = [0] * CHIP_KINDS
        code: int | None  # a chip code; None for a label that names no chip (refused below)
        for seats, run, offset, specials in (
            (fronts, state.front, 0, False),
            (front_wilds, state.front, 7, False),
            (plates, state.plate, 0, True),
            (plate_wilds, state.plate, 7, False),
        ):
            stride = PLATE_STRIDE if run is state.plate else FRONT_STRIDE
            for seat, counts in (seats or {}).items():
                for label, count in counts.items():
                    if isinstance(label, str) and specials and label in SPECIAL_NAMES:
                        code = cast(int, chip_code(label))  # a Special's name always names a chip
                        run[seat * stride + 14 + code - STEAL] += count
                    elif type(label) is int and 1 <= label <= 7:
                        code = WILD if offset else label - 1
                        run[seat * stride + offset + label - 1] += count
                    else:
                        raise OptionError(f"{label!r} is not a pile value here")
                    placed[code] += count
        for label in drawn:
            code = chip_code(label)
            if code is None:
                raise OptionError(f"{label!r} is not a chip")
            if state._busts(code):
                raise OptionError(f"drawing {label!r} after {list(drawn)} busts")
            state.drawn.append(code)
            state.drawn_mask |= 1 << code
            placed[code] += 1
        if bag is None:
            state.bag = [total - used for total, used in zip(CHIPS_PER_KIND, placed, strict=True)]
        else:
            state.bag = [0] * CHIP_KINDS
            for label, count in bag.items():
                code = chip_code(label)
                if code is None:
                    raise OptionError(f"{label!r} is not a chip")
                state.bag[code] = count
            state.out_of_game = [
                total - used - in_bag
                for total, used, in_bag in zip(CHIPS_PER_KIND, placed, state.bag, strict=True)
            ]
        if any(count < 0 for count in state.bag) or any(count < 0 for count in state.out_of_game):
            raise OptionError("the position uses more chips of some kind than the game has")
        state.chips = _chips_of(state.bag)
        if len(state.chips) < 2:
            raise OptionError("a game in progress has at least two chips in the bag")
        state.phase = PHASE_DRAW_OR_STOP if state.drawn else PHASE_CHANCE
        state.piles = _piles_of(state.front, num_players)
        return state

    # ----- the protocol -------------------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.phase == PHASE_OVER

    def is_chance(self) -> bool:
        return self.phase == PHASE_CHANCE

    def deciders(self) -> tuple[int, ...]:
        if self.phase in (PHASE_CHANCE, PHASE_OVER):
            return ()
        return (self.current,)

    def legal_actions(self, seat: int) -> list[Any]:
        phase = self.phase
        if phase == PHASE_DRAW_OR_STOP and seat == self.current:
            return ["draw", "stop"]
        if seat != self.current or phase in (PHASE_CHANCE, PHASE_OVER):
            return []
        if phase == PHASE_WILD:
            return list(WILD_ACTIONS[self.drawn_mask & ALL_NUMBERS_MASK])
        return self._special_actions()

    def _special_actions(self) -> list[list[Any]]:
        actions: list[list[Any]] = []
        for code in self.pending:
            actions.extend(self._targets(code))
        if self._optional_specials:
            actions.extend(["decline", SPECIAL_NAMES[code - STEAL]] for code in self.pending)
        return actions

    def _targets(self, code: int) -> list[list[Any]]:
        """The effects the pending Special `code` can have now, as actions.

        A pile of value v is in front of a seat exactly when bit v of its `piles` mask is set (numbers or
        Wilds of that value there), so the masks name the targets, in ascending values as a look at every
        value of the fronts would find them."""
        me = self.current
        piles = self.piles
        if code == SCORE:
            mine = piles[me]
            return [["score", value + 1] for value in self._drawn_values() if mine >> value & 1]
        actions = []
        name = SPECIAL_NAMES[code - STEAL]
        for seat in range(self.num_players):
            if seat == me and code == STEAL:
                continue
            for value in VALUES_OF_MASK[piles[seat]]:
                actions.append([name, seat, value + 1])
        return actions

    def _has_target(self, code: int) -> bool:
        """Whether `_targets(code)` would be non-empty, without building the actions."""
        piles = self.piles
        if code == SCORE:  # a pile in front of the player of a value drawn this turn (`_drawn_values()`)
            mask = self.drawn_mask & ALL_NUMBERS_MASK
            if self.wild_value >= 0:
                mask |= 1 << self.wild_value
            return piles[self.current] & mask != 0
        if code == STEAL:
            return any(map(piles.__getitem__, OTHER_SEATS[self.num_players][self.current]))
        return any(piles)

    def _drawn_values(self) -> tuple[int, ...]:
        """Value indexes drawn this turn (the Wild's included), ascending."""
        mask = self.drawn_mask & ALL_NUMBERS_MASK
        if self.wild_value >= 0:
            mask |= 1 << self.wild_value
        return VALUES_OF_MASK[mask]

    def sample_chance(self, rng: random.Random) -> Any:
        # random() rather than randrange(): a third of the cost, and r * n < n for every float r < 1. The
        # chips are in code order, so the pick is the same as counting through the bag's counts kind by kind.
        chips = self.chips
        return CHIP_LABELS[chips[int(rng.random() * len(chips))]]

    def chance_is_possible(self, outcome: Any) -> bool:
        code = chip_code(outcome)
        return code is not None and self.phase == PHASE_CHANCE and self.bag[code] > 0

    def _busts(self, code: int) -> bool:
        """Whether drawing `code` now busts the turn."""
        return bool(self._busts_after[self.drawn_mask] >> code & 1)

    def apply_chance(self, outcome: Any) -> None:
        """As `State.apply_chance` (check, then draw), with the checks done once on the hot path."""
        if self.phase != PHASE_CHANCE:
            raise IllegalAction("no chance event is due now")
        code = chip_code(outcome)
        if code is None or not self.bag[code]:
            raise IllegalAction(f"chance outcome {outcome!r} is impossible now")
        self._apply_chance(outcome)

    def _apply_chance(self, outcome: Any) -> None:
        """The chip drawn comes out of the bag: bust, the end, or a decision to draw again or stop."""
        code = CODE_OF_LABEL[outcome]
        mask = self.drawn_mask
        if self._busts_after[mask] >> code & 1:
            self._bust()
            return
        self.bag[code] -= 1
        chips = self.chips
        chips.remove(code)
        self.drawn.append(code)
        self.drawn_mask = mask | 1 << code
        if len(chips) == 1:
            self._last_chip()
        else:
            self.phase = PHASE_DRAW_OR_STOP

    def _bust(self) -> None:
        """The chip just drawn busts: it never left the bag, this turn's others go back, and the turn
        passes."""
        chips = self.chips
        bag = self.bag
        for drawn in self.drawn:
            bag[drawn] += 1
            insort(chips, drawn)
        self._next_turn()

    def _last_chip(self) -> None:
        """A draw that did not bust left one chip in the bag: it is set aside, and the drawer stops at
        once."""
        last = self.chips.pop()
        self.bag[last] = 0
        self.last_chip = last
        self._stop()

    def playout(self, rng: random.Random, max_events: int = 0) -> int:
        """`State.playout` in one loop: the same draws from `rng`, the same state at the end. A turn's draws
        and draw-or-stop decisions run in an inner loop on local variables: what `_apply_chance` and `_apply`
        do, in the same order."""
        if max_events:
            return super().playout(rng, max_events)
        draw = rng.random
        busts_after = self._busts_after
        bag = self.bag
        chips = self.chips  # never replaced during a game, only changed in place
        steps = 0
        while True:
            phase = self.phase
            if phase == PHASE_CHANCE:
                drawn = self.drawn
                mask = self.drawn_mask
                while True:
                    count = len(chips)
                    index = int(draw() * count)
                    code = chips[index]
                    steps += 1
                    if busts_after[mask] >> code & 1:
                        self._bust()
                        break
                    bag[code] -= 1
                    del chips[
                        index
                    ]  # `chips.remove(code)`: the chips are sorted, so any copy of the code will do
                    drawn.append(code)
                    mask |= 1 << code
                    if count == 2:
                        self.drawn_mask = mask
                        self._last_chip()
                        break
                    steps += 1
                    if draw() >= 0.5:  # int(draw() * 2) picks "stop" from ["draw", "stop"]
                        self.drawn_mask = mask
                        if mask >> WILD & 1:  # `_stop()`
                            self.phase = PHASE_WILD
                        else:
                            self._place_and_take()
                        break
            elif phase == PHASE_WILD:  # `_apply` of a random pick from `legal_actions`
                values = WILD_VALUES[self.drawn_mask & ALL_NUMBERS_MASK]
                self.wild_value = values[0] if len(values) == 1 else values[int(draw() * len(values))]
                self._place_and_take()
                steps += 1
            elif phase == PHASE_DRAW_OR_STOP:
                steps += 1
                if draw() >= 0.5:
                    self._stop()
                else:
                    self.phase = PHASE_CHANCE
            elif phase == PHASE_OVER:
                return steps
            else:
                legal = self.legal_actions(self.current)
                action = legal[0] if len(legal) == 1 else legal[int(draw() * len(legal))]
                self._apply({self.current: action})
                steps += 1

    def run(
        self, rng: random.Random, events: list[list[Any]], cap: int, decide: Callable[[int, list[Any]], Any]
    ) -> None:
        """`State.run` in one loop: each draw as `sample_chance` and `_apply_chance` make it, each decision
        asked of `decide` with `legal_actions` and applied as `_apply` would, a "draw" or a "stop" without the
        generic calls. Every attribute is written before `decide` is called (a bot may read the state)."""
        append = events.append
        room = cap - len(events)
        draw = rng.random
        busts_after = self._busts_after
        bag = self.bag
        chips = self.chips  # never replaced during a game, only changed in place
        while room > 0:
            phase = self.phase
            if phase == PHASE_CHANCE:  # `sample_chance(rng)` and `_apply_chance`
                count = len(chips)
                index = int(draw() * count)
                code = chips[index]
                append(["c", CHIP_LABELS[code]])
                room -= 1
                mask = self.drawn_mask
                if busts_after[mask] >> code & 1:
                    self._bust()  # the next seat's turn: chance again
                    continue
                bag[code] -= 1
                del chips[
                    index
                ]  # `chips.remove(code)`: the chips are sorted, so any copy of the code will do
                self.drawn.append(code)
                self.drawn_mask = mask | 1 << code
                if count == 2:
                    self._last_chip()
                    continue
                self.phase = PHASE_DRAW_OR_STOP
                if not room:
                    return
                phase = PHASE_DRAW_OR_STOP
            elif phase == PHASE_OVER:
                return
            seat = self.current
            if phase == PHASE_DRAW_OR_STOP:
                action = decide(seat, ["draw", "stop"])  # `legal_actions(seat)`
                append(["m", {SEAT_KEYS[seat]: action}])
                room -= 1
                if action == "draw":
                    self.phase = PHASE_CHANCE
                elif self.drawn_mask >> WILD & 1:  # "stop": `_stop()`
                    self.phase = PHASE_WILD
                else:
                    self._place_and_take()
            else:
                action = decide(seat, self.legal_actions(seat))
                append(["m", {SEAT_KEYS[seat]: action}])
                room -= 1
                self._apply({seat: action})

    def apply(self, actions: Mapping[int, Any]) -> None:
        """As `State.apply`, and also refuse look-alikes of legal actions (`3.0` or `true` for `3`)."""
        for seat, action in actions.items():
            if not _is_plain(action):
                raise IllegalAction(f"seat {seat}: {action!r} is not a legal action now")
        super().apply(actions)

    def _apply(self, actions: Mapping[int, Any]) -> None:
        action = actions[self.current]
        phase = self.phase
        if phase == PHASE_DRAW_OR_STOP:
            if action == "draw":
                self.phase = PHASE_CHANCE
            else:
                self._stop()
        elif phase == PHASE_WILD:
            self.wild_value = action - 1
            self._place_and_take()
        else:
            self._resolve_special(action)

    # ----- the stop -----------------------------------------------------------------------------------------

    def _stop(self) -> None:
        if self.drawn_mask >> WILD & 1:
            self.phase = PHASE_WILD
        else:
            self._place_and_take()

    def _place_and_take(self) -> None:
        """Put the drawn chips in front of the player, take matching piles, then queue the Specials."""
        front = self.front
        piles = self.piles
        me = self.current
        mine = me * FRONT_STRIDE
        mask = self.drawn_mask
        values_mask = mask & ALL_NUMBERS_MASK
        for value in VALUES_OF_MASK[values_mask]:
            front[mine + value] += 1
        if self.wild_value >= 0:
            front[mine + 7 + self.wild_value] += 1
            values_mask |= 1 << self.wild_value
        for other in OTHER_SEATS[self.num_players][me]:
            taken = piles[other] & values_mask
            if taken:
                base = other * FRONT_STRIDE
                for value in VALUES_OF_MASK[taken]:
                    at = base + value
                    front[mine + value] += front[at]
                    front[mine + 7 + value] += front[at + 7]
                    front[at] = 0
                    front[at + 7] = 0
                piles[other] ^= taken
        piles[me] |= values_mask
        if mask & SPECIALS_MASK:
            self.pending = list(SPECIALS_OF[mask >> STEAL])
            self._next_special()
        elif self.last_chip < 0:
            self._next_turn()
        else:
            self._end_turn()

    def _next_special(self) -> None:
        """Resolve every pending Special that has no target now; ask for a decision if any Special is left.

        Resolving a Special never gives another one a target it lacked, so this needs doing once per step.
        """
        for code in self.pending[:]:
            if not self._has_target(code):
                self._special_done(code)
        if self.pending:
            self.phase = PHASE_SPECIAL
        else:
            self._end_turn()

    def _special_done(self, code: int) -> None:
        self.pending.remove(code)
        self.plate[self.current * PLATE_STRIDE + 14 + code - STEAL] += 1

    def _resolve_special(self, action: list[Any]) -> None:
        kind = action[0]
        front = self.front
        me = self.current
        if kind == "steal":
            base = action[1] * FRONT_STRIDE
            value = action[2] - 1
            mine = me * FRONT_STRIDE
            front[mine + value] += front[base + value]
            front[mine + 7 + value] += front[base + 7 + value]
            front[base + value] = 0
            front[base + 7 + value] = 0
            self.piles[me] |= 1 << value
            self.piles[action[1]] &= ~(1 << value)
            code = STEAL
        elif kind == "score":
            value = action[1] - 1
            mine = me * FRONT_STRIDE
            plate = me * PLATE_STRIDE
            self.plate[plate + value] += front[mine + value]
            self.plate[plate + 7 + value] += front[mine + 7 + value]
            front[mine + value] = 0
            front[mine + 7 + value] = 0
            self.piles[me] &= ~(1 << value)
            code = SCORE
        elif kind == "remove":
            base = action[1] * FRONT_STRIDE
            value = action[2] - 1
            destination = self.out_of_game if self.last_chip >= 0 else self.bag
            numbers = front[base + value]
            wilds = front[base + 7 + value]
            destination[value] += numbers
            destination[WILD] += wilds
            if self.last_chip < 0:
                chips = self.chips
                for _ in range(numbers):
                    insort(chips, value)
                for _ in range(wilds):
                    insort(chips, WILD)
            front[base + value] = 0
            front[base + 7 + value] = 0
            self.piles[action[1]] &= ~(1 << value)
            code = REMOVE
        else:
            code = _CODE_OF_NAME[action[1]]
        self._special_done(code)
        self._next_special()

    def _end_turn(self) -> None:
        if self.last_chip >= 0:
            plate = self.plate
            front = self.front
            for seat in range(self.num_players):
                at, base = seat * PLATE_STRIDE, seat * FRONT_STRIDE
                plate[at : at + FRONT_STRIDE] = map(
                    add, plate[at : at + FRONT_STRIDE], front[base : base + FRONT_STRIDE]
                )
            self.front = [0] * len(front)
            self.piles = [0] * self.num_players
            self.drawn = []
            self.drawn_mask = 0
            self.wild_value = -1
            self.phase = PHASE_OVER
            return
        self._next_turn()

    def _next_turn(self) -> None:
        """Pass the turn on: the next seat claims the piles in front of it and must draw."""
        self.drawn = []
        self.drawn_mask = 0
        self.wild_value = -1
        self.turn += 1
        seat = self.current + 1
        if seat == self.num_players:
            seat = 0
        self.current = seat
        piles = self.piles
        if piles[seat]:
            front = self.front
            plate = self.plate
            base = seat * FRONT_STRIDE
            plate_base = seat * PLATE_STRIDE
            for value in VALUES_OF_MASK[piles[seat]]:  # a value with no pile has nothing in front
                plate[plate_base + value] += front[base + value]
                plate[plate_base + 7 + value] += front[base + 7 + value]
                front[base + value] = 0
                front[base + 7 + value] = 0
            piles[seat] = 0
        self.phase = PHASE_CHANCE

    # ----- scoring ------------------------------------------------------------------------------------------

    def chips_in_total(self, seat: int) -> int:
        """Chips on the seat's plate and in front of it."""
        base = seat * FRONT_STRIDE
        plate_base = seat * PLATE_STRIDE
        return sum(self.plate[plate_base : plate_base + PLATE_STRIDE]) + sum(
            self.front[base : base + FRONT_STRIDE]
        )

    def outcome(self) -> Outcome:
        plate, front = self.plate, self.front
        totals = [  # chips_in_total(seat) for every seat
            sum(plate[at : at + PLATE_STRIDE]) + sum(front[base : base + FRONT_STRIDE])
            for at, base in PLATE_AND_FRONT_BASES[self.num_players]
        ]
        last = self.last_chip
        if self.phase == PHASE_OVER and last < WILD:
            scores = [
                plate[at + last] + plate[at + 7 + last]
                for at, _base in PLATE_AND_FRONT_BASES[self.num_players]
            ]
        else:
            scores = totals
        return Outcome(places=places_from_keys(list(zip(scores, totals, strict=True))), scores=tuple(scores))

    # ----- observation, copies, words -----------------------------------------------------------------------

    def observation(self, seat: int) -> Observation:
        """The whole table (Nacho Pile hides nothing): every key is described for bot authors in
        `games/nacho_pile/reference.py` (the site's docs show it, /bots/docs/games/nacho_pile/)."""
        front = self.front
        plate = self.plate
        return {
            "seat": seat,
            "num_players": self.num_players,
            "options": dict(self.options),
            "turn": self.turn,
            "current": self.current,
            "phase": PHASE_NAMES[self.phase],
            "drawn": [CHIP_LABELS[code] for code in self.drawn],
            "wild_value": self.wild_value + 1 if self.wild_value >= 0 else None,
            "pending_specials": [SPECIAL_NAMES[code - STEAL] for code in self.pending],
            "bag": dict(zip(CHIP_KEYS, self.bag, strict=True)),
            "fronts": [
                {
                    "numbers": front[s * FRONT_STRIDE : s * FRONT_STRIDE + 7],
                    "wilds": front[s * FRONT_STRIDE + 7 : s * FRONT_STRIDE + 14],
                }
                for s in range(self.num_players)
            ],
            "plates": [
                {
                    "numbers": plate[s * PLATE_STRIDE : s * PLATE_STRIDE + 7],
                    "wilds": plate[s * PLATE_STRIDE + 7 : s * PLATE_STRIDE + 14],
                    "specials": dict(
                        zip(SPECIAL_NAMES, plate[s * PLATE_STRIDE + 14 : s * PLATE_STRIDE + 17], strict=True)
                    ),
                }
                for s in range(self.num_players)
            ],
            "out_of_game": dict(zip(CHIP_KEYS, self.out_of_game, strict=True)),
            "last_chip": CHIP_LABELS[self.last_chip] if self.last_chip >= 0 else None,
        }

    def clone(self) -> NachoPileState:
        other = NachoPileState.__new__(NachoPileState)
        other.num_players = self.num_players
        other.options = self.options
        other.rng = None
        other._identical_specials = self._identical_specials
        other._optional_specials = self._optional_specials
        other._busts_after = self._busts_after
        other.bag = self.bag[:]
        other.chips = self.chips[:]
        other.front = self.front[:]
        other.piles = self.piles[:]
        other.plate = self.plate[:]
        other.out_of_game = self.out_of_game[:]
        other.current = self.current
        other.turn = self.turn
        other.phase = self.phase
        other.drawn = self.drawn[:]
        other.drawn_mask = self.drawn_mask
        other.wild_value = self.wild_value
        other.pending = self.pending[:]
        other.last_chip = self.last_chip
        return other

    def describe_chance(self, outcome: Any) -> str:
        """Words for a draw, read on the state right after it was applied (as the CLI's account does)."""
        text = f"draws {outcome}"
        if self.last_chip >= 0:
            return f"{text}; one chip is left in the bag ({CHIP_LABELS[self.last_chip]}): the game ends"
        if self.phase == PHASE_CHANCE and not self.drawn:
            return f"{text} and busts: this turn's chips go back into the bag"
        return text

    def describe_action(self, seat: int, action: Any) -> str:
        if action == "draw":
            return "draws another chip"
        if action == "stop":
            return "stops"
        if type(action) is int:
            return f"makes the Wild a {action}"
        if isinstance(action, list) and action:
            kind = action[0]
            if kind == "steal":
                return f"steals the pile of {action[2]}s in front of seat {action[1]}"
            if kind == "score":
                return f"scores the pile of {action[1]}s"
            if kind == "remove":
                whose = "own" if action[1] == seat else f"seat {action[1]}'s"
                return f"removes {whose} pile of {action[2]}s"
            if kind == "decline":
                return f"declines the {action[1].capitalize()}"
        return str(action)

    def render(self) -> str:
        lines = []
        if self.phase == PHASE_OVER:
            lines.append(
                f"Game over after {self.turn + 1} turns; the last chip is {CHIP_LABELS[self.last_chip]}."
            )
        else:
            drawn = " ".join(_chip_text(code, self.wild_value) for code in self.drawn) or "nothing yet"
            lines.append(f"Turn {self.turn + 1}: seat {self.current} has drawn {drawn}.")
        bag = " ".join(f"{CHIP_KEYS[code]}x{count}" for code, count in enumerate(self.bag) if count)
        lines.append(f"Bag ({len(self.chips)}): {bag or 'empty'}")
        for seat in range(self.num_players):
            piles = []
            base = seat * FRONT_STRIDE
            for value in range(7):
                numbers, wilds = self.front[base + value], self.front[base + 7 + value]
                if numbers or wilds:
                    piles.append(f"{value + 1}x{numbers + wilds}" + (f"({wilds}W)" if wilds else ""))
            total = self.chips_in_total(seat) - sum(self.front[base : base + FRONT_STRIDE])
            marker = ">" if seat == self.current and self.phase != PHASE_OVER else " "
            lines.append(f"{marker} seat {seat}: plate {total:2d}  front {' '.join(piles) or '-'}")
        return "\n".join(lines)


def _piles_of(front: Sequence[int], num_players: int) -> list[int]:
    """Per seat, the mask of the values of the piles in front of it (`NachoPileState.piles`)."""
    return [
        sum(1 << value for value in range(7) if front[base + value] or front[base + 7 + value])
        for base in range(0, num_players * FRONT_STRIDE, FRONT_STRIDE)
    ]


def _chips_of(bag: Sequence[int]) -> list[int]:
    """The chips of a bag (counts by code) one by one, in code order."""
    chips: list[int] = []
    for code, count in enumerate(bag):
        if count:
            chips.extend([code] * count)
    return chips


FULL_BAG_CHIPS = _chips_of(CHIPS_PER_KIND)  # a new game's bag, chip by chip


def _is_plain(action: Any) -> bool:
    """Whether an action is made only of str and int (bool and float compare equal to ints)."""
    if type(action) is list:
        return all(type(part) is str or type(part) is int for part in action)
    return type(action) is str or type(action) is int


def _chip_text(code: int, wild_value: int) -> str:
    if code == WILD and wild_value >= 0:
        return f"W={wild_value + 1}"
    return str(CHIP_LABELS[code])


class NachoPileGame(Game):
    """Nacho Pile: makes states and rebuilds a state from an observation."""

    spec = SPEC
    max_events = 20_000

    def new_state(self, num_players: int, options: Mapping[str, Any], rng: random.Random) -> NachoPileState:
        return NachoPileState(num_players, options, rng)

    def sample_state(self, observation: Observation, rng: random.Random) -> NachoPileState:
        """The state the observation shows, exactly: Nacho Pile hides nothing and its bag has no order.

        The observation's keys are described in `games/nacho_pile/reference.py`.

        A search samples one observation many times: the state is built once and copied
        (`games.core.sampling`).
        """
        return _STATES.plan_for(observation).clone()

    @staticmethod
    def _state_of(observation: Observation) -> NachoPileState:
        """The state an observation shows (`sample_state` copies it)."""
        num_players = observation["num_players"]
        state = NachoPileState(num_players, observation["options"])
        state.turn = observation["turn"]
        state.current = observation["current"]
        state.phase = PHASE_NAMES.index(observation["phase"])
        state.drawn = [
            cast(int, chip_code(label)) for label in observation["drawn"]
        ]  # observed chips are chips
        for code in state.drawn:
            state.drawn_mask |= 1 << code
        wild_value = observation["wild_value"]
        state.wild_value = wild_value - 1 if wild_value is not None else -1
        state.pending = [_CODE_OF_NAME[name] for name in observation["pending_specials"]]
        state.bag = [observation["bag"][key] for key in CHIP_KEYS]
        state.chips = _chips_of(state.bag)
        state.out_of_game = [observation["out_of_game"][key] for key in CHIP_KEYS]
        for seat, (front, plate) in enumerate(zip(observation["fronts"], observation["plates"], strict=True)):
            state.front[seat * FRONT_STRIDE : (seat + 1) * FRONT_STRIDE] = front["numbers"] + front["wilds"]
            specials = [plate["specials"][name] for name in SPECIAL_NAMES]
            state.plate[seat * PLATE_STRIDE : (seat + 1) * PLATE_STRIDE] = (
                plate["numbers"] + plate["wilds"] + specials
            )
        last_chip = observation["last_chip"]
        state.last_chip = cast(int, chip_code(last_chip)) if last_chip is not None else -1
        state.piles = _piles_of(state.front, num_players)
        return state


GAME = NachoPileGame()
_STATES: RecentPlans[NachoPileState] = RecentPlans(NachoPileGame._state_of)
NachoPileState.game = GAME
