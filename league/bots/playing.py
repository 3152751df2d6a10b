"""Playing one league match from plain data: no database. The worker's seam between the league and `games/`.

A seat is a `SeatBot`: a built-in strategy with parameters (timed when it returns: a move over its time
limit forfeits), or an external program (hard time-out, see `league.bots.external`). The record's seat of an
external program names the bot definition, since the program is not a bot of the registry.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games import registry
from games.core.bot import Bot
from games.core.runner import SeatPlayer, bot_seed, play_match
from games.core.state import Action, Observation
from league.bots.external import ExternalSeats, Limits


class MoveTimeExceeded(Exception):
    """An in-process bot returned after its move time limit."""


@dataclass(frozen=True)
class SeatBot:
    """What plays one seat: `strategy` and `params` for a built-in bot, `command` and `limits` for a program."""

    label: str
    strategy: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)
    command: tuple[str, ...] = ()
    limits: Limits = Limits()

    @property
    def is_external(self) -> bool:
        return bool(self.command)


class TimedBot(Bot):
    """Wraps an in-process bot: a move that returns after `seconds` raises, which forfeits the seat."""

    name = "timed"

    def __init__(self, inner: Bot, seconds: float):
        self.inner = inner
        self.seconds = seconds
        self.uses_observation = inner.uses_observation

    def act(self, observation: Observation | None, legal_actions: list[Action]) -> Action:
        started = time.perf_counter()
        action = self.inner.act(observation, legal_actions)
        elapsed = time.perf_counter() - started
        if elapsed > self.seconds:
            raise MoveTimeExceeded(f"took {elapsed:.3f}s, over the {self.seconds:g}s limit")
        return action


def play_league_match(
    *, game_id: str, options: Mapping[str, Any], seed: int, seats: Sequence[SeatBot]
) -> dict:
    """Play one match and return its record; every external program started is stopped before returning."""
    game = registry.get_game(game_id)
    num_players = len(seats)
    options = game.spec.validate_options(options, num_players)
    choices = [
        SeatPlayer("random") if seat.is_external else SeatPlayer(seat.strategy, dict(seat.params))
        for seat in seats
    ]

    with ExternalSeats() as programs:

        def factory(index: int, player: SeatPlayer) -> Bot:
            seat = seats[index]
            rng = random.Random(bot_seed(seed, index))
            if seat.is_external:
                return programs.bot(
                    game=game,
                    seat=index,
                    num_players=num_players,
                    options=options,
                    rng=rng,
                    command=seat.command,
                    limits=seat.limits,
                    seed=bot_seed(seed, index),
                )
            cls = registry.bot_class(player.name, game_id)
            return TimedBot(
                cls(game, index, num_players, options, player.params, rng), seat.limits.move_seconds
            )

        record = play_match(game_id, num_players, choices, seed, options=options, bot_factory=factory)
        programs.finish(record["outcome"])
    for index, seat in enumerate(seats):
        if seat.is_external:
            record["seats"][index] = {"bot": "external", "params": {"definition": seat.label}}
    return record
