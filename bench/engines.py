"""Engine benchmark: every registered game, one process, through the real runner and records.

    .venv/bin/python bench/engines.py [--games K] [--repeats R] [--players N] [--against REV]
        [--clock cpu|wall]

Per game: whole games a second (4 random bots through `play_match`, records included), decisions a second,
clones a second (states from the middle of those games), and search iterations a second (the search bot with
fixed parameters, 100 iterations from 8 positions of one random game). Medians of R repeats.

With `--against REV` the same figures are measured for the commit REV too, in the same run: REV is checked out
into a temporary git worktree, and each repeat runs REV then this checkout, one child process each, back to
back, so that a machine whose speed drifts weighs on both alike. The child is always this file, importing
`games` from the tree it measures, so both sides are measured by the same code. Printed per game: each
figure for REV and for this checkout, and the ratio (this checkout / REV).

The search figure uses the same explicit parameters on both sides (below), not each side's defaults, so that
it compares the engines and the search loop, not two choices of settings.

Every figure is timed on the process's CPU time by default (`--clock cpu`, `time.process_time`): each run is
one single-threaded process, so its CPU time is its work, and other processes on a shared machine inflate it
far less than wall time (`--clock wall`, `time.perf_counter`). Both sides use the same clock.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TARGETS = {  # whole games per second at 4 players with random bots, from the issues
    "nacho_pile": 2000,
    "nobody_but_us_chickens": 1000,
    "chicken_foot": 300,
    "chickie_nuggs": 1000,
}
CLONE_TARGET = 100_000
# Search parameters for the iterations-per-second figure: the generic defaults of the search bot as of
# 4cbc0e8, given explicitly so that later per-game defaults do not change what is measured.
SEARCH_PARAMS = {
    "iterations": 100,
    "determinizations": 0,
    "rollout": "playout",
    "rollout_depth": 0,
    "opponents": "tree",
}
FIGURES = ("games_per_s", "decisions_per_s", "clones_per_s", "search_it_per_s")


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def search_rate(game_id: str, players: int, repeats: int, clock=time.process_time) -> float:
    """Search iterations per second from positions along a random game (median of the repeats)."""
    from games import registry
    from games.bots.search import SearchBot

    game = registry.get_game(game_id)
    rng = random.Random(5)
    state = game.start(players, None, 5)
    positions = []
    step = 0
    while not state.is_terminal():
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
            continue
        seat = state.deciders()[0]
        if step % 15 == 0 and len(state.legal_actions(seat)) > 1:
            positions.append((seat, state.observation(seat)))
        step += 1
        state.apply({s: rng.choice(state.legal_actions(s)) for s in state.deciders()})
    positions = positions[:8]
    rates = []
    for _ in range(repeats):
        iterations = 0
        started = clock()
        for seat, observation in positions:
            bot = SearchBot(game, seat, players, state.options, dict(SEARCH_PARAMS), random.Random(1))
            bot.search(observation)
            iterations += SEARCH_PARAMS["iterations"]
        rates.append(iterations / (clock() - started))
    return statistics.median(rates)


def measure(players: int, games: int, repeats: int, clock_name: str = "cpu") -> dict[str, dict[str, float]]:
    """Every game's figures in this process, with `games` imported from wherever sys.path finds it, timed by
    `clock_name`'s clock (the measured tree's `bench_game` reads `time.perf_counter` from its module's `time`,
    which is pointed at that clock here, so both trees are timed alike)."""
    from games import registry
    from games.core import benchmark
    from games.core.benchmark import bench_game

    clock = CLOCKS[clock_name]
    found = {}
    benchmark.time = types.SimpleNamespace(perf_counter=clock)
    try:
        for game_id in registry.game_ids():
            report = bench_game(game_id, players, games, 0, repeats)
            found[game_id] = {name: report[name] for name in FIGURES[:3]}
            found[game_id]["search_it_per_s"] = search_rate(game_id, players, repeats, clock)
    finally:
        benchmark.time = time
    return found


def child_run(tree: Path, players: int, games: int, clock: str) -> dict[str, dict[str, float]]:
    """One repeat of every figure, measured in a child process importing `games` from `tree`."""
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        str(tree),
        "--players",
        str(players),
        "--games",
        str(games),
        "--clock",
        clock,
    ]
    environment = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(command, cwd=tree, env=environment, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"bench/engines.py: the run in {tree} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def medians(runs: list[dict[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    return {
        game: {name: statistics.median(run[game][name] for run in runs) for name in FIGURES}
        for game in runs[0]
    }


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


def compare(against: str, players: int, games: int, repeats: int, clock: str) -> int:
    try:
        commit = git("rev-parse", "--verify", f"{against}^{{commit}}")
    except subprocess.CalledProcessError:
        print(f"bench/engines.py: {against!r} is not a commit of this repository", file=sys.stderr)
        return 2
    scratch = Path(tempfile.mkdtemp(prefix="engines-against-"))
    tree = scratch / "tree"
    git("worktree", "add", "--detach", str(tree), commit)
    try:
        runs: dict[str, list] = {"before": [], "after": []}
        for repeat in range(repeats):
            for side, where in (("before", tree), ("after", ROOT)):
                runs[side].append(child_run(where, players, games, clock))
            print(f"repeat {repeat + 1}/{repeats} done", file=sys.stderr)
    finally:
        git("worktree", "remove", "--force", str(tree))
        shutil.rmtree(scratch, ignore_errors=True)
    before, after = medians(runs["before"]), medians(runs["after"])
    head = git("rev-parse", "--short", "HEAD")
    dirty = " (with uncommitted changes)" if git("status", "--porcelain", "--untracked-files=no") else ""
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores; {players} random bots, {games} games a "
        f"repeat, {repeats} repeats alternating, medians, {clock} time; before = {commit[:7]}, after = "
        f"{head}{dirty}"
    )
    print(f"search: {', '.join(f'{k}={v}' for k, v in SEARCH_PARAMS.items())}, 8 positions\n")
    labels = {
        "games_per_s": "games/s",
        "decisions_per_s": "decisions/s",
        "clones_per_s": "clones/s",
        "search_it_per_s": "search it/s",
    }
    print(f"{'game':<24} {'figure':<12} {'before':>12} {'after':>12} {'ratio':>7}")
    for game in after:
        for name in FIGURES:
            old = before.get(game, {}).get(name)
            new = after[game][name]
            ratio = f"{new / old:.2f}" if old else "-"
            shown_old = f"{old:,.0f}" if old is not None else "-"
            print(f"{game:<24} {labels[name]:<12} {shown_old:>12} {new:>12,.0f} {ratio:>7}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--against", metavar="REV", help="also measure this commit, alternating, and print ratios"
    )
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="cpu",
        help="time the figures on the process's CPU time (default) or on wall time",
    )
    parser.add_argument("--child", metavar="TREE", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeats < 1 or not 2 <= args.players <= 8:
        parser.error("--games and --repeats must be at least 1, --players between 2 and 8")
    if args.child:
        sys.path.insert(0, args.child)
        print(json.dumps(measure(args.players, args.games, 1, args.clock)))
        return 0
    if args.against:
        return compare(args.against, args.players, args.games, args.repeats, args.clock)
    sys.path.insert(0, str(ROOT))
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores; {args.players} random bots, "
        f"{args.games} games x {args.repeats} repeats, medians, {args.clock} time\n"
    )
    head = (
        f"{'game':<24} {'games/s':>9} {'target':>7} {'ratio':>6} {'decisions/s':>12} {'clones/s':>11} "
        f"{'ratio':>6}"
    )
    print(head + f" {'search it/s':>12}")
    for game_id, figures in measure(args.players, args.games, args.repeats, args.clock).items():
        target = TARGETS.get(game_id)
        ratio = f"{figures['games_per_s'] / target:.2f}" if target else "-"
        print(
            f"{game_id:<24} {figures['games_per_s']:>9,.0f} {target or '-':>7} {ratio:>6} "
            f"{figures['decisions_per_s']:>12,.0f} {figures['clones_per_s']:>11,.0f} "
            f"{figures['clones_per_s'] / CLONE_TARGET:>6.1f} {figures['search_it_per_s']:>12,.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
