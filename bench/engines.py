"""Engine benchmark: every registered game, one process, through the real runner and records.

    .venv/bin/python -m bench.engines [--games K] [--repeats R] [--players N] [--clock cpu|wall] [--json PATH]

Per game: whole games a second (N random bots through `play_match`, records included), decisions a second,
clones a second (states from the middle of those games), and search iterations a second (the search bot with
fixed parameters, 100 iterations from 8 positions of one random game). Each figure's median and range over R
repeats (bench/harness.py). To compare two revisions, alternating: `python -m bench.compare --before REV --
engines --repeats 1` (bench/compare.py).

The search figure uses the same explicit parameters on every revision (below), not each revision's defaults,
so that it compares the engines and the search loop, not two choices of settings.

Every figure is timed on the process's CPU time by default (`--clock cpu`, `time.process_time`): a run is one
single-threaded process, so its CPU time is its work, and other processes on a shared machine inflate it far
less than wall time (`--clock wall`, `time.perf_counter`).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import types
from pathlib import Path

from bench import harness

ROOT = Path(__file__).resolve().parent.parent

TARGETS = {  # whole games per second at 4 players with random bots: the engines' targets
    "nacho_pile": 2000,
    "nobody_but_us_chickens": 1000,
    "chicken_foot": 300,
    "chickie_nuggs": 1000,
}
CLONE_TARGET = 100_000
# Search parameters for the iterations-per-second figure: the search bot's first generic defaults, given
# explicitly so that per-game defaults do not change what is measured.
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


def flatten(found: dict[str, dict[str, float]]) -> dict[str, float]:
    """`{game: {figure: value}}` → `{"game figure": value}`, the harness's figures."""
    return {f"{game} {name}": value for game, figures in found.items() for name, value in figures.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.engines", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="cpu",
        help="time the figures on the process's CPU time (default) or on wall time",
    )
    harness.add_json_option(parser)
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeats < 1 or not 2 <= args.players <= 8:
        parser.error("--games and --repeats must be at least 1, --players between 2 and 8")
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores; {args.players} random bots, "
        f"{args.games} games x {args.repeats} repeats, medians [ranges], {args.clock} time; "
        f"search: {', '.join(f'{k}={v}' for k, v in SEARCH_PARAMS.items())}, 8 positions\n",
        flush=True,
    )
    runs = harness.interleave(
        {"engines": lambda: flatten(measure(args.players, args.games, 1, args.clock))}, args.repeats
    )
    print("\n".join(harness.table(runs)))
    medians = harness.summarize(runs)["engines"]
    print()
    for game_id, target in TARGETS.items():
        if f"{game_id} games_per_s" in medians:
            rate = medians[f"{game_id} games_per_s"].median
            print(f"{game_id:<24} games/s {rate:>9,.0f}, target {target:>5}: {rate / target:.2f}x")
    clones = min(found.median for name, found in medians.items() if name.endswith("clones_per_s"))
    print(f"slowest clones/s {clones:,.0f}, target {CLONE_TARGET:,}: {clones / CLONE_TARGET:.2f}x")
    settings = {"games": args.games, "repeats": args.repeats, "players": args.players, "clock": args.clock}
    harness.write_json(args.json, "engines", settings, runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
