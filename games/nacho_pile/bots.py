"""Nacho Pile bots that read only what their observation shows (from the observation, or in a search's own
state)."""

from __future__ import annotations

from operator import add
from typing import Any

from games.core.bot import Bot
from games.core.spec import Option
from games.core.state import Action, Observation
from games.nacho_pile.rules import CHIP_KEYS, CHIP_KINDS, CHIP_LABELS, FRONT_STRIDE, REMOVE, STEAL, WILD


def _pile_sizes(front: dict[str, list[int]]) -> list[int]:
    """Chips in each of a front's piles, by value index 0-6 (number chips and Wilds together)."""
    return [numbers + wilds for numbers, wilds in zip(front["numbers"], front["wilds"], strict=True)]


class HeuristicBot(Bot):
    """Pushes its luck by one-draw expectation, and spends Wilds and Specials on the biggest piles.

    Draw or stop: the chips at stake (this turn's chips, the piles they would take, and what the drawn
    Specials would take) are lost with the chance that the next chip busts; the next chip, if safe, adds
    itself and what it would take. The bot draws while `caution` x (bust chance x stake) is below the expected
    gain. The Wild takes the value that captures the most chips from the other players (ties: the value the
    bot holds most of, then the lowest). Specials go in the order of their worth: the biggest pile to steal,
    the biggest opposing pile to remove, the bot's biggest drawn pile to score; declining (with the variant)
    only beats removing its own pile.
    """

    name = "heuristic"
    version = 1  # bump when its choices change (games.core.bot.Bot.version)
    summary = (
        "stops when the bust risk outweighs the expected gain of one more chip; Specials take the biggest "
        "piles"
    )
    games = ("nacho_pile",)
    params = (
        Option(
            "caution",
            "float",
            1.0,
            help="weight of the bust risk against the expected gain of one more chip (higher stops sooner)",
            min=0.0,
            max=10.0,
        ),
    )

    def act(self, observation: Observation | None, legal_actions: list[Action]) -> Action:
        if observation is None:
            raise ValueError("the heuristic bot needs its observation")
        if legal_actions == ["draw", "stop"]:
            return "draw" if self._wants_to_draw(observation) else "stop"
        if isinstance(legal_actions[0], int):
            return self._wild_value(observation, legal_actions)
        return max(legal_actions, key=lambda action: self._special_worth(observation, action))

    def act_in_state(self, state: Any, seat: int, legal_actions: list[Action]) -> Action:
        # Draw or stop, the decision of nearly every event, straight from the state's counts (the same
        # arithmetic in the same order as `_wants_to_draw` on its observation; Nacho Pile hides nothing, and
        # tests/games/nacho_pile/test_play.py checks the two agree); the rest through the observation.
        if legal_actions == ["draw", "stop"] and seat == state.current:
            return "draw" if self._wants_to_draw_in(state) else "stop"
        return self.act(state.observation(seat), legal_actions)

    # ----- draw or stop -------------------------------------------------------------------------------------

    def _wants_to_draw_in(self, state: Any) -> bool:
        """`_wants_to_draw` read from a `NachoPileState` (its flat fronts, bag counts and drawn codes)."""
        me = state.current
        front = state.front
        opposing = [0] * 7
        biggest_other_pile = 0
        for seat in range(state.num_players):
            if seat != me:
                base = seat * FRONT_STRIDE
                piles = list(map(add, front[base : base + 7], front[base + 7 : base + 14]))
                opposing = list(map(add, opposing, piles))
                biggest = max(piles)
                if biggest > biggest_other_pile:
                    biggest_other_pile = biggest
        return self._draw_rule(
            opposing, biggest_other_pile, state.drawn, state.bag, state._identical_specials
        )

    def _wants_to_draw(self, observation: Observation) -> bool:
        me = observation["seat"]
        opposing = [0] * 7  # chips in front of the other players, by value
        biggest_other_pile = 0
        for seat, front in enumerate(observation["fronts"]):
            if seat != me:
                for value, size in enumerate(_pile_sizes(front)):
                    opposing[value] += size
                    biggest_other_pile = max(biggest_other_pile, size)
        drawn = [CHIP_LABELS.index(label) for label in observation["drawn"]]
        bag = [observation["bag"][key] for key in CHIP_KEYS]
        identical_specials = observation["options"]["specials_all_identical"]
        return self._draw_rule(opposing, biggest_other_pile, drawn, bag, identical_specials)

    def _draw_rule(
        self,
        opposing: list[int],
        biggest_other_pile: int,
        drawn: list[int],
        bag: list[int],
        identical_specials: bool,
    ) -> bool:
        """Draw or stop from the chips in front of the others by value, the biggest of their piles, this
        turn's chips and the bag's (chip codes of `games.nacho_pile.rules`)."""
        drawn_numbers = {code for code in drawn if code < WILD}
        has_wild = WILD in drawn
        free = [value for value in range(7) if value not in drawn_numbers]
        specials = [code for code in drawn if code > WILD]

        stake = len(drawn) + sum(opposing[value] for value in drawn_numbers)
        if has_wild:
            stake += max(opposing[value] for value in free)
        if STEAL in specials:
            stake += biggest_other_pile

        bust_chips = 0
        expected_gain = 0.0
        for code in range(CHIP_KINDS):
            count = bag[code]
            if not count:
                continue
            if code < WILD:
                busts = code in drawn_numbers or (has_wild and len(free) == 1)
                gain: float = 1 + opposing[code]
            elif code == WILD:
                busts = has_wild or not free
                gain = 1 + max((opposing[value] for value in free), default=0)
            else:
                busts = code in specials or (identical_specials and bool(specials))
                gain = 1 + (
                    biggest_other_pile if code == STEAL else biggest_other_pile / 2 if code == REMOVE else 0
                )
            if busts:
                bust_chips += count
            else:
                expected_gain += count * gain
        return expected_gain > self.config["caution"] * bust_chips * stake and sum(bag) > 1

    # ----- the Wild and the Specials ------------------------------------------------------------------------

    def _wild_value(self, observation: Observation, legal_actions: list[Action]) -> int:
        me = observation["seat"]
        opposing = [0] * 7
        for seat, front in enumerate(observation["fronts"]):
            if seat != me:
                for value, size in enumerate(_pile_sizes(front)):
                    opposing[value] += size
        plate = observation["plates"][me]
        held = [numbers + wilds for numbers, wilds in zip(plate["numbers"], plate["wilds"], strict=True)]
        best: int = max(legal_actions, key=lambda number: (opposing[number - 1], held[number - 1], -number))
        return best

    def _special_worth(self, observation: Observation, action: list[Any]) -> float:
        kind = action[0]
        me = observation["seat"]
        if kind == "decline":
            return 0.0
        if kind == "score":
            pile: int = action[1] - 1
            return 0.5 * _pile_sizes(observation["fronts"][me])[pile]
        seat: int = action[1]
        value: int = action[2] - 1
        size = _pile_sizes(observation["fronts"][seat])[value]
        if kind == "steal":
            return 2.0 * size
        return -size if seat == me else 1.0 * size
