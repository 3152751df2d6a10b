"""External-program bots in the workers' sandbox: a command that speaks the bot protocol
(docs/bot-protocol.md) over stdin/stdout, through the protocol's client `games.core.protocol` (which says what
a program must answer and when it forfeits).

Pure Python: no Django. The league's worker hands the runner one seat per program through `ExternalSeats`:
to the runner an `ExternalBot` is a plain `Bot`; `ExternalSeats` starts one process per seat, each in the
sandbox (`league.programs.sandbox`) as a slot user of its own, and stops every one of them when the match
ends. The record holds only a forfeit's code; its words, and the last `OUTPUT_LIMIT` bytes the program wrote
to its standard error, go to the seat's `ProgramLog`, which the league shows only to the bot's author and
staff: nothing a program prints is ever public.

A sandbox that cannot be had (no bubblewrap, every slot user busy) raises `SandboxUnavailable` out of the
match, before any seat plays: that is the worker's fault, not the bot's, so no seat forfeits for it.
"""

from __future__ import annotations

import os
import random
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

from games.core.bot import Bot
from games.core.protocol import (
    MAX_ANSWER_BYTES,
    OUTPUT_LIMIT,
    ExternalBotError,
    Limits,
    ProgramPipes,
    ProtocolBot,
    bank_text,
)
from games.core.runner import SeatPlayer
from games.core.state import Game
from league.programs.sandbox import (
    PROGRAM_MOUNT,
    SAFE_PATH,
    ProgramLimits,
    Sandbox,
    SandboxRefused,
    kill_sandbox,
)

__all__ = [
    "MAX_ANSWER_BYTES",
    "OUTPUT_LIMIT",
    "ExternalBot",
    "ExternalBotError",
    "ExternalSeats",
    "Limits",
    "ProgramProcess",
    "SeatLog",
    "resolve_command",
]


def resolve_command(command: Sequence[str]) -> list[str]:
    """The command with its program made an absolute path, or ExternalBotError when it does not exist here.

    A bare name is looked up on the bots' `PATH` (not the worker's); a path must be absolute, since the
    program runs in a fresh empty folder. A path under `PROGRAM_MOUNT` (a C program's executable) is the
    uploaded program's folder as its sandbox shows it, and is taken as it is.
    """
    if not command or not all(isinstance(part, str) and part for part in command):
        raise ExternalBotError("crashed", "the command must be a program followed by its arguments")
    program = command[0]
    if program.startswith(PROGRAM_MOUNT + "/"):  # an uploaded program's own executable, inside its sandbox
        return list(command)
    if "/" in program:
        if not os.path.isabs(program):
            raise ExternalBotError("crashed", f"give the program as an absolute path, not {program!r}")
        found = program if os.access(program, os.X_OK) and os.path.isfile(program) else None
    else:
        found = shutil.which(program, path=SAFE_PATH)
    if found is None:
        raise ExternalBotError("crashed", f"no executable program {program!r} on this machine")
    return [found, *command[1:]]


class ProgramProcess(ProgramPipes):
    """One running bot program in its sandbox, spoken to through the protocol's client.

    Holds its slot user from start to `close()`; raises SandboxUnavailable if it cannot get one. Every
    deadline is kept on `clock` (seconds; `time.monotonic` unless a test injects another). Each process's
    address space is `address_space_mb` where its runtime needs it raised (Node:
    `league.programs.runtimes.runtime_limits`), else the bot's memory; the machine's memory budget counts it
    at the bot's memory either way (a Node program's heap is bounded by it, `--max-old-space-size`).
    """

    def __init__(
        self,
        command: Sequence[str],
        limits: Limits,
        sandbox: Sandbox,
        program_dir: str | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        address_space_mb: int | None = None,
    ):
        command = resolve_command(command)
        self._stack = ExitStack()
        try:
            self._stack.enter_context(sandbox.memory(limits.memory_mb))  # room first, then a slot user
            self.user = self._stack.enter_context(sandbox.slot())
            process = sandbox.popen(
                command,
                ProgramLimits(cpu_seconds=limits.cpu_seconds, memory_mb=address_space_mb or limits.memory_mb),
                self.user,
                program_dir=program_dir,
            )
        except SandboxRefused as exc:
            self._stack.close()
            raise ExternalBotError("crashed", str(exc)) from None
        except BaseException:
            self._stack.close()
            raise
        self._stack.callback(kill_sandbox, process)
        super().__init__(process, limits, kill=kill_sandbox, clock=clock)

    def _stop(self) -> None:
        self._stack.close()  # kills the sandbox, then sweeps and frees the slot


