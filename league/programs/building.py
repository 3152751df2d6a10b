"""The check of a JavaScript or C upload, in the sandbox: a C program compiled by the system's `cc`, a Node
program's entry point parsed by `node --check`, and each runtime's version asked.

Pure Python: no Django (the league passes the sandbox and the bounds, `league.programs.uploads.build_limits`).
The compiler reads what the upload names (`#include "/etc/passwd"`, `#include "/dev/random"`), so it runs
exactly where a bot runs (`league.programs.sandbox`): a slot user of its own, no network, the system paths and
the upload's files read-only at /bot, a private /tmp, and the bounds of `BuildLimits` (CPU seconds and address
space per process, a wall deadline, at most `output_bytes` of compiler messages and `binary_bytes` of
executable; files it writes, 1 MiB each). A compile that never ends, needs too much memory or writes too much
is stopped and refused with the reason; what the compiler said (its first `shown_bytes`) is the author's to
read. Nothing it does reaches the service's files: the executable comes back on its standard output.

`SandboxUnavailable` (no sandbox, no slot user, no room) is the machine's fault: the check is tried again
later (`CheckUnavailable` in `league.programs.checking`).
"""

from __future__ import annotations

import os
import select
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from league.programs.archives import unpack_program_files
from league.programs.external import ExternalBotError, resolve_command
from league.programs.runtimes import (
    BUILD_COMMAND,
    BUILD_LIBRARIES,
    NODE,
    NODE_ADDRESS_SPACE_MB,
    VERSION_COMMANDS,
    version_line,
)
from league.programs.sandbox import ProgramLimits, Sandbox, kill_sandbox


@dataclass(frozen=True)
class BuildLimits:
    """The bounds of a check in the sandbox: CPU seconds and memory (address space, MB) per process, a wall
    deadline, the compiler's messages and the executable it may write (bytes)."""

    cpu_seconds: int = 20
    memory_mb: int = 512
    wall_seconds: float = 60.0
    output_bytes: int = 1 << 20
    binary_bytes: int = 1 << 20
    shown_bytes: int = 4000


@dataclass(frozen=True)
class Ran:
    """What one command did in the sandbox: its exit status (negative: killed by that signal; None: stopped
    by the check), what it wrote, and why the check stopped it ("" if it ended by itself)."""

    status: int | None
    stdout: bytes
    stderr: bytes
    stopped: str = ""


@dataclass(frozen=True)
class Built:
    """A check's verdict: the refusal in words ("" if it passed), a C program's executable and the runtime's
    version."""

    refusal: str = ""
    binary: bytes = b""
    version: str = ""


def run_in_sandbox(
    sandbox: Sandbox,
    command: Sequence[str],
    limits: BuildLimits,
    *,
    folder: str | None = None,
    address_space_mb: int | None = None,
) -> Ran:
    """Run `command` in the sandbox (with `folder` at /bot, its working folder) under `limits`, reading its
    standard output (up to `binary_bytes`) and error (up to `output_bytes`); stopped past either or past the
    wall deadline. Its memory budget is `limits.memory_mb` a process; its address space `address_space_mb`."""
    resolved = resolve_command(command)
    with sandbox.memory(limits.memory_mb), sandbox.slot() as user:
        process = sandbox.popen(
            resolved,
            ProgramLimits(limits.cpu_seconds, address_space_mb or limits.memory_mb),
            user,
            program_dir=folder,
        )
        try:
            process.stdin.close()
            out, err = bytearray(), bytearray()
            caps = {process.stdout.fileno(): (out, limits.binary_bytes, "its output (the executable)")}
            caps[process.stderr.fileno()] = (err, limits.output_bytes, "its messages")
            streams = set(caps)
            deadline = time.monotonic() + limits.wall_seconds
            stopped = ""
            while streams and not stopped:
                left = deadline - time.monotonic()
                if left <= 0:
                    stopped = f"it ran longer than {limits.wall_seconds:g} s"
                    break
                ready, _, _ = select.select(list(streams), [], [], left)
                for descriptor in ready:
                    chunk = os.read(descriptor, 65536)
                    if not chunk:
                        streams.discard(descriptor)
                        continue
                    buffer, cap, what = caps[descriptor]
                    buffer += chunk
                    if len(buffer) > cap:
                        stopped = f"{what} grew past {_size(cap)}"
                        break
            if stopped:
                kill_sandbox(process)
                return Ran(None, bytes(out), bytes(err), stopped)
            remaining = max(0.1, deadline - time.monotonic())
            try:
                status = process.wait(timeout=remaining)
            except Exception:  # subprocess.TimeoutExpired: it closed its streams but goes on
                kill_sandbox(process)
                return Ran(None, bytes(out), bytes(err), f"it ran longer than {limits.wall_seconds:g} s")
            return Ran(_status(status), bytes(out), bytes(err))
        finally:
            kill_sandbox(process)


