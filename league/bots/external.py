"""External-program bots: a command that speaks the bot protocol (docs/bot-protocol.md) over stdin/stdout.

Pure Python: no Django. The league's worker hands the runner one seat per program through `ExternalSeats`:
to the runner an `ExternalBot` is a plain `Bot`; `ExternalSeats` starts one process per seat and stops every
one of them when the match ends.

The protocol, one JSON value per line (the engine's canonical encoding):

- worker → bot, once: `{"type": "start", "game": ..., "version": ..., "seat": ..., "num_players": ...,
  "options": {...}, "seed": "..."}`
- worker → bot, at each decision: `{"type": "act", "observation": {...}, "legal_actions": [...]}`;
  bot → worker: `{"action": <one of legal_actions>}`
- worker → bot, at the end: `{"type": "end", "outcome": {...}}`, then stdin closes.

A bot that answers late (hard time-out: the process is killed), exits, answers something that is not JSON or
not `{"action": ...}`, or answers an illegal action forfeits its seat; the runner records the reason.

Protections, applied to every bot process (`detect_protections` says which are in force on this machine):

- a per-move wall-clock limit, enforced by killing the process group;
- `RLIMIT_CPU` (CPU seconds for the whole match) and `RLIMIT_AS` (address space) set in the child before
  exec, plus `RLIMIT_FSIZE` so that the program cannot fill the disk;
- an environment holding only `PATH`, `LANG` and `HOME` (a fresh empty folder, also the working directory):
  none of the service's secrets (`SECRET_KEY`, `DATABASE_URL`, broker passwords) reach the program;
- no network where the worker can create a network namespace (`unshare --net`): the program sees only a
  loopback interface that is down.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import resource
import select
import selectors
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from games.core.bot import Bot
from games.core.encoding import canonical_bytes
from games.core.runner import SeatPlayer
from games.core.state import Action, Game, Observation

SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"
MAX_ANSWER_BYTES = 1 << 20
STDERR_TAIL = 200
FILE_SIZE_LIMIT = 1 << 20
EXIT_GRACE_SECONDS = 0.5


class ExternalBotError(Exception):
    """The program broke the protocol; the message says how (it becomes the seat's forfeit reason)."""


@dataclass(frozen=True)
class Limits:
    """What one bot process may use.

    `move_seconds` is the wall-clock time allowed for each answer (the process is killed when it runs out);
    `cpu_seconds` is the CPU time for the whole match; `memory_mb` caps the address space.
    """

    move_seconds: float = 1.0
    cpu_seconds: int = 60
    memory_mb: int = 512
    startup_seconds: float = 5.0


@dataclass(frozen=True)
class Protections:
    """Which protections the worker applies to external programs (shown on the bot's page)."""

    time_limit: bool
    cpu_limit: bool
    memory_limit: bool
    clean_environment: bool
    no_network: bool

    def describe(self) -> list[tuple[str, bool]]:
        return [
            ("Per-move time limit (the process is killed when it runs out)", self.time_limit),
            ("CPU-time limit for the whole match", self.cpu_limit),
            ("Memory limit", self.memory_limit),
            ("Environment without the service's secrets", self.clean_environment),
            ("No network (a network namespace of its own)", self.no_network),
        ]


@cache
def unshare_command() -> tuple[str, ...] | None:
    """The prefix that runs a command without network, or None where this worker cannot create a namespace.

    Tried once per process: `unshare --net` (as root) or `unshare --user --map-root-user --net` (where
    unprivileged user namespaces are allowed).
    """
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    for prefix in ((unshare, "--net"), (unshare, "--user", "--map-root-user", "--net")):
        try:
            done = subprocess.run([*prefix, "true"], capture_output=True, timeout=5, env={"PATH": SAFE_PATH})
        except (OSError, subprocess.TimeoutExpired):
            continue
        if done.returncode == 0:
            return prefix
    return None


def detect_protections() -> Protections:
    """The protections this worker applies (every one but the network namespace is always in force)."""
    return Protections(
        time_limit=True,
        cpu_limit=True,
        memory_limit=True,
        clean_environment=True,
        no_network=unshare_command() is not None,
    )


def _limit_resources(limits: Limits):
    """The child-side setup run between fork and exec: resource limits (inherited through unshare)."""
    cpu = max(1, int(limits.cpu_seconds))
    memory = int(limits.memory_mb) * 1024 * 1024

    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_LIMIT, FILE_SIZE_LIMIT))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


