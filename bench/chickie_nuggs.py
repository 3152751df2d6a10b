"""Chickie Nuggs benchmark: 4 random bots through the real runner, plus clones, on one core.

    .venv/bin/python bench/chickie_nuggs.py [--games K] [--repeats R] [--players N]

Prints medians of R repeats of games/s, decisions/s and clones/s, each measured two ways: wall clock, and the
CPU time of this one process (what one core delivers even when other processes share the machine).
Targets (issue 5): 1,000 whole games/s and 100,000 clones/s.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games import registry  # noqa: E402
from games.core.runner import play_match  # noqa: E402

GAME_ID = "chickie_nuggs"


def states_along(players: int, seeds: range, every: int) -> list:
    """States every `every` events along random games (the positions a search would clone)."""
    game = registry.get_game(GAME_ID)
    states = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.start(players, None, seed)
        step = 0
        while not state.is_terminal():
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
            else:
                state.apply({s: rng.choice(state.legal_actions(s)) for s in state.deciders()})
            step += 1
            if step % every == 0 and not state.is_terminal():
                states.append(state.clone())
    return states


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    bots = ["random"] * args.players
    rates: dict[str, list[float]] = {key: [] for key in ("games", "decisions", "games_cpu", "decisions_cpu")}
    for _ in range(args.repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        records = [play_match(GAME_ID, args.players, bots, seed) for seed in range(args.games)]
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        decisions = sum(
            len(payload) for record in records for kind, payload in record["events"] if kind == "m"
        )
        rates["games"].append(args.games / wall)
        rates["decisions"].append(decisions / wall)
        rates["games_cpu"].append(args.games / cpu)
        rates["decisions_cpu"].append(decisions / cpu)
    samples = states_along(args.players, range(20), 9)
    clones, clones_cpu = [], []
    rounds = max(1, 50_000 // len(samples))
    for _ in range(args.repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(rounds):
            for state in samples:
                state.clone()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        clones.append(rounds * len(samples) / wall)
        clones_cpu.append(rounds * len(samples) / cpu)
    median = statistics.median
    print(f"Chickie Nuggs, {args.players} random bots, {args.games} games x {args.repeats} repeats, medians")
    print(f"{'':14}{'wall clock':>14}{'CPU time':>14}{'target':>10}")
    print(f"{'games/s':14}{median(rates['games']):>14,.0f}{median(rates['games_cpu']):>14,.0f}{1000:>10,}")
    print(f"{'decisions/s':14}{median(rates['decisions']):>14,.0f}{median(rates['decisions_cpu']):>14,.0f}")
    print(f"{'clones/s':14}{median(clones):>14,.0f}{median(clones_cpu):>14,.0f}{100_000:>10,}")


if __name__ == "__main__":
    main()
