"""A game's reference for bot authors: what each key of its observation means, what its actions look like, and
real protocol messages made by the engine itself, so that the reference cannot drift from the game.

Each game package has a `reference` module whose `REFERENCE` is a `Reference` (`games.registry.reference`):
its `observation` names every key of the observation, each once, in an order that reads well (a message
sorts its keys; tests/games/test_reference.py holds each game to its keys over whole matches), and its
`actions` every form an action takes. `decisions` plays a seeded match with the built-in `random` bot in
every seat and returns the `start` message and the decisions one seat was asked, exactly as the protocol's
client sends them to a program in that seat: the site's docs show them (league.bots.docs), and the local
runner sends the same first `act` message to a program in seat 0 of `python -m games play GAME --seed SEED
--seat cmd:... --seat random ...`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games import registry
from games.core.bot import Bot
from games.core.encoding import canonical_json
from games.core.runner import SeatPlayer, bot_seed, play_match
from games.core.state import Action, Game, Observation


@dataclass(frozen=True)
class Entry:
    """One key of an observation (`name`), or one form of action (`name`: its pattern), and what it means."""

    name: str
    text: str


@dataclass(frozen=True)
class Reference:
    """A game's reference: `summary` says what the observation holds in one paragraph; `observation` has an
    entry per key of the observation; `actions` an entry per form of action, in the order a legal
    list gives them; `decisions` says which decisions a seat is asked (and which the engine makes itself)."""

    summary: str
    observation: tuple[Entry, ...]
    actions: tuple[Entry, ...]
    decisions: str
    example_players: int = 3


@dataclass(frozen=True)
class Decision:
    """One decision of a seat: its number among the seat's decisions (1 first), the `act` message the program
    gets, and the first of its legal actions as an answer."""

    number: int
    act: dict[str, Any]
    answer: dict[str, Any]


@dataclass(frozen=True)
class Example:
    """A seeded match's messages to one seat: the game, players, seed and seat; the `start` message; the
    seat's decisions picked (`Decision`); and how many decisions the seat had in the whole match."""

    game_id: str
    num_players: int
    seed: int
    seat: int
    start: dict[str, Any]
    decisions: tuple[Decision, ...]
    total_decisions: int


def decisions(
    game_id: str,
    *,
    num_players: int,
    seed: int,
    seat: int = 0,
    picks: tuple[int, ...] = (1,),
    options: Mapping[str, Any] | None = None,
) -> Example:
    """Play `game_id` from `seed` with the `random` bot in every seat and return what `seat` was sent: the
    `start` message and its decisions numbered `picks` (1: the first; a number past the seat's last decision
    picks the last one).

    The seat's random bot draws the same numbers as the registry's `random` (it only also keeps the
    observations it is given), so the match is `python -m games play GAME --seed SEED --seat random ...`."""
    random_class = registry.bot_class("random", game_id)
    asked: list[tuple[Observation, list[Action]]] = []

    class Watched(random_class):  # type: ignore[misc, valid-type]
        uses_observation = True  # the random bot reads none: this one keeps what a program would be given

        def act(self, observation: Observation, legal_actions: list[Action]) -> Action:
            asked.append((observation, list(legal_actions)))
            return super().act(observation, legal_actions)

    def make(game: Game, at: int, players: int, chosen: Mapping[str, Any], rng: random.Random) -> Bot:
        return Watched(game, at, players, chosen, None, rng)

    seats: list[str | SeatPlayer] = ["random"] * num_players
    seats[seat] = SeatPlayer("random", make=make)
    game = registry.get_game(game_id)
    valid = game.spec.validate_options(options, num_players)
    play_match(game_id, num_players, seats, seed, options=valid)
    start = {
        "type": "start",
        "game": game.spec.id,
        "version": game.spec.version,
        "seat": seat,
        "num_players": num_players,
        "options": dict(valid),
        "seed": bot_seed(seed, seat),
    }
    picked = []
    for number in picks:
        index = min(number, len(asked)) - 1
        observation, legal = asked[index]
        # Through the canonical JSON, as the protocol's client writes it: tuples become lists, and so on.
        act = json.loads(canonical_json({"type": "act", "observation": observation, "legal_actions": legal}))
        picked.append(Decision(number=index + 1, act=act, answer={"action": act["legal_actions"][0]}))
    return Example(game.spec.id, num_players, seed, seat, start, tuple(picked), len(asked))
