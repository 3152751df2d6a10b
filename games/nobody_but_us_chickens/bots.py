"""Bots for Nobody but Us Chickens.

`heuristic` plays by the value of the coop and the cards it has seen. Every hand is known from the public
log (each seat's hand is its set minus the cards it played tonight), so for each card it could send it plays
out the rest of the night a few times: the others' picks this hour drawn from their actual remaining hands,
then every seat (itself included) picking at random, each take grabbing the best Chicken left. It scores
each card by its points tonight minus the others' average, and picks by a softmax of those scores, so it is
randomized (from its seeded generator) and cannot be read. A take always grabs the most valuable Chicken
in the coop (Prize, Plump, Healthy, then Sickly), which is what each taker wants in a race for the coop.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from games.core.bot import Bot
from games.core.spec import Option
from games.core.state import Action, Observation
from games.nobody_but_us_chickens.rules import (
    CARD_INDEX,
    CARD_NAMES,
    DOG,
    FOX,
    HEALTHY,
    PLUMP,
    PRIZE,
    RAT,
    SICKLY,
    TAKE_INDEX,
    chicken_points,
    names_to_counts,
)

BEST_FIRST = (PRIZE, PLUMP, HEALTHY, SICKLY)


def greedy_hour(
    hands: list[list[int]],
    coop: list[int],
    claimed: list[list[int]],
    picks: Sequence[int],
    fox_king: int,
    lone_dog_powerless: bool,
) -> None:
    """Play one hour in place (the rules of `NobodyButUsChickensState`), each take the best Chicken."""
    n = len(picks)
    dogs = 0
    for seat in range(n):
        card = picks[seat]
        hands[seat][card] -= 1
        if card < FOX:
            coop[card] += 1
        elif card == DOG:
            dogs += 1
    foxes = [(fox_king + step) % n for step in range(n) if picks[(fox_king + step) % n] == FOX]
    rats = [(fox_king + step) % n for step in range(n) if picks[(fox_king + step) % n] == RAT]
    if not foxes and not rats:
        return
    if dogs and not (dogs == 1 and lone_dog_powerless):
        once: list[int] = []
        repeating = [
            (fox_king - 1 - step) % n for step in range(n) if picks[(fox_king - 1 - step) % n] == DOG
        ]
    else:
        once = foxes + rats
        repeating = foxes
    turn = 0
    while once or repeating:
        for chicken in BEST_FIRST:
            if coop[chicken]:
                break
        else:
            return
        if once:
            seat = once.pop(0)
        else:
            seat = repeating[turn % len(repeating)]
            turn += 1
        coop[chicken] -= 1
        claimed[seat][chicken] += 1


def night_points(pile: Sequence[int], healthy_coop: bool) -> int:
    """A night's points for Chickens claimed (counts by kind), with the Healthy Coop bonus if played."""
    points = chicken_points(pile)
    if healthy_coop and not pile[SICKLY] and (pile[HEALTHY] or pile[PLUMP] or pile[PRIZE]):
        points += 1
    return points


class HeuristicBot(Bot):
    """Values each card by short playouts of the rest of the night; picks by a softmax of the values."""

    name = "heuristic"
    version = 1  # bump when its choices change (games.core.bot.Bot.version)
    summary = (
        "plays by coop value and cards seen: scores each card by playouts of the rest of the night from the "
        "known hands, picks by a softmax of the scores (randomized, so it cannot be read); takes the best "
        "Chicken"
    )
    params = (
        Option(
            "playouts",
            "int",
            12,
            help="playouts of the rest of the night per card considered",
            min=1,
            max=500,
        ),
        Option(
            "temperature",
            "float",
            0.6,
            help="softmax temperature in points: higher mixes more, 0 always plays the best-scored card",
            min=0.0,
            max=100.0,
        ),
    )
    games = ("nobody_but_us_chickens",)

    def act(self, observation: Observation | None, legal_actions: list[Action]) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        if observation is None:
            raise ValueError("the heuristic bot needs its observation")
        if observation["phase"] == "take":
            return min(legal_actions, key=lambda name: BEST_FIRST.index(TAKE_INDEX[name]))
        values = self.card_values(observation, [CARD_INDEX[name] for name in legal_actions])
        return CARD_NAMES[self.mix(values)]

    def card_values(self, observation: Observation, candidates: list[int]) -> dict[int, float]:
        """Mean (own night points minus the others' mean) over playouts, for each card the seat may send."""
        me = observation["seat"]
        n = observation["num_players"]
        options = observation["options"]
        lone_dog_powerless = options["lone_dog_powerless"]
        healthy_coop = options["healthy_coop"]
        hands = [names_to_counts(hand, 7) for hand in observation["hands"]]
        coop = names_to_counts(observation["coop"], 4)
        claimed = [names_to_counts(pile, 4) for pile in observation["claimed"]]
        fox_king = observation["fox_king"]
        playouts = self.config["playouts"]
        rng = self.rng
        totals = dict.fromkeys(candidates, 0.0)
        for _ in range(playouts):
            others = [rng.choice([k for k in range(7) if hand[k]]) for hand in hands]
            seed = rng.getrandbits(32)
            for card in candidates:
                picks = others[:]
                picks[me] = card
                sim_hands = [hand[:] for hand in hands]
                sim_coop = coop[:]
                sim_claimed = [pile[:] for pile in claimed]
                greedy_hour(sim_hands, sim_coop, sim_claimed, picks, fox_king, lone_dog_powerless)
                playout_rng = random.Random(seed)
                while sum(sim_hands[0]):
                    picks = [playout_rng.choice([k for k in range(7) if hand[k]]) for hand in sim_hands]
                    greedy_hour(sim_hands, sim_coop, sim_claimed, picks, fox_king, lone_dog_powerless)
                points = [night_points(pile, healthy_coop) for pile in sim_claimed]
                mine = points[me]
                totals[card] += mine - (sum(points) - mine) / (n - 1)
        return {card: total / playouts for card, total in totals.items()}

    def mix(self, values: dict[int, float]) -> int:
        """A card drawn with probability proportional to exp(value / temperature); the best at temperature
        0."""
        best = max(values.values())
        temperature = self.config["temperature"]
        if temperature == 0:
            return next(card for card, value in values.items() if value == best)
        weights = [math.exp((value - best) / temperature) for value in values.values()]
        return self.rng.choices(list(values), weights)[0]
