"""Tune the search bot's parameters for one game: a small grid
with common random seeds against three copies of the game's best heuristic.

    .venv/bin/python -m bench.studies.tune_search GAME "SETTING" ["SETTING" ...] [--games N] [--seed S]
        [--players P]

Each SETTING is the search bot's parameters as on the arena command line (`iterations=300;prior=heuristic`,
or `default` for the game's tuned defaults). Every setting plays the same series (`games.core.arena`: the same
match seeds, seats rotated), so settings are compared on the same deals. Prints per setting the search bot's
win share with its 95% Wilson interval, its mean place, and its CPU milliseconds a decision (process time of
the whole series over the search bot's decisions: an upper bound, since it includes the heuristics' moves,
and unlike wall time it does not grow with the load of other processes).
"""

from __future__ import annotations

import argparse
import time

from games import registry
from games.cli import parse_option
from games.core.arena import play_series


def best_heuristic(game_id: str) -> str:
    return "heuristic" if "heuristic" in registry.bots_for(game_id) else "random"


def run(game_id: str, setting: str, games: int, seed: int, players: int) -> str:
    params = {} if setting == "default" else dict(parse_option(p) for p in setting.split(";") if p)
    other = best_heuristic(game_id)
    bots = [("search", params)] + [other] * (players - 1)
    start = time.process_time()
    result = play_series(game_id, bots, players, games, seed)
    cpu = time.process_time() - start
    line = next(line for name, line in result.lines.items() if name.startswith("search"))
    low, high = line.wins_interval
    ms = 1000 * cpu / line.decisions if line.decisions else 0.0
    return (
        f"{game_id} {setting:<60} games {games} seed {seed}: win share {line.win_share:.3f} "
        f"({low:.3f}-{high:.3f})"
        f" mean place {line.mean_place:.3f} cpu ms/decision {ms:.1f} (wall {line.ms_per_decision:.1f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("game")
    parser.add_argument("settings", nargs="+")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1001)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    for setting in args.settings:
        print(run(args.game, setting, args.games, args.seed, args.players), flush=True)


if __name__ == "__main__":
    main()
