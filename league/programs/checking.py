"""The check of an uploaded program's modules: every Python file compiled in a child process under bounds.

Pure Python: no Django (the league reads the bounds from its settings, `league.bots.uploads`). CPython's
compiler is not linear in its input: an f-string of 50,000 `{1}` fields (150 KB) or a 2 MiB literal list
costs seconds of CPU and hundreds of MB, so the web request never compiles an upload. A Celery task runs
`compile_check`, which hands the sources to a fresh interpreter (this file, run as a script: `-I -S`, the
standard library only) that first lowers its own limits (`RLIMIT_CPU`, `RLIMIT_AS`, no core file, no file
written) and then compiles each module in turn, saying which one it starts. The parent waits no longer than
a wall deadline and kills it past that. Compiling executes nothing of the program, so no sandbox is needed.

Once every module compiles, the child names the top-level modules they import (absolute imports only) that
are not the program's own (a file or folder of that name anywhere in the upload); a second child, the bots'
own interpreter (`CheckLimits.runtime`: the `python3` the sandbox runs, `-E -s`), says which of those it
cannot find (`importlib.util.find_spec`, which locates a module without running it). An import the runtime
lacks is refused at the check, naming the module, the file and the line, rather than found by forfeits.

The answer is None (every module compiles, every import is there) or the refusal, in words for the author:
the file and line of a syntax error, a file that is not UTF-8, which module took the program past which
bound, or which import the bots' Python lacks.
"""

from __future__ import annotations

import ast
import json
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

CHILD = os.path.abspath(__file__)
STARTED = "module "
REFUSED = "refused "
DONE = "ok"
IMPORTS = "imports "
# Run by the bots' interpreter: the names (a JSON list on stdin) it cannot find, as a JSON list.
FIND_SCRIPT = (
    "import importlib.util, json, sys\n"
    "names = json.load(sys.stdin)\n"
    "print(json.dumps([n for n in names if importlib.util.find_spec(n) is None]))\n"
)


class CheckUnavailable(Exception):
    """The check could not run (no interpreter, no process): the machine's fault, not the program's."""


@dataclass(frozen=True)
class CheckLimits:
    """The bounds of the check, and the bots' interpreter (`runtime`, a path; empty: imports unchecked)."""

    cpu_seconds: int = 1
    memory_mb: int = 256
    wall_seconds: float = 30.0
    runtime: str = ""


def python_sources(contents: Mapping[str, bytes]) -> dict[str, bytes]:
    """The program's modules: its files whose names end in `.py`, by path."""
    return {path: content for path, content in sorted(contents.items()) if path.endswith(".py")}


def _plural(number: float, word: str) -> str:
    return f"{number:g} {word}" if number == 1 else f"{number:g} {word}s"


