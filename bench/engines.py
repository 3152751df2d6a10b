"""Engine benchmark: every registered game, 4 random bots, one process, through the real runner and records.

    .venv/bin/python bench/engines.py [--games K] [--repeats R] [--players N]

Prints games/s, decisions/s and clones/s per game (medians of R repeats) next to the issue's targets, and the
search bot's iterations per second per game.
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
from games.bots.search import SearchBot  # noqa: E402
from games.core.benchmark import bench_game  # noqa: E402

TARGETS = {  # whole games per second at 4 players with random bots, from the issues
    "nacho_pile": 2000,
    "nobody_but_us_chickens": 1000,
    "chicken_foot": 300,
    "chickie_nuggs": 1000,
}
CLONE_TARGET = 100_000


def search_rate(game_id: str, players: int, repeats: int) -> float:
    """Search iterations per second from positions along a random game (median of the repeats)."""
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
        started = time.perf_counter()
        for seat, observation in positions:
            bot = SearchBot(game, seat, players, state.options, {"iterations": 100}, random.Random(1))
            bot.search(observation)
            iterations += 100
        rates.append(iterations / (time.perf_counter() - started))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; {args.players} random bots, "
          f"{args.games} games x {args.repeats} repeats, medians\n")
    head = f"{'game':<24} {'games/s':>9} {'target':>7} {'ratio':>6} {'decisions/s':>12} {'clones/s':>11} {'ratio':>6}"
    head += f" {'search it/s':>12}"
    print(head)
    for game_id in registry.game_ids():
        report = bench_game(game_id, args.players, args.games, 0, args.repeats)
        target = TARGETS.get(game_id)
        ratio = f"{report['games_per_s'] / target:.2f}" if target else "-"
        iterations = search_rate(game_id, args.players, args.repeats)
        print(f"{game_id:<24} {report['games_per_s']:>9,.0f} {target or '-':>7} {ratio:>6} "
              f"{report['decisions_per_s']:>12,.0f} {report['clones_per_s']:>11,.0f} "
              f"{report['clones_per_s'] / CLONE_TARGET:>6.1f} {iterations:>12,.0f}")


if __name__ == "__main__":
    main()
