"""The runtimes an uploaded program may run on: Python, Node.js (JavaScript) and C, and what each needs.

Pure Python: no Django. A program declares its runtime by its manifest's `runtime` (`python`, `node` or `c`;
`python3`, `javascript`, `js` are read as their runtime), or by its entry point's extension (`.py`, `.js`
`.mjs` `.cjs`, `.c`); one file uploaded alone by its file name's extension, or by the upload form's choice.

- **python**: the system's `python3 -E -s -B /bot/<entry>`, its standard library only.
- **node**: the system's `node --max-old-space-size=<the bot's memory> /bot/<entry>`, its standard library
  only. Node reserves about 1 GiB of address space when it starts, whatever its heap: its sandbox's
  address-space cap is the bot's memory plus `NODE_ADDRESS_SPACE_MB` (1024, the local runner's too:
  `games.core.local`), while its heap is bounded by the
  bot's memory (a 512 MB bot: a 512 MB heap under a 1,536 MB address-space cap per process).
- **c**: compiled once, at the upload's check, by the system's `cc` inside the sandbox (`BUILD_COMMAND`:
  every `.c` file of the upload, C17 with GNU extensions, `-O2`, linked with the C library and `-lm` only);
  the workers run the executable it made (`/bot/bot`), never the compiler.

A worker runs a program only if its start-up probe found the program's runtime in the sandbox
(`league.programs.probe.probe_runtimes`): each runtime's version command, run there as a bot is.
"""

from __future__ import annotations

from dataclasses import replace

from games.core.local import NODE_ADDRESS_SPACE_MB as NODE_ADDRESS_SPACE_MB
from games.core.protocol import Limits

PYTHON, NODE, C = "python", "node", "c"
RUNTIMES = (PYTHON, NODE, C)
RUNTIME_NAMES = {PYTHON: "Python", NODE: "Node.js", C: "C"}
# What a manifest may say, and which runtime it means.
ALIASES = {
    "python": PYTHON,
    "python3": PYTHON,
    "node": NODE,
    "nodejs": NODE,
    "javascript": NODE,
    "js": NODE,
    "c": C,
}
EXTENSIONS = {".py": PYTHON, ".js": NODE, ".mjs": NODE, ".cjs": NODE, ".c": C}
# The name one file uploaded alone is stored under, by runtime.
SINGLE_FILES = {PYTHON: "bot.py", NODE: "bot.js", C: "bot.c"}
PROGRAM_MOUNT = "/bot"
BUILT = "bot"  # a C program's executable, alone in its folder at /bot
# The check's compile of a C program, in the sandbox: the sources (relative to /bot, its working folder) are
# appended before the libraries; the executable is written to /tmp and printed on standard output.
BUILD_COMMAND = ("cc", "-std=gnu17", "-O2", "-pipe", "-fdiagnostics-color=never", "-o", "/tmp/bot")
BUILD_LIBRARIES = ("-lm",)
# Each runtime's version, asked in the sandbox: the command and how its first line reads on a page.
VERSION_COMMANDS = {
    PYTHON: ("python3", "--version"),
    NODE: ("node", "--version"),
    C: ("cc", "--version"),
}


def runtime_of(name: str) -> str:
    """The runtime a manifest's `runtime` names, or "" if none."""
    return ALIASES.get(name.strip().lower(), "") if isinstance(name, str) else ""


def runtime_by_extension(path: str) -> str:
    """The runtime of a file by its extension, or ""."""
    dot = path.rfind(".")
    return EXTENSIONS.get(path[dot:].lower(), "") if dot > path.rfind("/") else ""


def extensions_of(runtime: str) -> list[str]:
    return [extension for extension, owner in EXTENSIONS.items() if owner == runtime]


def program_command(entry: str, runtime: str = PYTHON, memory_mb: int = 512) -> list[str]:
    """The command that runs an uploaded program in its sandbox (its files at `PROGRAM_MOUNT`, its working
    folder): Python ignoring PYTHON* variables and the user's site folder, writing no bytecode (the files are
    read-only); Node with its heap bounded by the bot's memory; a C program's executable."""
    if runtime == NODE:
        return ["node", f"--max-old-space-size={memory_mb}", f"{PROGRAM_MOUNT}/{entry}"]
    if runtime == C:
        return [f"{PROGRAM_MOUNT}/{BUILT}"]
    return ["python3", "-E", "-s", "-B", f"{PROGRAM_MOUNT}/{entry}"]


def runtime_limits(runtime: str, limits: Limits) -> Limits:
    """The limits a program runs with on its runtime: a Node program's address space is raised by
    `NODE_ADDRESS_SPACE_MB` (its heap stays the bot's memory, `program_command`)."""
    if runtime == NODE:
        return replace(limits, memory_mb=limits.memory_mb + NODE_ADDRESS_SPACE_MB)
    return limits


def version_line(runtime: str, output: str) -> str:
    """How a page names a runtime's version from its version command's output: `Python 3.11.2`,
    `node v20.20.2`, `cc (Debian 12.2.0-14+deb12u1) 12.2.0`."""
    first = next((line.strip() for line in output.splitlines() if line.strip()), "")
    if runtime == NODE and first and not first.startswith("node"):
        first = f"node {first}"
    return first[:200]
