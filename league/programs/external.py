"""External-program bots: a command that speaks the bot protocol (docs/bot-protocol.md) over stdin/stdout.

Pure Python: no Django. The league's worker hands the runner one seat per program through `ExternalSeats`:
to the runner an `ExternalBot` is a plain `Bot`; `ExternalSeats` starts one process per seat, each in the
sandbox (`league.programs.sandbox`) as a slot user of its own, and stops every one of them when the match
ends.

The protocol, one JSON value per line (the engine's canonical encoding):

- worker → bot, once: `{"type": "start", "game": ..., "version": ..., "seat": ..., "num_players": ...,
  "options": {...}, "seed": "..."}`
- worker → bot, at each decision: `{"type": "act", "observation": {...}, "legal_actions": [...]}`;
  bot → worker: `{"action": <one of legal_actions>}`
- worker → bot, at the end: `{"type": "end", "outcome": {...}}`, then stdin closes.

A bot that answers late (hard time-out: the sandbox is killed), exits, answers something that is not JSON or
not `{"action": ...}`, answers more than `MAX_ANSWER_BYTES` in one line, or answers an illegal action forfeits
its seat. An answer is read and parsed before the move clock stops (`ProgramProcess.read_answer`): the time
its parse takes is the bot's, so an answer that is slow to parse is that bot's time-out, and with the cap no
answer holds the worker longer than the parse of 64 KiB. The record holds only the reason's code
(`ExternalBotError.forfeit_reason`, one of `games.core.record.FORFEIT_REASONS`); the words, and the last
`OUTPUT_LIMIT` bytes the program wrote to its standard error, go to the seat's `ProgramLog`, which the league
shows only to the bot's author and staff: nothing a program prints is ever public.

A sandbox that cannot be had (no bubblewrap, every slot user busy) raises `SandboxUnavailable` out of the
match, before any seat plays: that is the worker's fault, not the bot's, so no seat forfeits for it.
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any, cast

from games.core.bot import Bot
from games.core.encoding import canonical_bytes
from games.core.runner import SeatPlayer
from games.core.state import Action, Game, Observation
from league.core.json_input import parse_json
from league.programs.sandbox import SAFE_PATH, ProgramLimits, Sandbox, SandboxRefused, kill_sandbox

# An answer's line, newline excluded. The largest legal action of any game over the goldens is 32 bytes as an
# answer (bench/answer_sizes.py, docs/bot-protocol.md): 64 KiB leaves room for any game to come.
MAX_ANSWER_BYTES = 64 << 10
OUTPUT_LIMIT = 8192  # bytes of a program's standard error kept for its author, per seat (its last ones)
EXIT_GRACE_SECONDS = 0.5
# bubblewrap exits with 128 + the signal that killed the program
SIGNAL_EXIT = 128
LIMIT_SIGNALS = {signal.SIGXCPU, signal.SIGXFSZ}


class ExternalBotError(Exception):
    """The program broke the protocol or a limit. `forfeit_reason` is the record's code; the message says
    what happened, in words (for the staff's log, never for the record)."""

    def __init__(self, forfeit_reason: str, message: str):
        super().__init__(message)
        self.forfeit_reason = forfeit_reason


@dataclass(frozen=True)
class Limits:
    """What one bot process may use.

    `move_seconds` is the wall-clock time allowed for each answer (the sandbox is killed when it runs out);
    `cpu_seconds` is the CPU time per process for the whole match; `memory_mb` caps each process's address
    space (the sandbox's processes are capped too: see `league.programs.sandbox`).
    """

    move_seconds: float = 1.0
    cpu_seconds: int = 60
    memory_mb: int = 512
    startup_seconds: float = 5.0


def resolve_command(command: Sequence[str]) -> list[str]:
    """The command with its program made an absolute path, or ExternalBotError when it does not exist here.

    A bare name is looked up on the bots' `PATH` (not the worker's); a path must be absolute, since the
    program runs in a fresh empty folder.
    """
    if not command or not all(isinstance(part, str) and part for part in command):
        raise ExternalBotError("crashed", "the command must be a program followed by its arguments")
    program = command[0]
    if "/" in program:
        if not os.path.isabs(program):
            raise ExternalBotError("crashed", f"give the program as an absolute path, not {program!r}")
        found = program if os.access(program, os.X_OK) and os.path.isfile(program) else None
    else:
        found = shutil.which(program, path=SAFE_PATH)
    if found is None:
        raise ExternalBotError("crashed", f"no executable program {program!r} on this machine")
    return [found, *command[1:]]


class ProgramProcess:
    """One running bot program in its sandbox: JSON lines in, one answer line out, with hard time-outs.

    Holds its slot user from start to `close()`; raises SandboxUnavailable if it cannot get one. Every
    deadline is kept on `clock` (seconds; `time.monotonic` unless a test injects another).
    """

    def __init__(
        self,
        command: Sequence[str],
        limits: Limits,
        sandbox: Sandbox,
        program_dir: str | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ):
        command = resolve_command(command)
        self.limits = limits
        self.clock = clock
        self.output = bytearray()
        self.output_bytes = 0
        self.buffer = b""
        self.closed = False
        self._stack = ExitStack()
        try:
            self._stack.enter_context(sandbox.memory(limits.memory_mb))  # room first, then a slot user
            self.user = self._stack.enter_context(sandbox.slot())
            self.process = sandbox.popen(
                command,
                ProgramLimits(cpu_seconds=limits.cpu_seconds, memory_mb=limits.memory_mb),
                self.user,
                program_dir=program_dir,
            )
        except SandboxRefused as exc:
            self._stack.close()
            raise ExternalBotError("crashed", str(exc)) from None
        except BaseException:
            self._stack.close()
            raise
        self._stack.callback(kill_sandbox, self.process)
        self.stdout = self.process.stdout.fileno()
        self.stderr = self.process.stderr.fileno()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            os.set_blocking(stream.fileno(), False)
        self.open_streams = {self.stdout, self.stderr}

    def _drain(self, readable: Sequence[int]) -> bool:
        """Read what is ready; returns False once stdout has closed."""
        for descriptor in readable:
            try:
                chunk = os.read(descriptor, 65536)
            except BlockingIOError:
                continue
            if descriptor == self.stderr:
                if not chunk:
                    self.open_streams.discard(self.stderr)
                self.output_bytes += len(chunk)
                self.output += chunk
                del self.output[:-OUTPUT_LIMIT]
                continue
            if not chunk:
                self.open_streams.discard(self.stdout)
                return False
            self.buffer += chunk
        return True

    def send(self, message: Mapping[str, Any]) -> None:
        """Write one message line; a program that stops reading gets the move time to drain it, then is
        killed."""
        pending = memoryview(canonical_bytes(message) + b"\n")
        deadline = self.clock() + self.limits.move_seconds
        descriptor = self.process.stdin.fileno()
        while pending:
            left = deadline - self.clock()
            readable, writable, _ = select.select(list(self.open_streams), [descriptor], [], max(left, 0))
            self._drain([fd for fd in readable if fd == self.stderr])
            if writable:
                try:
                    written = os.write(descriptor, pending)
                except BlockingIOError:
                    continue
                except OSError:
                    raise self._exit_error("stopped reading its input") from None
                pending = pending[written:]
            elif self.clock() >= deadline:
                self.kill()
                raise ExternalBotError(
                    "timeout", f"did not read its input within {self.limits.move_seconds:g}s (killed)"
                )

    def read_line(self, seconds: float) -> bytes:
        """The next line the program writes, within `seconds`; kills the program when it runs out."""
        return self._read_line(self.clock() + seconds, seconds)

    def read_answer(self, seconds: float) -> Action:
        """The action of the program's next answer (`{"action": ...}`), read and parsed within `seconds`: the
        move clock stops once it is parsed, and the program is killed when it runs out. ExternalBotError says
        what is wrong with the answer."""
        deadline = self.clock() + seconds
        line = self._read_line(deadline, seconds)
        error = ""
        try:
            answer = parse_json(line.decode())
        except (ValueError, UnicodeDecodeError):
            error = f"answered something that is not JSON: {_excerpt(line)}"
        else:
            if not isinstance(answer, dict) or "action" not in answer:
                error = f'answered {_excerpt(line)}, not {{"action": ...}}'
        if self.clock() > deadline:
            self.kill()
            raise ExternalBotError(
                "timeout", f"its answer was not read within {seconds:g}s, parsing it included (killed)"
            )
        if error:
            raise ExternalBotError("protocol_error", error)
        return answer["action"]

    def _read_line(self, deadline: float, seconds: float) -> bytes:
        while b"\n" not in self.buffer:
            if len(self.buffer) > MAX_ANSWER_BYTES:
                self.kill()
                raise _too_long()
            left = deadline - self.clock()
            if left <= 0:
                self.kill()
                raise ExternalBotError("timeout", f"no answer within {seconds:g}s (killed)")
            readable, _, _ = select.select(list(self.open_streams), [], [], left)
            if not self._drain(readable):
                raise self._exit_error("exited without answering")
        line, _, self.buffer = self.buffer.partition(b"\n")
        if len(line) > MAX_ANSWER_BYTES:
            self.kill()
            raise _too_long()
        return line

    def _exit_error(self, what: str) -> ExternalBotError:
        try:
            code = self.process.wait(timeout=EXIT_GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            return ExternalBotError("crashed", what)
        reason = "crashed"
        if code > SIGNAL_EXIT and code - SIGNAL_EXIT in signal.Signals._value2member_map_:
            number = signal.Signals(code - SIGNAL_EXIT)
            status = f"killed by {number.name}"
            if number in LIMIT_SIGNALS:
                reason = "limit_exceeded"
        else:
            status = f"exit status {code}"
        return ExternalBotError(reason, f"{what} ({status})")

    def output_text(self) -> str:
        """The last `OUTPUT_LIMIT` bytes the program wrote to its standard error (all of it once closed)."""
        return self.output.decode(errors="replace")

    def kill(self) -> None:
        kill_sandbox(self.process)

    def close(self) -> None:
        """Close stdin, give the program a moment to exit, then kill its sandbox and free its slot."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=EXIT_GRACE_SECONDS)
        try:
            self._stack.close()  # kills the sandbox, then sweeps and frees the slot
        finally:
            # Every writer of the pipe is dead now: what is left of standard error ends at end-of-file.
            with contextlib.suppress(OSError):
                while self.stderr in self.open_streams:
                    readable, _, _ = select.select([self.stderr], [], [], EXIT_GRACE_SECONDS)
                    if not readable:
                        break
                    self._drain(readable)
            self.open_streams.clear()
            self.process.stdout.close()
            self.process.stderr.close()


@dataclass
class SeatLog:
    """What staff may read of one program's match: why it forfeited, in words, and what it printed."""

    seat: int
    label: str
    forfeit: str = ""
    detail: str = ""
    output: str = ""
    output_bytes: int = 0


class ExternalBot(Bot):
    """A seat played by an external program (made through `ExternalSeats`, not by the registry).

    The program starts in its sandbox when the match starts (so that a worker without a free sandbox fails
    the match before it begins, rather than a seat); it is told the start of the match on its first decision.
    """

    name = "external"
    summary = "an external program speaking the bot protocol"

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
    ):
        super().__init__(game, seat, num_players, options, None, rng)
        self.limits = limits
        self.seed = seed
        self.started = False
        self.answered = False
        self.error: ExternalBotError | None = None
        self.program: ProgramProcess | None = None
        if program_error:
            self.error = ExternalBotError("crashed", program_error)
            return
        try:
            self.program = ProgramProcess(command, limits, sandbox, program_dir, clock=clock)
        except ExternalBotError as exc:
            self.error = exc  # the seat forfeits on its first decision

    def _start(self) -> None:
        self.started = True
        if self.error is not None:
            raise self.error
        program = cast(ProgramProcess, self.program)  # None only with an error, raised above
        program.send(
            {
                "type": "start",
                "game": self.game.spec.id,
                "version": self.game.spec.version,
                "seat": self.seat,
                "num_players": self.num_players,
                "options": dict(self.options),
                "seed": self.seed,
            }
        )

    def act(self, observation: Observation | None, legal_actions: list[Action]) -> Action:
        if not self.started:
            self._start()
        # The first answer may also pay for the program's start (an interpreter loading its modules).
        seconds = self.limits.move_seconds + (0.0 if self.answered else self.limits.startup_seconds)
        # None only with an error, which `_start` raised at the seat's first decision (its forfeit)
        program = cast(ProgramProcess, self.program)
        program.send({"type": "act", "observation": observation, "legal_actions": legal_actions})
        action = program.read_answer(seconds)
        self.answered = True
        return action

    def finish(self, outcome: Mapping[str, Any] | None) -> None:
        """Tell the program how the match ended (if it is still listening) and stop it."""
        if self.program is None or self.program.closed:
            return
        if outcome is not None and self.started and self.program.process.poll() is None:
            with contextlib.suppress(ExternalBotError):
                self.program.send({"type": "end", "outcome": dict(outcome)})
        self.program.close()


def _excerpt(line: bytes) -> str:
    text = line.decode(errors="replace")
    return repr(text if len(text) <= 80 else text[:77] + "...")


def _too_long() -> ExternalBotError:
    return ExternalBotError(
        "limit_exceeded",
        f"answered more than {MAX_ANSWER_BYTES:,} bytes in one line (64 KiB, the most an answer may take)",
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
        """Each program's log: its forfeit (code and words) if it forfeited, and what it printed."""
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
