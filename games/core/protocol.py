"""The bot protocol's client (docs/bot-protocol.md): a program that plays a seat by JSON lines over its
standard streams, read and written with hard time-outs. No sandbox here: the league's workers start each
program in theirs (`league.programs.external`) and play it through this very code; `local_program` starts one
as a plain child process, for an author trying their program on their own machine.

The protocol, one JSON value per line (the engine's canonical encoding):

- runner → bot, once: `{"type": "start", "game": ..., "version": ..., "seat": ..., "num_players": ...,
  "options": {...}, "seed": "..."}`
- runner → bot, at each decision: `{"type": "act", "observation": {...}, "legal_actions": [...]}`;
  bot → runner: `{"action": <one of legal_actions>}`
- runner → bot, at the end: `{"type": "end", "outcome": {...}}`, then stdin closes.

A bot that answers late (hard time-out: the program is killed), exits, answers something that is not JSON or
not `{"action": ...}`, answers more than `MAX_ANSWER_BYTES` in one line, or answers an illegal action forfeits
its seat. An answer is read and parsed before the move clock stops (`ProgramPipes.read_answer`): the time
its parse takes is the bot's, so an answer that is slow to parse is that bot's time-out, and with the cap no
answer holds the runner longer than the parse of 64 KiB (`games.core.json_bounds.parse_json`). The record
holds only the reason's code (`ExternalBotError.forfeit_reason`, one of `games.core.record.FORFEIT_REASONS`);
the words, and the last `OUTPUT_LIMIT` bytes the program wrote to its standard error, are kept beside it
(`ProgramPipes.output_text`).
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any, Protocol, cast

from games.core.bot import Bot
from games.core.encoding import canonical_bytes
from games.core.json_bounds import parse_json
from games.core.runner import SeatPlayer
from games.core.state import Action, Game, Observation

# An answer's line, newline excluded. The largest legal action of any game over the goldens is 32 bytes as an
# answer (bench/answer_sizes.py, docs/bot-protocol.md): 64 KiB leaves room for any game to come.
MAX_ANSWER_BYTES = 64 << 10
OUTPUT_LIMIT = 8192  # bytes of a program's standard error kept for its author, per seat (its last ones)
# Each program's time bank per match, as the league's bots have it unless their author sets another (0 to 60).
TIME_BANK_SECONDS = 10.0
EXIT_GRACE_SECONDS = 0.5
# bubblewrap exits with 128 + the signal that killed the program
SIGNAL_EXIT = 128
LIMIT_SIGNALS = {signal.SIGXCPU, signal.SIGXFSZ}
LIMIT_WORDS = {signal.SIGXCPU: "over its CPU time", signal.SIGXFSZ: "over its file size"}


class ExternalBotError(Exception):
    """The program broke the protocol or a limit. `forfeit_reason` is the record's code; the message says
    what happened, in words (for the author's and staff's log, never for the record)."""

    def __init__(self, forfeit_reason: str, message: str):
        super().__init__(message)
        self.forfeit_reason = forfeit_reason


@dataclass(frozen=True)
class Limits:
    """What one bot process may use.

    `move_seconds` is the wall-clock time allowed for each answer (the program is killed when it runs out),
    and the first answer has `startup_seconds` more; `time_bank_seconds` is the program's time bank for the
    whole match: an answer over its allowance draws the excess from it, and an answer that would overdraw it
    is a time-out (`ProtocolBot`). `cpu_seconds` is the CPU time per process for the whole match and
    `memory_mb` caps each process's address space (the league's sandbox enforces both:
    `league.programs.sandbox`).
    """

    move_seconds: float = 1.0
    cpu_seconds: int = 60
    memory_mb: int = 512
    startup_seconds: float = 5.0
    time_bank_seconds: float = 0.0

    def allowance(self) -> str:
        """The time an answer may take, in words (every time-out's text, and the pages, state it)."""
        return (
            f"{self.move_seconds:g} s a move, and {self.startup_seconds:g} s more for the first answer "
            "(the program's start-up)"
        )


class PipedProcess(Protocol):
    """A running program whose three standard streams are pipes: a `subprocess.Popen`."""

    pid: int
    stdin: IO[bytes]
    stdout: IO[bytes]
    stderr: IO[bytes]

    def poll(self) -> int | None: ...

    def wait(self, timeout: float | None = None) -> int: ...


class ProgramPipes:
    """One running bot program: JSON lines in, one answer line out, with hard time-outs.

    `process` is started by the caller; `kill` stops it for good (and waits for it), when the program runs
    out of time and at `close`. Every deadline is kept on `clock` (seconds; `time.monotonic` unless a test
    injects another).
    """

    def __init__(
        self,
        process: PipedProcess,
        limits: Limits,
        *,
        kill: Callable[[PipedProcess], None],
        clock: Callable[[], float] = time.monotonic,
    ):
        self.process = process
        self.limits = limits
        self.clock = clock
        self._kill = kill
        self.output = bytearray()
        self.output_bytes = 0
        self.buffer = b""
        self.closed = False
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
                    raise self._exit_error("before reading its input") from None
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
                "timeout", f"answered too slowly: not read within {seconds:g} s, parsing it included (killed)"
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
                raise ExternalBotError("timeout", f"gave no answer within {seconds:g} s (killed)")
            readable, _, _ = select.select(list(self.open_streams), [], [], left)
            if not self._drain(readable):
                raise self._exit_error("before answering")
        line, _, self.buffer = self.buffer.partition(b"\n")
        if len(line) > MAX_ANSWER_BYTES:
            self.kill()
            raise _too_long()
        return line

    def _exit_error(self, what: str) -> ExternalBotError:
        try:
            code = self.process.wait(timeout=EXIT_GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            return ExternalBotError("crashed", f"closed its output {what}")
        reason = "crashed"
        # A plain child killed by a signal exits with its negative number, a sandboxed one with 128 + it.
        killed = -code if code < 0 else code - SIGNAL_EXIT if code > SIGNAL_EXIT else 0
        if killed in signal.Signals._value2member_map_:
            number = signal.Signals(killed)
            status = f"was killed by {number.name}"
            if number in LIMIT_SIGNALS:
                reason = "limit_exceeded"
                status += f" ({LIMIT_WORDS[number]})"
        else:
            status = f"exited with status {code}"
        return ExternalBotError(reason, f"{status} {what}")

    def output_text(self) -> str:
        """The last `OUTPUT_LIMIT` bytes the program wrote to its standard error (all of it once closed)."""
        return self.output.decode(errors="replace")

    def kill(self) -> None:
        self._kill(self.process)

    def _stop(self) -> None:
        """Stop the program for good once it had its moment to exit (`close`)."""
        self.kill()

    def close(self) -> None:
        """Close stdin, give the program a moment to exit, then kill it."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=EXIT_GRACE_SECONDS)
        try:
            self._stop()
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


def kill_process(process: PipedProcess) -> None:
    """Kill a program started as a plain child process, and wait for it."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGKILL)
    process.wait()


def local_program(
    command: Sequence[str],
    limits: Limits,
    *,
    clock: Callable[[], float] = time.monotonic,
    preexec: Callable[[], None] | None = None,
) -> ProgramPipes:
    """`command` started on this machine as a plain child process, with no sandbox: for an author's own
    program on their own machine, never for a program someone else wrote. `preexec` runs in the child before
    the program (its limits: `games.core.local.rlimits`). ExternalBotError if it cannot start."""
    try:
        process = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            preexec_fn=preexec,  # sets resource limits only
        )
    except OSError as exc:
        raise ExternalBotError("crashed", f"could not start {command[0]!r}: {exc}") from None
    return ProgramPipes(cast(PipedProcess, process), limits, kill=kill_process, clock=clock)


class ProtocolBot(Bot):
    """A seat played by a program speaking the bot protocol: a plain `Bot` to the runner.

    `start` starts the program when the match starts (so that a runner that cannot start it, a worker
    without a free sandbox say, fails the match before it begins, rather than a seat); the program is told
    the start of the match on its first decision. An ExternalBotError from `start`, or `program_error`, is
    the seat's forfeit at its first decision.

    The time bank: each answer may take its allowance (the move time, plus the start-up allowance for the
    first) and what is left of the bank; the time it takes over its allowance is drawn from the bank, and an
    answer not read within both is a `timeout`. `bank_after` holds the bank's seconds after each decision
    (for the program's log), `bank` what is left.
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
        limits: Limits,
        seed: str,
        start: Callable[[], ProgramPipes],
        program_error: str = "",
    ):
        super().__init__(game, seat, num_players, options, None, rng)
        self.limits = limits
        self.seed = seed
        self.started = False
        self.answered = False
        self.error: ExternalBotError | None = None
        self.program: ProgramPipes | None = None
        self.bank = float(limits.time_bank_seconds)
        self.bank_after: list[float] = []
        if program_error:
            self.error = ExternalBotError("crashed", program_error)
            return
        try:
            self.program = start()
        except ExternalBotError as exc:
            self.error = exc  # the seat forfeits on its first decision

    def _start(self) -> None:
        self.started = True
        if self.error is not None:
            raise self.error
        program = cast(ProgramPipes, self.program)  # None only with an error, raised above
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
        allowance = self.limits.move_seconds + (0.0 if self.answered else self.limits.startup_seconds)
        # None only with an error, which `_start` raised at the seat's first decision (its forfeit)
        program = cast(ProgramPipes, self.program)
        try:
            program.send({"type": "act", "observation": observation, "legal_actions": legal_actions})
            started = program.clock()
            action = program.read_answer(allowance + self.bank)
        except ExternalBotError as exc:
            if exc.forfeit_reason != "timeout":
                raise
            if self.limits.time_bank_seconds > 0:
                spent, self.bank = self.bank, 0.0
                self.bank_after.append(0.0)
                raise ExternalBotError(
                    "timeout",
                    f"gave no answer within {allowance:g} s and the {spent:.3f} s left in its time bank "
                    f"(killed): {self.limits.allowance()}",
                ) from None
            raise ExternalBotError("timeout", f"{exc}: {self.limits.allowance()}") from None
        self.bank = max(0.0, self.bank - max(0.0, program.clock() - started - allowance))
        self.bank_after.append(self.bank)
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


def bank_text(start: float, bank_after: Sequence[float]) -> str:
    """A time bank's account, in words: the decisions that drew on it and what each left, and what was left
    at the end (the program's log, the local runner's account); "" without a bank. `bank_after`: the bank
    after each decision."""
    if not start:
        return ""
    draws, before = [], start
    for number, left in enumerate(bank_after, 1):
        if left < before:
            draws.append(f"decision {number} ({left:.3f}s left)")
        before = left
    decisions = f"{len(bank_after)} decision{'' if len(bank_after) == 1 else 's'}"
    if not draws:
        return f"time bank of {start:g}s, untouched over {decisions}"
    return f"time bank of {start:g}s, drawn on at {', '.join(draws)}; {before:.3f}s left after {decisions}"


def _excerpt(line: bytes) -> str:
    text = line.decode(errors="replace")
    return repr(text if len(text) <= 80 else text[:77] + "...")


def _too_long() -> ExternalBotError:
    return ExternalBotError(
        "limit_exceeded",
        f"answered more than {MAX_ANSWER_BYTES:,} bytes in one line (64 KiB, the most an answer may take)",
    )


class LocalSeats:
    """Programs of one match started on this machine with no sandbox (`local_program`): `seat(...)` is the
    runner's seat of one program, and leaving the `with` block (or `finish(outcome)`) stops every one of
    them. For an author's own programs, as `league.programs.external.ExternalSeats` is for the workers'.
    `preexec` runs in each program's process before it starts (`games.core.local.rlimits`)."""

    def __init__(
        self, *, clock: Callable[[], float] = time.monotonic, preexec: Callable[[], None] | None = None
    ) -> None:
        self.clock = clock
        self.preexec = preexec
        self.bots: list[ProtocolBot] = []

    def seat(
        self,
        *,
        label: str,
        command: Sequence[str],
        limits: Limits,
        seed: str,
        preexec: Callable[[], None] | None = None,
    ) -> SeatPlayer:
        """The seat of `command`, named `{"bot": "external", "params": {"definition": label}}` in the record;
        `seed` is the seat's seed the program is told (`games.core.runner.bot_seed`); `preexec`, if given,
        replaces the seats' own (`LocalSeats(preexec=...)`) for this program."""
        preexec = preexec or self.preexec

        def make(
            game: Game, seat: int, num_players: int, options: Mapping[str, Any], rng: random.Random
        ) -> Bot:
            bot = ProtocolBot(
                game,
                seat,
                num_players,
                options,
                rng,
                limits,
                seed,
                lambda: local_program(command, limits, clock=self.clock, preexec=preexec),
            )
            self.bots.append(bot)
            return bot

        return SeatPlayer(ProtocolBot.name, {"definition": label}, make=make, external={"definition": label})

    def finish(self, outcome: Mapping[str, Any] | None) -> None:
        for bot in self.bots:
            bot.finish(outcome)

    def __enter__(self) -> LocalSeats:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.finish(None)