def _status(status: int) -> int:
    """bubblewrap's exit status: 128 + N for a program killed by signal N, reported as -N."""
    return -(status - 128) if status > 128 else status


def _size(number: int) -> str:
    if number >= 1 << 20 and number % (1 << 20) == 0:
        return f"{number >> 20} MiB"
    if number >= 1 << 10 and number % (1 << 10) == 0:
        return f"{number >> 10} KiB"
    return f"{number} bytes"


def runtime_version(sandbox: Sandbox, runtime: str, limits: BuildLimits) -> str:
    """The runtime's version as the sandbox runs it (`version_line`), or "" if it does not run there."""
    try:
        ran = run_in_sandbox(
            sandbox,
            VERSION_COMMANDS[runtime],
            limits,
            address_space_mb=limits.memory_mb + (NODE_ADDRESS_SPACE_MB if runtime == NODE else 0),
        )
    except ExternalBotError:  # no such program here
        return ""
    if ran.status != 0:
        return ""
    return version_line(runtime, (ran.stdout or ran.stderr).decode("utf-8", "replace"))


def _said(ran: Ran, limits: BuildLimits) -> str:
    """What the compiler said, its first `shown_bytes`, for the author."""
    text = ran.stderr[: limits.shown_bytes].decode("utf-8", "replace").strip()
    more = " …" if len(ran.stderr) > limits.shown_bytes else ""
    return f": {text}{more}" if text else ""


def build_c(sandbox: Sandbox, contents: Mapping[str, bytes], limits: BuildLimits, folder: str) -> Built:
    """Compile every `.c` file of the upload (`contents`, unpacked into `folder`, an empty folder of the
    worker's) with the system's `cc` in the sandbox: the executable, or the refusal saying why."""
    sources = sorted(path for path in contents if path.endswith(".c"))
    if not sources:
        return Built(refusal="a C program needs at least one .c file")
    version = runtime_version(sandbox, "c", limits)
    if not version:
        raise_unavailable("the sandbox has no C compiler (cc)")
    unpack_program_files(contents, folder)
    # The sources as arguments of the script ("./" first: no name reads as an option of cc); the compiler's
    # messages on standard error, the executable on standard output.
    script = f'{" ".join(BUILD_COMMAND)} "$@" {" ".join(BUILD_LIBRARIES)} >&2 && exec cat /tmp/bot'
    arguments = [f"./{path}" for path in sources]
    ran = run_in_sandbox(sandbox, ["sh", "-c", script, "sh", *arguments], limits, folder=folder)
    command = f"cc {' '.join(BUILD_COMMAND[1:-2])} -o bot {' '.join(sources)} {' '.join(BUILD_LIBRARIES)}"
    if ran.stopped:
        return Built(
            refusal=f"the compile was stopped: {ran.stopped} (the check's bounds: {limits.cpu_seconds} CPU "
            f"seconds, {limits.memory_mb} MB, {_size(limits.output_bytes)} of messages, an executable of "
            f"{_size(limits.binary_bytes)}){_said(ran, limits)}",
            version=version,
        )
    if ran.status != 0:
        why = {
            -24: f"it took more than {limits.cpu_seconds} CPU seconds",
            -9: "it was killed (over the check's CPU time or memory)",
            -25: "a file it wrote grew past 1 MiB (each file's limit in the sandbox)",
        }.get(ran.status or 0, f"exit status {ran.status}")
        return Built(refusal=f"it does not compile ({command}: {why}){_said(ran, limits)}", version=version)
    if not ran.stdout:
        return Built(
            refusal=f"the compile made no executable ({command}){_said(ran, limits)}", version=version
        )
    return Built(binary=ran.stdout, version=version)


def check_node(
    sandbox: Sandbox, contents: Mapping[str, bytes], entry: str, limits: BuildLimits, folder: str
) -> Built:
    """Parse a Node program's entry point (`node --check`) in the sandbox: None, or the refusal."""
    version = runtime_version(sandbox, NODE, limits)
    if not version:
        raise_unavailable("the sandbox has no Node.js (node)")
    unpack_program_files(contents, folder)
    ran = run_in_sandbox(
        sandbox,
        ["node", f"--max-old-space-size={limits.memory_mb}", "--check", f"./{entry}"],
        limits,
        folder=folder,
        address_space_mb=limits.memory_mb + NODE_ADDRESS_SPACE_MB,
    )
    if ran.stopped:
        return Built(refusal=f"the check of {entry} was stopped: {ran.stopped}", version=version)
    if ran.status != 0:
        return Built(refusal=f"{entry} does not parse (node --check){_said(ran, limits)}", version=version)
    return Built(version=version)


class BuildUnavailable(Exception):
    """The sandbox cannot run this runtime's check: the machine's fault, tried again later."""


def raise_unavailable(why: str) -> None:
    raise BuildUnavailable(why)
