"""The local runner's seats: `python -m games play GAME --seat "cmd:python3 mybot.py" --seat heuristic ...`.

An author's programs play on their own machine through the workers' protocol client
(`games.core.protocol.LocalSeats`), with the server's move time, start-up allowance and time bank
(`games.core.protocol.Limits`), and the memory and CPU limits of the league's sandbox set with `resource`
where the operating system enforces them (`rlimits`: it names those it cannot apply). No sandbox: only for
programs one trusts, one's own. Windows has no `resource` nor the signals the client relies on, so the
runner refuses programs there with a message.

A seat is `cmd:COMMAND` (a program, its command split as a shell would, never run by one) or a built-in bot,
`NAME` or `NAME:key=value;key=value`. `--from-record FILE` takes a match record's game, options, seed and
seats: `--seat N=...` replaces seat N (0 first), and every seat an external program played must be replaced.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games import registry
from games.core.errors import GameError
from games.core.protocol import Limits

CMD = "cmd:"
# Node reserves about 1 GiB of address space when it starts, whatever its heap: a Node program gets that much
# more address space than the bot's memory, and its heap is bounded by the bot's memory instead, with
# `--max-old-space-size` (`runtime_limits`).
NODE_ADDRESS_SPACE_MB = 1024
NODE_PROGRAMS = ("node", "nodejs")


class SeatError(GameError):
    """A seat or record the command line cannot use (exit status 2 with its message)."""


@dataclass(frozen=True)
class Seat:
    """One seat of the command line: a program's command, or a built-in bot's name and parameters."""

    text: str
    command: tuple[str, ...] = ()
    name: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def is_program(self) -> bool:
        return bool(self.command)

    @property
    def label(self) -> str:
        """What the record, the account and the replay call the seat."""
        return shlex.join(self.command) if self.command else self.name


def parse_seat(text: str) -> Seat:
    """`cmd:python3 mybot.py`, `heuristic` or `heuristic:budget=200;depth=2`."""
    text = text.strip()
    if text.startswith(CMD):
        try:
            command = shlex.split(text[len(CMD) :])
        except ValueError as exc:
            raise SeatError(f"--seat {text!r}: {exc}") from None
        if not command:
            raise SeatError("--seat cmd: needs the command that starts the program, e.g. cmd:python3 bot.py")
        return Seat(text, command=tuple(command))
    name, _, rest = text.partition(":")
    if not name:
        raise SeatError(f"--seat {text!r}: give a built-in bot's name or cmd:COMMAND")
    params = {}
    for item in filter(None, rest.split(";")):
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise SeatError(f"--seat {text!r}: a bot's parameters are key=value, separated by ';'")
        params[key.strip()] = value.strip()
    return Seat(text, name=name, params=params)


def parse_numbered_seat(text: str) -> tuple[int, Seat]:
    """`N=SEAT`, for `--from-record`: the seat number (0 first) and what plays it."""
    number, equals, rest = text.partition("=")
    if not equals or not number.strip().isdigit():
        raise SeatError(f"with --from-record, --seat takes N=cmd:COMMAND (N the seat, 0 first), got {text!r}")
    return int(number), parse_seat(rest)


def seats_from_record(record: Any, replaced: Mapping[int, Seat]) -> list[Seat]:
    """The seats of a recorded match, each built-in bot as recorded, with `replaced` in their seats."""
    seats = record.get("seats") if isinstance(record, dict) else None
    if not isinstance(seats, list) or not all(isinstance(entry, dict) for entry in seats):
        raise SeatError("the file is not a match record (it has no list of seats)")
    for number in replaced:
        if number >= len(seats):
            raise SeatError(f"the record has seats 0 to {len(seats) - 1}, not seat {number}")
    out = []
    for number, entry in enumerate(seats):
        if number in replaced:
            out.append(replaced[number])
        elif "external" in entry or not isinstance(entry.get("bot"), str):
            external = entry.get("external")
            definition = external.get("definition") if isinstance(external, dict) else None
            definition = definition if isinstance(definition, str) else "a program"
            raise SeatError(
                f"seat {number} was played by an external program ({definition}): give --seat "
                f"{number}=cmd:COMMAND to play it"
            )
        else:
            params = entry.get("params") or {}
            if not isinstance(params, dict):
                raise SeatError(f"seat {number}'s parameters are not an object")
            out.append(Seat(entry["bot"], name=entry["bot"], params=params))
    return out


def version_notes(record: Mapping[str, Any], seats: Sequence[Seat]) -> list[str]:
    """Where a recorded built-in bot is another version here (it may then decide otherwise)."""
    notes = []
    for number, (entry, seat) in enumerate(zip(record["seats"], seats, strict=True)):
        if seat.is_program or "version" not in entry:
            continue
        here = registry.bot_class(seat.name, record["game"]).version
        if entry["version"] != here:
            notes.append(
                f"seat {number}: the record's {seat.name} is version {entry['version']}, this one {here}: "
                "it may decide otherwise"
            )
    return notes


def runtime_limits(command: Sequence[str], limits: Limits) -> tuple[tuple[str, ...], Limits]:
    """The command and limits a program runs with on its runtime: a Node program's heap is the bot's memory
    (`--max-old-space-size`, unless the command sets it) under an address space raised by
    `NODE_ADDRESS_SPACE_MB`; any other program runs as it is."""
    if os.path.basename(command[0]) not in NODE_PROGRAMS:
        return tuple(command), limits
    flags = (
        []
        if any(part.startswith("--max-old-space-size") for part in command[1:])
        else [f"--max-old-space-size={limits.memory_mb}"]
    )
    raised = replace(limits, memory_mb=limits.memory_mb + NODE_ADDRESS_SPACE_MB)
    return (command[0], *flags, *command[1:]), raised


def refuse_unsupported_system(platform: str = sys.platform) -> None:
    """Programs play on Linux and macOS only."""
    if platform.startswith("win") or os.name == "nt":
        raise SeatError(
            "programs play on Linux and macOS only (the runner needs their process limits and signals); "
            "on Windows, run it in WSL"
        )


def rlimits(limits: Limits, platform: str = sys.platform) -> tuple[Callable[[], None] | None, list[str]]:
    """What sets a program's limits in its process before it starts (for `subprocess.Popen`'s
    `preexec_fn`), and the limits this system does not enforce, in words: CPU time (`RLIMIT_CPU`: `SIGXCPU`,
    the seat's `limit_exceeded`) and the address space (`RLIMIT_AS`, which macOS does not enforce)."""
    try:
        import resource
    except ImportError:
        return None, ["CPU time", "memory"]
    wanted: list[tuple[int, int]] = []
    missing = []
    cpu = getattr(resource, "RLIMIT_CPU", None)
    if cpu is None:
        missing.append("CPU time")
    else:
        wanted.append((cpu, max(1, int(limits.cpu_seconds))))  # SIGXCPU there, SIGKILL a second later
    memory = getattr(resource, "RLIMIT_AS", None)
    if memory is None or platform == "darwin":
        missing.append(f"memory ({limits.memory_mb} MB of address space: not enforced on this system)")
    else:
        wanted.append((memory, int(limits.memory_mb) << 20))
    usable = []
    for which, value in wanted:
        _, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY and hard < value:
            value = hard  # a lower hard limit is already stricter
        usable.append((which, value))

    def apply() -> None:
        for which, value in usable:
            # never fail the start over a limit the parent checked it could set
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(which, (value, value + 1 if which == cpu else value))

    return apply, missing
