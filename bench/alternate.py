"""Before/after: run one bench on two revisions, alternating them back to back, and compare the figures.

    .venv/bin/python bench/alternate.py --before main~3 --after HEAD [--repeats 7] -- \\
        bench/bot_league.py --repeats 1 [bench arguments ...]

Each revision is checked out into a temporary git worktree (removed at the end) that uses this checkout's
virtualenv (a `.venv` link, its `bin` first on PATH, the worktree on PYTHONPATH); a command whose first word
ends in `.py` is run with this interpreter. The bench then runs in each worktree in turn: before, after,
before, after, ... `--repeats` times each, so that a machine whose speed drifts weighs on both sides alike.
The environment (DATABASE_URL, CELERY_BROKER_URL ...) is passed on unchanged.

A run's figures are read from its last line `RESULT key=value ...` (bench/bot_league.py prints one); a
revision of bench/bot_league.py from before that line is read from its human table instead. Printed: each
run's figures as it ends, then per figure the median and range of each revision and the difference of the
medians (after − before).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.scratch import sigterm_exits  # noqa: E402

NUMBER = r"(-?[\d,]*\.?\d+)"
# What bench/bot_league.py printed before its RESULT line, in every wording it has had.
BOT_LEAGUE_TABLE = {
    "ratio": rf"service / engine(?:, repeat by repeat)?\s+{NUMBER}",
    "service": (
        rf"service(?:: played, recorded and rated| \(played, recorded and rated\))\s+{NUMBER} matches/s"
    ),
    "engine": rf"engine alone, \d+ processes\s+{NUMBER} matches/s",
    "recorded": rf"service: played and recorded\s+{NUMBER} matches/s",
    "size": rf"stored record size\s+{NUMBER} bytes a match",
}


class BenchFailed(Exception):
    """A run of the bench exited with an error, or printed no figures."""


def figures(output: str) -> dict[str, float]:
    """The figures of one run: its last `RESULT key=value ...` line,
    else bench/bot_league.py's human table."""
    results = [line for line in output.splitlines() if line.startswith("RESULT ")]
    if results:
        pairs = (item.split("=", 1) for item in results[-1].split()[1:])
        return {key: float(value) for key, value in pairs}
    found = {}
    for key, pattern in BOT_LEAGUE_TABLE.items():
        match = re.search(pattern, output)
        if match:
            found[key] = float(match.group(1).replace(",", ""))
    return found


def show(value: float, sign: str = "") -> str:
    """A figure to read at a glance: whole numbers from 100 on, three significant digits below."""
    return f"{value:{sign},.0f}" if abs(value) >= 100 else f"{value:{sign}.3g}"


def summary(runs: dict[str, list[dict[str, float]]]) -> list[str]:
    """Per figure: median [min – max] of each revision, and the difference of the medians (after − before)."""
    names = list(dict.fromkeys(name for side in ("before", "after") for run in runs[side] for name in run))
    lines = [
        f"{'figure':<12}{'before: median [range]':>32}{'after: median [range]':>32}{'after − before':>22}"
    ]
    for name in names:
        columns, medians = [], []
        for side in ("before", "after"):
            values = [run[name] for run in runs[side] if name in run]
            if values:
                medians.append(statistics.median(values))
                columns.append(
                    f"{show(medians[-1])} [{show(min(values))} – {show(max(values))}] n={len(values)}"
                )
            else:
                columns.append("—")
        change = "—"
        if len(medians) == 2:
            change = show(medians[1] - medians[0], "+")
            if medians[0]:
                change += f" ({(medians[1] - medians[0]) / abs(medians[0]):+.1%})"
        lines.append(f"{name:<12}{columns[0]:>32}{columns[1]:>32}{change:>22}")
    return lines


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


def run_bench(worktree: Path, command: list[str], venv: Path) -> dict[str, float]:
    if command[0].endswith(".py"):
        command = [sys.executable, *command]
    environment = {
        **os.environ,
        "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(worktree), os.environ.get("PYTHONPATH")])),
    }
    done = subprocess.run(command, cwd=worktree, env=environment, capture_output=True, text=True)
    found = figures(done.stdout)
    if done.returncode != 0 or not found:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-30:])
        raise BenchFailed(f"{' '.join(command)} in {worktree} exited {done.returncode}:\n{tail}")
    return found


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--" not in argv:
        print(
            "usage: bench/alternate.py --before REV --after REV [--repeats N] -- COMMAND ...", file=sys.stderr
        )
        return 2
    split = argv.index("--")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="the revision measured first")
    parser.add_argument("--after", required=True, help="the revision compared with it")
    parser.add_argument("--repeats", type=int, default=7, help="runs of each revision")
    args = parser.parse_args(argv[:split])
    command = argv[split + 1 :]
    if not command or args.repeats < 1:
        parser.error("give a bench command after -- and --repeats of 1 or more")
    venv = Path(sys.prefix)
    revisions = {}
    for side in ("before", "after"):
        revision = getattr(args, side)
        try:
            revisions[side] = git("rev-parse", "--verify", f"{revision}^{{commit}}")
        except subprocess.CalledProcessError:
            parser.error(f"--{side} {revision!r} is not a revision of {ROOT}")
        print(f"{side:>6}: {git('log', '-1', '--format=%h %s', revisions[side])[:100]}")
    print(f"command: {' '.join(command)}; {args.repeats} runs each, alternating")

    folder = Path(tempfile.mkdtemp(prefix="pecking-alternate-"))
    worktrees: dict[str, Path] = {}
    runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    try:
        with sigterm_exits():
            for side, commit in revisions.items():
                git("worktree", "add", "--detach", str(folder / side), commit)
                worktrees[side] = folder / side
                (worktrees[side] / ".venv").symlink_to(venv, target_is_directory=True)
            for repeat in range(args.repeats):
                for side in ("before", "after"):
                    found = run_bench(worktrees[side], command, venv)
                    runs[side].append(found)
                    shown = " ".join(f"{key}={show(value)}" for key, value in found.items())
                    print(f"  run {repeat + 1} {side:>6}: {shown}", flush=True)
    except BenchFailed as failure:
        print(failure, file=sys.stderr)
        return 1
    finally:
        for worktree in worktrees.values():
            (worktree / ".venv").unlink(missing_ok=True)  # the link only, before git removes the tree
            git("worktree", "remove", "--force", str(worktree))
        shutil.rmtree(folder, ignore_errors=True)
    print("\n".join(summary(runs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
