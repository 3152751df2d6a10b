"""Playing one league match from plain data: no database. The worker's seam between the league and `games/`.

A seat is a `SeatBot`: a built-in strategy with parameters (the runner times it when it returns: a move over
its time limit forfeits), or an external program (hard time-out, see `league.bots.external`), which the record
names by its bot definition, since the program is not a bot of the registry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.core.runner import SeatPlayer, bot_seed, play_match
from league.bots.external import ExternalSeats, Limits


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


def play_league_match(
    *, game_id: str, options: Mapping[str, Any], seed: int, seats: Sequence[SeatBot]
) -> dict:
    """Play one match and return its record; every external program started is stopped before returning."""
    with ExternalSeats() as programs:
        players = [
            programs.seat(
                label=seat.label, command=seat.command, limits=seat.limits, seed=bot_seed(seed, index)
            )
            if seat.is_external
            else SeatPlayer(seat.strategy, dict(seat.params), move_time_limit=seat.limits.move_seconds)
            for index, seat in enumerate(seats)
        ]
        record = play_match(game_id, len(seats), players, seed, options=options)
        programs.finish(record["outcome"])
    return record
