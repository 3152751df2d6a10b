"""A small game that exercises every part of the engine contract, for testing the core alone.

High Hand: a deck of two cards of each value 1..`max_card`. Chance deals each seat one hidden card. Then each
seat in turn keeps its card or redraws (the old card is discarded face up; the new one is a chance draw).
Then all seats bid 0, 1 or 2 at once (a simultaneous step). Score: card + bid when the card is 4 or more,
card - bid otherwise. Highest score wins; equal scores share a place.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.core.bot import Bot
from games.core.spec import GameSpec, Option
from games.core.state import Game, Outcome, State, places_from_keys

SPEC = GameSpec(
    id="toy_high_hand",
    version=1,
    name="High Hand (test game)",
    min_players=2,
    max_players=4,
    options=(Option("max_card", "int", 6, "highest card value", min=3, max=9),),
    score_order="high",
)


class HighHandState(State):
    def __init__(self, num_players: int, options: Mapping[str, Any], rng: random.Random | None):
        self.num_players = num_players
        self.options = dict(options)
        self.rng = rng
        self.deck = [v for v in range(1, options["max_card"] + 1) for _ in range(2)]
        self.hands: list[int | None] = [None] * num_players
        self.discards: list[int] = []
        self.phase = "deal"
        self.turn = 0
        self.redrawing = False
        self.bids: list[int | None] = [None] * num_players

    def clone(self) -> HighHandState:
        other = HighHandState.__new__(HighHandState)
        other.num_players = self.num_players
        other.options = self.options
        other.rng = None
        other.deck = self.deck[:]
        other.hands = self.hands[:]
        other.discards = self.discards[:]
        other.phase = self.phase
        other.turn = self.turn
        other.redrawing = self.redrawing
        other.bids = self.bids[:]
        return other

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance(self) -> bool:
        return self.phase == "deal" or self.redrawing

    def deciders(self) -> tuple[int, ...]:
        if self.phase == "turns" and not self.redrawing:
            return (self.turn,)
        if self.phase == "bid":
            return tuple(range(self.num_players))
        return ()

    def legal_actions(self, seat: int) -> list:
        return ["keep", "redraw"] if self.phase == "turns" else [0, 1, 2]

    def _apply(self, actions: Mapping[int, Any]) -> None:
        if self.phase == "turns":
            if actions[self.turn] == "redraw":
                self.discards.append(self.hands[self.turn])
                self.hands[self.turn] = None
                self.redrawing = True
            else:
                self._next_turn()
        else:
            for seat, bid in actions.items():
                self.bids[seat] = bid
            self.phase = "over"

    def _next_turn(self) -> None:
        self.turn += 1
        if self.turn == self.num_players:
            self.phase = "bid"

    def sample_chance(self, rng: random.Random) -> Any:
        if self.phase == "deal":
            return rng.sample(self.deck, self.num_players)
        return rng.choice(self.deck)

    def chance_is_possible(self, outcome: Any) -> bool:
        remaining = self.deck[:]
        cards = outcome if self.phase == "deal" else [outcome]
        if not isinstance(cards, list) or len(cards) != (self.num_players if self.phase == "deal" else 1):
            return False
        for card in cards:
            if type(card) is not int or card not in remaining:
                return False
            remaining.remove(card)
        return True

    def _apply_chance(self, outcome: Any) -> None:
        if self.phase == "deal":
            for seat, card in enumerate(outcome):
                self.deck.remove(card)
                self.hands[seat] = card
            self.phase = "turns"
        else:
            self.deck.remove(outcome)
            self.hands[self.turn] = outcome
            self.redrawing = False
            self._next_turn()

    def scores(self) -> list[int]:
        out = []
        for card, bid in zip(self.hands, self.bids, strict=True):
            card = card or 0
            bid = bid or 0
            out.append(card + bid if card >= 4 else card - bid)
        return out

    def outcome(self) -> Outcome:
        scores = self.scores()
        return Outcome(places_from_keys(scores), tuple(scores))

    def observation(self, seat: int) -> dict:
        return {
            "seat": seat,
            "num_players": self.num_players,
            "options": dict(self.options),
            "phase": self.phase,
            "turn": self.turn,
            "redrawing": self.redrawing,
            "hand": self.hands[seat],
            "discards": self.discards[:],
            "deck_size": len(self.deck),
            "bids": self.bids[:] if self.phase == "over" else None,
            "hands": self.hands[:] if self.phase == "over" else None,
        }


class HighHand(Game):
    spec = SPEC

    def new_state(self, num_players: int, options: Mapping[str, Any], rng: random.Random) -> HighHandState:
        return HighHandState(num_players, options, rng)

    def sample_state(self, observation: dict, rng: random.Random) -> HighHandState:
        state = HighHandState(observation["num_players"], observation["options"], None)
        seat = observation["seat"]
        if observation["phase"] == "deal":
            return state
        unseen = state.deck[:]
        for card in observation["discards"] + ([observation["hand"]] if observation["hand"] else []):
            unseen.remove(card)
        rng.shuffle(unseen)
        state.discards = observation["discards"][:]
        state.phase = observation["phase"]
        state.turn = observation["turn"]
        state.redrawing = observation["redrawing"]
        for other in range(state.num_players):
            if other == seat:
                state.hands[other] = observation["hand"]
            elif not (state.redrawing and other == state.turn):
                state.hands[other] = unseen.pop()
        state.deck = sorted(unseen)
        return state


class KeepHighBot(Bot):
    """Keeps a card of 4 or more, bids 2 on it and 0 otherwise."""

    name = "keep_high"
    summary = "keeps 4 or more"
    games = ("toy_high_hand",)
    params = (Option("threshold", "int", 4, min=1, max=9),)

    def act(self, observation, legal_actions):
        high = (observation["hand"] or 0) >= self.config["threshold"]
        if "keep" in legal_actions:
            return "keep" if high else "redraw"
        return 2 if high else 0


class RaisingBot(Bot):
    name = "raises"
    games = ("toy_high_hand",)

    def act(self, observation, legal_actions):
        raise RuntimeError("bot crashed")


class IllegalBot(Bot):
    name = "illegal"
    games = ("toy_high_hand",)

    def act(self, observation, legal_actions):
        return "fold"


class SlowBot(Bot):
    """Overruns a move time limit below a second by sleeping a second: a limit of half a second catches it,
    and is still generous enough that the other seats never overrun it on a loaded machine."""

    name = "slow"
    games = ("toy_high_hand",)

    def act(self, observation, legal_actions):
        import time

        time.sleep(1.0)
        return legal_actions[0]


GAME = HighHand()
BOTS = (KeepHighBot, RaisingBot, IllegalBot, SlowBot)
