"""Before/after: run one bench on two revisions, alternating them back to back, and compare the figures.

    .venv/bin/python -m bench.compare --before main~3 [--after REV] [--repeats 5] [--shared] [--json PATH] \\
        -- BENCH [bench arguments ...]

BENCH is a bench module (`engines`, `bot_league`, `bench.pages`, ...). `--before` (and `--after`, if given) is
checked out into a temporary git worktree (removed at the end) that uses this checkout's virtualenv; without
`--after` the after side is this checkout as it is, uncommitted changes included. This checkout's `bench/` is
copied into each worktree, so that both sides are measured by the same bench code and differ only in what it
measures. Each run is `python -m bench.BENCH ARGS --json FILE` in its tree (its tree first on PYTHONPATH), in
turn: before, after, before, after, ... `--repeats` times each (bench/harness.py `interleave`), so that a
machine whose speed drifts weighs on both sides alike. A run's figures are the medians it wrote (its first
side). The environment (DATABASE_URL, CELERY_BROKER_URL ...) is passed on unchanged.

`--shared` is for a bench whose state is costly to build and must be the same for both sides (bench/pages.py's
site on one scratch database): before the runs, `python -m BENCH ARGS --build-only STATE` runs once in the
after side's tree; each run is then given `--reuse STATE`; at the end, however it ends, `--drop STATE` removes
what was built. Both revisions must then share the state's form (for bench/pages.py, the database schema).

Printed: each run's figures as it ends, then per figure each side's median and range and the ratio of the
medians (after / before); `--json PATH` writes them (bench/harness.py).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from bench import harness
from bench.scratch import sigterm_exits

ROOT = Path(__file__).resolve().parent.parent


class BenchFailed(Exception):
    """A run of the bench exited with an error, or wrote no figures."""


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


def module_name(bench: str) -> str:
    """`engines`, `bench.engines` or `bench/engines.py` → `bench.engines`."""
    name = bench.removesuffix(".py").replace("/", ".")
    return name if name.startswith("bench.") else f"bench.{name}"


def run_bench(tree: Path, module: str, arguments: list[str], scratch: Path) -> dict[str, float]:
    """One run of `module` in `tree`; the medians it wrote."""
    output = scratch / "figures.json"
    output.unlink(missing_ok=True)
    command = [sys.executable, "-m", module, *arguments, "--json", str(output)]
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(tree), os.environ.get("PYTHONPATH")])),
    }
    done = subprocess.run(command, cwd=tree, env=environment, capture_output=True, text=True)
    if done.returncode != 0 or not output.exists():
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-30:])
        raise BenchFailed(f"{' '.join(command)} in {tree} exited {done.returncode}:\n{tail}")
    return harness.read_medians(output)


def run_hook(tree: Path, module: str, arguments: list[str]) -> None:
    """`python -m module ARGS` in `tree`, a `--shared` step (build or drop); the end of its output shown."""
    command = [sys.executable, "-m", module, *arguments]
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(tree), os.environ.get("PYTHONPATH")])),
    }
    done = subprocess.run(command, cwd=tree, env=environment, capture_output=True, text=True)
    print("\n".join(done.stdout.splitlines()[-20:]), flush=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-30:])
        raise BenchFailed(f"{' '.join(command)} in {tree} exited {done.returncode}:\n{tail}")


def checkout(revision: str, folder: Path) -> Path:
    """A worktree of `revision` in `folder`, with this checkout's virtualenv link and bench/ code."""
    git("worktree", "add", "--detach", str(folder), revision)
    (folder / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    shutil.rmtree(folder / "bench", ignore_errors=True)
    shutil.copytree(ROOT / "bench", folder / "bench", ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def remove(folder: Path) -> None:
    (folder / ".venv").unlink(missing_ok=True)  # the link only, before git removes the tree
    git("worktree", "remove", "--force", str(folder))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    usage = (
        "python -m bench.compare --before REV [--after REV] [--repeats N] [--shared] [--json PATH] -- BENCH"
    )
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        print(f"usage: {usage}", file=sys.stderr)
        return 2
    split = argv.index("--")
    parser = argparse.ArgumentParser(prog="python -m bench.compare", description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="the revision measured first")
    parser.add_argument("--after", help="the revision compared with it (default: this checkout as it is)")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each side")
    parser.add_argument(
        "--shared",
        action="store_true",
        help="build the bench's state once (--build-only), reuse it on both sides",
    )
    harness.add_json_option(parser)
    args = parser.parse_args(argv[:split])
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    module, arguments = module_name(argv[split + 1]), argv[split + 2 :]
    if not (ROOT / Path(*module.split("."))).with_suffix(".py").exists():
        parser.error(f"no bench module {module} in {ROOT / 'bench'}")
    revisions: dict[str, str | None] = {"before": args.before, "after": args.after}
    for side, revision in revisions.items():
        if revision is None:
            print(f"{side:>6}: this checkout ({git('log', '-1', '--format=%h %s')[:80]}, as it is)")
            continue
        try:
            revisions[side] = git("rev-parse", "--verify", f"{revision}^{{commit}}")
        except subprocess.CalledProcessError:
            parser.error(f"--{side} {revision!r} is not a revision of {ROOT}")
        print(f"{side:>6}: {git('log', '-1', '--format=%h %s', str(revisions[side]))[:100]}")
    shared = " on one state built once (--shared)" if args.shared else ""
    print(f"bench: {module} {' '.join(arguments)}; {args.repeats} runs each, alternating{shared}", flush=True)

    folder = Path(tempfile.mkdtemp(prefix="pecking-compare-"))
    trees: dict[str, Path] = {}
    state = folder / "shared-state.json"
    try:
        with sigterm_exits():
            for side, revision in revisions.items():
                trees[side] = ROOT if revision is None else checkout(revision, folder / side)
            run_arguments = arguments
            if args.shared:
                run_hook(trees["after"], module, [*arguments, "--build-only", str(state)])
                run_arguments = [*arguments, "--reuse", str(state)]

            def side_run(side: str) -> Callable[[], dict[str, float]]:
                return lambda: run_bench(trees[side], module, run_arguments, folder)

            def progress(repeat: int, side: str, figures: harness.Figures) -> None:
                shown = " ".join(f"{key}={harness.show(value)}" for key, value in figures.items())
                print(f"  run {repeat} {side:>6}: {shown}", flush=True)

            runs = harness.interleave({side: side_run(side) for side in trees}, args.repeats, progress)
    except BenchFailed as failure:
        print(failure, file=sys.stderr)
        return 1
    finally:
        if state.exists():
            try:
                run_hook(trees["after"], module, ["--drop", str(state)])
            except BenchFailed as failure:
                print(f"the shared state was not removed: {failure}", file=sys.stderr)
        for side, tree in trees.items():
            if revisions[side] is not None:
                remove(tree)
        shutil.rmtree(folder, ignore_errors=True)
    print("\n".join(harness.table(runs)))
    settings = {
        "bench": module,
        "arguments": arguments,
        "repeats": args.repeats,
        "shared": args.shared,
        **revisions,
    }
    harness.write_json(args.json, "compare", settings, runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