def resolve_command(command: Sequence[str]) -> list[str]:
    """The command with its program made an absolute path, or ExternalBotError when it does not exist here.

    A bare name is looked up on the bots' `PATH` (not the worker's); a path must be absolute, since the
    program runs in a fresh empty folder.
    """
    if not command or not all(isinstance(part, str) and part for part in command):
        raise ExternalBotError("the command must be a program followed by its arguments")
    program = command[0]
    if "/" in program:
        if not os.path.isabs(program):
            raise ExternalBotError(f"give the program as an absolute path, not {program!r}")
        found = program if os.access(program, os.X_OK) and os.path.isfile(program) else None
    else:
        found = shutil.which(program, path=SAFE_PATH)
    if found is None:
        raise ExternalBotError(f"no executable program {program!r} on this machine")
    return [found, *command[1:]]


class ProgramProcess:
    """One running bot program: line-delimited JSON in, one answer line out, with hard time-outs."""

    def __init__(self, command: Sequence[str], limits: Limits):
        command = resolve_command(command)
        self.limits = limits
        self.home = tempfile.mkdtemp(prefix="pecking-bot-")
        self.stderr_file = tempfile.TemporaryFile(dir=self.home)  # noqa: SIM115 - closed in close()
        prefix = unshare_command() or ()
        environment = {"PATH": SAFE_PATH, "LANG": "C.UTF-8", "HOME": self.home}
        try:
            self.process = subprocess.Popen(
                [*prefix, *command],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.stderr_file,
                cwd=self.home,
                env=environment,
                close_fds=True,
                start_new_session=True,
                preexec_fn=_limit_resources(limits),
            )
        except OSError as exc:
            self._remove_home()
            raise ExternalBotError(f"could not start {command[0]!r}: {exc.strerror or exc}") from None
        self.buffer = b""
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.process.stdout, selectors.EVENT_READ)
        os.set_blocking(self.process.stdout.fileno(), False)
        os.set_blocking(self.process.stdin.fileno(), False)

    def send(self, message: Mapping[str, Any]) -> None:
        """Write one message line; a program that stops reading gets the move time to drain it, then is killed."""
        pending = memoryview(canonical_bytes(message) + b"\n")
        deadline = time.monotonic() + self.limits.move_seconds
        descriptor = self.process.stdin.fileno()
        while pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([], [descriptor], [], left)[1]:
                self.kill()
                raise ExternalBotError(
                    f"did not read its input within {self.limits.move_seconds:g}s (killed)"
                )
            try:
                written = os.write(descriptor, pending)
            except BlockingIOError:
                continue
            except OSError:
                raise ExternalBotError(self._exit_description("stopped reading its input")) from None
            pending = pending[written:]

    def read_line(self, seconds: float) -> bytes:
        """The next line the program writes, within `seconds`; kills the program when it runs out."""
        deadline = time.monotonic() + seconds
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not self.selector.select(left):
                if b"\n" in self.buffer:
                    break
                if time.monotonic() >= deadline:
                    self.kill()
                    raise ExternalBotError(f"no answer within {seconds:g}s (killed)")
                continue
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                raise ExternalBotError(self._exit_description("exited without answering"))
            self.buffer += chunk
            if len(self.buffer) > MAX_ANSWER_BYTES:
                self.kill()
                raise ExternalBotError(f"answered more than {MAX_ANSWER_BYTES} bytes without a newline")
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def _exit_description(self, what: str) -> str:
        try:
            code = self.process.wait(timeout=EXIT_GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            return what
        if code < 0:
            name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
            status = f"killed by {name}"
        else:
            status = f"exit status {code}"
        tail = self.stderr_tail()
        return f"{what} ({status}){': ' + tail if tail else ''}"

    def stderr_tail(self) -> str:
        self.stderr_file.seek(0, os.SEEK_END)
        size = self.stderr_file.tell()
        self.stderr_file.seek(max(0, size - STDERR_TAIL))
        return self.stderr_file.read().decode(errors="replace").strip().replace("\n", " | ")

    def kill(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def close(self) -> None:
        """Close stdin, give the program a moment to exit, then kill its whole process group."""
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=EXIT_GRACE_SECONDS)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.selector.close()
        self.process.stdout.close()
        self.stderr_file.close()
        self._remove_home()

    def _remove_home(self) -> None:
        shutil.rmtree(self.home, ignore_errors=True)


class ExternalBot(Bot):
    """A seat played by an external program (made through `ExternalSeats`, not by the registry)."""

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
    ):
        super().__init__(game, seat, num_players, options, None, rng)
        self.command = list(command)
        self.limits = limits
        self.seed = seed
        self.program: ProgramProcess | None = None
        self.answered = False

    def start(self) -> None:
        self.program = ProgramProcess(self.command, self.limits)
        self.program.send(
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
        if self.program is None:
            self.start()
        # The first answer may also pay for the program's start (an interpreter loading its modules).
        seconds = self.limits.move_seconds + (0.0 if self.answered else self.limits.startup_seconds)
        self.program.send({"type": "act", "observation": observation, "legal_actions": legal_actions})
        line = self.program.read_line(seconds)
        self.answered = True
        try:
            answer = json.loads(line)
        except (ValueError, UnicodeDecodeError):
            raise ExternalBotError(f"answered something that is not JSON: {_excerpt(line)}") from None
        if not isinstance(answer, dict) or "action" not in answer:
            raise ExternalBotError(f'answered {_excerpt(line)}, not {{"action": ...}}')
        return answer["action"]

    def finish(self, outcome: Mapping[str, Any] | None) -> None:
        """Tell the program how the match ended (if it is still listening) and stop it."""
        if self.program is None:
            return
        if outcome is not None and self.program.process.poll() is None:
            with contextlib.suppress(ExternalBotError):
                self.program.send({"type": "end", "outcome": dict(outcome)})
        self.program.close()
        self.program = None


def _excerpt(line: bytes) -> str:
    text = line.decode(errors="replace")
    return repr(text if len(text) <= 80 else text[:77] + "...")


class ExternalSeats:
    """The external programs of one match: their seats for the runner, and the cleanup of every process.

    Use as a context manager around `play_match`; `seat(...)` is the `SeatPlayer` of one program (its process
    starts on its first decision), `finish(outcome)` tells every program the result and stops it.
    """

    def __init__(self) -> None:
        self.bots: list[ExternalBot] = []

    def seat(self, *, label: str, command: Sequence[str], limits: Limits, seed: str) -> SeatPlayer:
        """The seat of one program, named `{"bot": "external", "params": {"definition": label}}` in the
        record; `seed` is the seat's seed the program is told (`games.core.runner.bot_seed`). The program
        keeps its own hard time-out, so the runner's move-time check does not apply to it."""

        def make(
            game: Game, seat: int, num_players: int, options: Mapping[str, Any], rng: random.Random
        ) -> Bot:
            bot = ExternalBot(game, seat, num_players, options, rng, command, limits, seed)
            self.bots.append(bot)
            return bot

        return SeatPlayer(ExternalBot.name, {"definition": label}, make=make)

    def finish(self, outcome: Mapping[str, Any] | None) -> None:
        for bot in self.bots:
            bot.finish(outcome)
        self.bots = []

    def __enter__(self) -> ExternalSeats:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.finish(None)
