"""Playing one league match from plain data: no database. The worker's seam between the league and `games/`.

A seat is a `SeatBot`: a built-in strategy with parameters (the runner times it when it returns: a move over
its time limit forfeits), or an external program (hard time-out, in the sandbox: see
`league.programs.external`), which the record names by its bot definition, since the program is not a bot of
the registry: its seat entry says `"external": {"definition": <the definition's name>, "version": <its
version>}`, so that strict verification (`games.core.verify`) lists the seat as not re-made. A built-in seat's
entry carries its strategy's own version (the runner writes it).

The record holds forfeit codes only; what each forfeited seat did, in words, and what each program printed
come back beside it in `LeagueMatch.logs`, for staff.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from games.core.runner import SeatPlayer, bot_seed, play_match
from league.programs.external import ExternalSeats, Limits, SeatLog
from league.programs.sandbox import Sandbox


@dataclass(frozen=True)
class SeatBot:
    """What plays one seat: `strategy` and `params` for a built-in bot, `command` and `limits` for a program;
    `definition` and `version` name the league's bot definition (written into a program's seat entry)."""

    label: str
    strategy: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)
    command: tuple[str, ...] = ()
    limits: Limits = Limits()
    definition: str = ""
    version: int | None = None
    # An uploaded program: its hash and files ([path, size, sha256] each), which `league.programs.programs.
    # seats_ready` turns into the folder its sandbox shows (`program_dir`), or why it could not be had
    # (`program_error`: the seat forfeits).
    program_sha256: str = ""
    program_files: tuple = ()
    program_dir: str | None = None
    program_error: str = ""
    # Its runtime (`league.programs.runtimes`: python, node, c), a C program's executable's hash (the folder
    # `seats_ready` puts in place holds it alone), and the address space of each of its processes when its
    # runtime raises it above the bot's memory (Node's; None: the bot's memory).
    runtime: str = ""
    program_build_sha256: str = ""
    address_space_mb: int | None = None

    @property
    def is_external(self) -> bool:
        return bool(self.command)


@dataclass(frozen=True)
class LeagueMatch:
    """A played match: its record (public) and its logs (for staff): one per forfeited seat or program."""

    record: dict
    logs: list[SeatLog]


def forfeit_decision(events: Sequence[Sequence[Any]], seat: int, event: int) -> int:
    """Which of its seat's decisions (1 for its first) a forfeit at event index `event` happened at."""
    key = str(seat)
    return 1 + sum(1 for kind, *rest in events[:event] if kind == "m" and key in rest[0])


def play_league_match(
    *,
    game_id: str,
    options: Mapping[str, Any],
    seed: int,
    seats: Sequence[SeatBot],
    sandbox: Sandbox | None = None,
) -> LeagueMatch:
    """Play one match; every external program started is stopped before returning.

    `sandbox` runs the external programs (required if a seat is one). Raises SandboxUnavailable, before any
    seat plays, when a program's sandbox cannot be had.
    """
    if sandbox is None and any(seat.is_external for seat in seats):
        raise ValueError("external programs play only in a sandbox")
    details: dict[int, str] = {}
    # None only when no seat is an external program (checked above), and then none starts.
    with ExternalSeats(cast(Sandbox, sandbox)) as programs:
        players = [
            programs.seat(
                label=seat.label,
                command=seat.command,
                limits=seat.limits,
                seed=bot_seed(seed, index),
                external={"definition": seat.definition or seat.label, "version": seat.version},
                program_dir=seat.program_dir,
                program_error=seat.program_error,
                address_space_mb=seat.address_space_mb,
            )
            if seat.is_external
            else SeatPlayer(seat.strategy, dict(seat.params), move_time_limit=seat.limits.move_seconds)
            for index, seat in enumerate(seats)
        ]
        record = play_match(game_id, len(seats), players, seed, options=options, forfeit_details=details)
        programs.finish(record["outcome"])
        forfeits = record["end"]["forfeits"]
        for forfeit in forfeits:
            seat = forfeit["seat"]
            who = "your program" if seats[seat].is_external else "the bot"
            decision = forfeit_decision(record["events"], seat, forfeit["event"])
            details[seat] = f"At decision {decision}, {who} {details.get(seat, 'forfeited')}"
        logs = {log.seat: log for log in programs.logs(forfeits, details)}
    for forfeit in forfeits:
        seat = forfeit["seat"]
        if seat not in logs:  # a built-in bot that forfeited: its words, for staff too
            logs[seat] = SeatLog(
                seat=seat, label=seats[seat].label, forfeit=forfeit["reason"], detail=details.get(seat, "")
            )
    return LeagueMatch(record=record, logs=[logs[seat] for seat in sorted(logs)])