def compile_check(
    sources: Mapping[str, bytes], limits: CheckLimits, *, python: str = sys.executable
) -> str | None:
    """Compile every module of `sources` (path -> bytes) in a bounded child process; None if all compile,
    else why not (see the module docstring). CheckUnavailable if the child cannot be run."""
    texts = []
    for path, source in sources.items():
        try:
            texts.append([path, source.decode("utf-8")])
        except UnicodeDecodeError as exc:
            return f"{path} is not UTF-8 text (byte {exc.start})"
    bounds = f"{_plural(limits.cpu_seconds, 'CPU second')} and {limits.memory_mb} MB"
    payload = json.dumps(
        {"cpu_seconds": limits.cpu_seconds, "memory_mb": limits.memory_mb, "modules": texts}
    ).encode()
    try:
        child = subprocess.run(
            [python, "-I", "-S", "-B", CHILD],
            input=payload,
            capture_output=True,
            timeout=limits.wall_seconds,
            env={},
            close_fds=True,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        started = _last_module(exc.stdout or b"")
        where = f" (it was at {started})" if started else ""
        return (
            f"compiling the program took longer than {_plural(limits.wall_seconds, 'second')}{where}: "
            "make it smaller or simpler"
        )
    except OSError as exc:
        raise CheckUnavailable(f"the compile check could not start {python}: {exc}") from None
    lines = child.stdout.decode("utf-8", "replace").splitlines()
    if child.returncode == 0 and lines and lines[-1] == DONE:
        imported = next((line for line in reversed(lines) if line.startswith(IMPORTS)), IMPORTS + "[]")
        return _missing_imports(json.loads(imported[len(IMPORTS) :]), sources, limits)
    if child.returncode == 0 and lines and lines[-1].startswith(REFUSED):
        return cast(str, json.loads(lines[-1][len(REFUSED) :]))  # `_refuse` wrote a JSON string
    started = _last_module(child.stdout)
    if not started:  # it died before it read the first module: the interpreter, not the program
        raise CheckUnavailable(
            f"the compile check's interpreter failed (exit {child.returncode}): "
            f"{child.stderr.decode('utf-8', 'replace')[-500:]}"
        )
    if child.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return (
            f"compiling {started} took more than {_plural(limits.cpu_seconds, 'CPU second')} (the bounds of "
            f"the check: {bounds}): make it smaller or simpler"
        )
    return (
        f"compiling {started} was stopped (exit {child.returncode}): it needs more than the bounds of the "
        f"check ({bounds})"
    )


def own_modules(paths: Iterable[str]) -> set[str]:
    """The names an upload's files and folders may be imported by: each file's stem, each folder's name."""
    names = set()
    for path in paths:
        parts = path.split("/")
        names.update(parts[:-1])
        names.add(parts[-1].removesuffix(".py"))
    return names


def _missing_imports(
    imported: list[list[Any]], sources: Mapping[str, bytes], limits: CheckLimits
) -> str | None:
    """The refusal for the first import (name, file, line) the bots' interpreter cannot find, or None."""
    own = own_modules(sources)
    wanted = {name: (path, line) for name, path, line in reversed(imported) if name not in own}
    if not wanted or not limits.runtime:
        return None
    try:
        finder = subprocess.run(
            [limits.runtime, "-E", "-s", "-B", "-c", FIND_SCRIPT],
            input=json.dumps(sorted(wanted)).encode(),
            capture_output=True,
            timeout=limits.wall_seconds,
            env={},
            close_fds=True,
            check=False,
        )
        missing = json.loads(finder.stdout) if finder.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError) as exc:
        raise CheckUnavailable(
            f"the bots' interpreter {limits.runtime} could not look up modules: {exc}"
        ) from None
    if not isinstance(missing, list):
        raise CheckUnavailable(
            f"the bots' interpreter {limits.runtime} failed (exit {finder.returncode}): "
            f"{finder.stderr.decode('utf-8', 'replace')[-500:]}"
        )
    if not missing:
        return None
    first = min(missing, key=lambda name: (wanted[name], name))
    path, line = wanted[first]
    others = [name for name in sorted(missing) if name != first]
    also = f" (and {', '.join(others)})" if others else ""
    return (
        f"{path} line {line} imports {first}{also}, which the bots' Python does not have: put the module "
        "in the upload, or use the standard library"
    )


def _last_module(stdout: bytes) -> str:
    for line in reversed(stdout.decode("utf-8", "replace").splitlines()):
        if line.startswith(STARTED):
            return line[len(STARTED) :]
    return ""


def _refuse(message: str) -> None:
    sys.stdout.write(REFUSED + json.dumps(message) + "\n")


def _lower(kind: int, soft: int, hard: int) -> None:
    """Lower a limit to (soft, hard), never above a lower one this process inherited."""
    _, inherited = resource.getrlimit(kind)
    if inherited != resource.RLIM_INFINITY:
        hard = min(hard, inherited)
        soft = min(soft, hard)
    resource.setrlimit(kind, (soft, hard))


def _child() -> None:
    """The child's side: limits first, then read the sources and compile them one by one."""
    request = json.loads(sys.stdin.buffer.read())
    cpu, memory = int(request["cpu_seconds"]), int(request["memory_mb"]) << 20
    for kind, soft, hard in (
        (resource.RLIMIT_CORE, 0, 0),
        (resource.RLIMIT_FSIZE, 0, 0),
        (resource.RLIMIT_CPU, cpu, cpu + 1),
        (resource.RLIMIT_AS, memory, memory),
    ):
        _lower(kind, soft, hard)
    imported: list[list[Any]] = []
    for path, text in request.pop("modules"):
        sys.stdout.write(STARTED + path.replace("\n", " ") + "\n")
        sys.stdout.flush()
        try:
            tree = ast.parse(text, path)
            compile(tree, path, "exec", dont_inherit=True)
            imported.extend([name, path, line] for name, line in _imports(tree))
        except SyntaxError as exc:
            _refuse(f"{path} line {exc.lineno}: {exc.msg}" if exc.lineno else f"{path}: {exc.msg}")
            return
        except MemoryError:
            _refuse(f"compiling {path} needs more than {request['memory_mb']} MB (the check's memory bound)")
            return
        except (ValueError, RecursionError, OverflowError) as exc:
            _refuse(f"{path} cannot be compiled: {type(exc).__name__}: {exc}")
            return
    sys.stdout.write(IMPORTS + json.dumps(imported) + "\n" + DONE + "\n")


def _imports(tree: ast.AST) -> list[tuple[str, int]]:
    """The top-level modules a module imports absolutely, with the line, in the order of the source."""
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name.split(".")[0], node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.module.split(".")[0], node.lineno))
    return sorted(found, key=lambda item: item[1])


if __name__ == "__main__":
    _child()