@dataclass
class SeatLog:
    """What staff may read of one program's match: why it forfeited, in words, and what it printed."""

    seat: int
    label: str
    forfeit: str = ""
    detail: str = ""
    output: str = ""
    output_bytes: int = 0
    bank: str = ""  # its time bank after each decision, in words (`games.core.protocol.bank_text`)


class ExternalBot(ProtocolBot):
    """A seat played by an external program in the sandbox (made through `ExternalSeats`, not by the
    registry); the program starts when the match starts (`games.core.protocol.ProtocolBot`)."""

    def __init__(
        self,
        game: Game,
        seat: int,
        num_players: int,
        options: Mapping[str, Any],
        rng: random.Random,
        command: Sequence[str],
        limits: Limits,
        seed: str,
        sandbox: Sandbox,
        program_dir: str | None = None,
        program_error: str = "",
        clock: Callable[[], float] = time.monotonic,
        address_space_mb: int | None = None,
    ):
        def start() -> ProgramPipes:
            return ProgramProcess(
                command, limits, sandbox, program_dir, clock=clock, address_space_mb=address_space_mb
            )

        super().__init__(
            game, seat, num_players, options, rng, limits, seed, start, program_error=program_error
        )


class ExternalSeats:
    """The external programs of one match: their seats for the runner, and the cleanup of every process.

    Use as a context manager around `play_match`; `seat(...)` is the `SeatPlayer` of one program (its sandbox
    starts with the match), `finish(outcome)` tells every program the result and stops it, and `logs(details)`
    is then what staff may read of each program (`details`: the runner's `forfeit_details`). The programs'
    move clocks run on `clock` (`time.monotonic` unless a test injects another).
    """

    def __init__(self, sandbox: Sandbox, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.sandbox = sandbox
        self.clock = clock
        self.bots: list[tuple[str, ExternalBot]] = []

    def seat(
        self,
        *,
        label: str,
        command: Sequence[str],
        limits: Limits,
        seed: str,
        external: Mapping[str, Any] | None = None,
        program_dir: str | None = None,
        program_error: str = "",
        address_space_mb: int | None = None,
    ) -> SeatPlayer:
        """The seat of one program, named `{"bot": "external", "params": {"definition": label}, "external":
        external}` in the record (`external`: the league's bot definition and version); `seed` is the seat's
        seed the program is told (`games.core.runner.bot_seed`). The program keeps its own hard time-out, so
        the runner's move-time check does not apply to it. An uploaded program's files are in `program_dir`;
        `program_error` says why they could not be had (the seat forfeits, `crashed`)."""

        def make(
            game: Game, seat: int, num_players: int, options: Mapping[str, Any], rng: random.Random
        ) -> Bot:
            bot = ExternalBot(
                game,
                seat,
                num_players,
                options,
                rng,
                command,
                limits,
                seed,
                self.sandbox,
                program_dir=program_dir,
                program_error=program_error,
                clock=self.clock,
                address_space_mb=address_space_mb,
            )
            self.bots.append((label, bot))
            return bot

        return SeatPlayer(ExternalBot.name, {"definition": label}, make=make, external=external)

    def finish(self, outcome: Mapping[str, Any] | None) -> None:
        errors = []
        for _, bot in self.bots:
            try:
                bot.finish(outcome)
            except Exception as exc:  # stop every program even if one sandbox will not go away
                errors.append(exc)
        if errors:
            raise errors[0]

    def logs(self, forfeits: Sequence[Mapping[str, Any]], details: Mapping[int, str]) -> list[SeatLog]:
        """Each program's log: its forfeit (code and words) if it forfeited, what it printed, and its time
        bank after each decision."""
        reasons = {forfeit["seat"]: forfeit["reason"] for forfeit in forfeits}
        logs = []
        for label, bot in self.bots:
            program = bot.program
            logs.append(
                SeatLog(
                    seat=bot.seat,
                    label=label,
                    forfeit=reasons.get(bot.seat, ""),
                    detail=details.get(bot.seat, ""),
                    output=program.output_text() if program is not None else "",
                    output_bytes=program.output_bytes if program is not None else 0,
                    bank=bank_text(bot.limits.time_bank_seconds, bot.bank_after),
                )
            )
        return logs

    def __enter__(self) -> ExternalSeats:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *exc_info: object) -> None:
        try:
            self.finish(None)
        except Exception:
            if exc_type is None:
                raise  # else the error already on its way out is the one to report
