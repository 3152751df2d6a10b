"""Engine benchmark: whole games, decisions and clones per second with random bots, through the runner.

Each repeat plays `games` matches with `play_match` (the same runner and records as real matches) and
clones states taken from the middle of those matches; the report gives the median of the repeats.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from games import registry
from games.core.runner import play_match


def states_along(record: dict[str, Any], every: int) -> list[Any]:
    """States at every `every`-th event of a record (replayed without the bots)."""
    game = registry.get_game(record["game"])
    state = game.new_state(len(record["seats"]), record["options"], random.Random(record["seed"]))
    states = []
    for index, (kind, payload) in enumerate(record["events"]):
        if kind == "c":
            state.apply_chance(payload)
        else:
            state.apply({int(seat): action for seat, action in payload.items()})
        if index % every == 0 and not state.is_terminal():
            states.append(state.clone())
    return states


def bench_game(game_id: str, players: int, games: int, seed: int = 0, repeats: int = 5) -> dict[str, Any]:
    spec = registry.get_game(game_id).spec
    bots = ["random"] * players
    game_rates, decision_rates, event_rates, clone_rates = [], [], [], []
    kept: list[dict[str, Any]] = []
    for _ in range(repeats):
        decisions = events = 0
        kept = []
        started = time.perf_counter()
        for g in range(games):
            record = play_match(game_id, players, bots, seed + g)
            events += len(record["events"])
            decisions += sum(len(payload) for kind, payload in record["events"] if kind == "m")
            if len(kept) < 20:  # a few records for the clone test; keeping all would time the collector
                kept.append(record)
        elapsed = time.perf_counter() - started
        game_rates.append(games / elapsed)
        decision_rates.append(decisions / elapsed)
        event_rates.append(events / elapsed)

    samples = []
    for record in kept:
        samples.extend(states_along(record, max(1, len(record["events"]) // 10)))
    rounds = max(1, 20_000 // max(1, len(samples)))
    for _ in range(repeats):
        started = time.perf_counter()
        for _ in range(rounds):
            for state in samples:
                state.clone()
        clone_rates.append(rounds * len(samples) / (time.perf_counter() - started))

    report = {
        "game": game_id,
        "version": spec.version,
        "players": players,
        "games_per_repeat": games,
        "repeats": repeats,
        "games_per_s": statistics.median(game_rates),
        "decisions_per_s": statistics.median(decision_rates),
        "events_per_s": statistics.median(event_rates),
        "clones_per_s": statistics.median(clone_rates),
        "mean_events_per_game": events / games,
    }
    report["text"] = (
        f"{spec.name} ({players} random bots, {games} games x {repeats} repeats, medians):\n"
        f"  games/s      {report['games_per_s']:>12,.0f}\n"
        f"  decisions/s  {report['decisions_per_s']:>12,.0f}\n"
        f"  events/s     {report['events_per_s']:>12,.0f}  ({report['mean_events_per_game']:.0f} events a "
        "game)\n"
        f"  clones/s     {report['clones_per_s']:>12,.0f}"
    )
    return report
