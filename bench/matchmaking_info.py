"""How fast each matchmaking learns the true order: a simulation with known strengths, no database.

    .venv/bin/python -m bench.matchmaking_info [--seeds 20] [--players 32] [--rounds 60]

32 players with true skills from N(25, (25/3)²); each table's outcome from performances skill + N(0, β²),
β = 25/6; 4-seat tables, one sitting per round (every player plays once a round), rated with the league's
model (`league.ratings.maths`). For random tables, today's matchmaking (`similar`) and the informative one:
the matches per player after which Kendall's τ between true skills and rated μ stays at or above 0.9 (up to
`--rounds`; a seed that never settles counts as `--rounds`), the pairwise order accuracy after 20 matches
per player, and the matches per player each needs to reach random tables' 20-match accuracy. Medians over
the seeds are printed.
"""

from __future__ import annotations

import argparse
import random
import statistics

from league.bots import matchmaking
from league.ratings import maths

BETA = 25 / 6
TABLE = 4


def kendall_and_accuracy(true: list[float], rated: list[float]) -> tuple[float, float]:
    concordant = discordant = 0
    n = len(true)
    for i in range(n):
        for j in range(i + 1, n):
            sign = (true[i] - true[j]) * (rated[i] - rated[j])
            if sign > 0:
                concordant += 1
            elif sign < 0:
                discordant += 1
    pairs = n * (n - 1) // 2
    return (concordant - discordant) / pairs, concordant / pairs


def simulate(strategy: str, seed: int, players: int, rounds: int) -> list[tuple[float, float]]:
    """τ and pairwise accuracy after each round (= matches per player)."""
    world = random.Random(f"world:{seed}")
    true = [world.gauss(25, 25 / 3) for _ in range(players)]
    outcomes = random.Random(f"outcomes:{seed}:{strategy}")
    shuffle = random.Random(f"random-tables:{seed}")
    model = maths.DEFAULT_MODEL
    skills = [model.initial()] * players
    matches = [0] * players
    curve = []
    for number in range(1, rounds + 1):
        if strategy == "random":
            order = list(range(players))
            shuffle.shuffle(order)
            tables = [order[i : i + TABLE] for i in range(0, players, TABLE)]
        else:
            standings = [
                matchmaking.BotStanding(b, skills[b].mu, skills[b].sigma, matches[b], ())
                for b in range(players)
            ]
            drawn = matchmaking.draw_round(
                standings=standings,
                table_size=TABLE,
                sittings=1,
                league_seed=seed,
                round_number=number,
                strategy=strategy,
            )
            tables = [list(t.seats) for t in drawn]
        for table in tables:
            performance = [true[b] + outcomes.gauss(0, BETA) for b in table]
            ranked = sorted(range(len(table)), key=lambda i: -performance[i])
            places = [0] * len(table)
            for place, i in enumerate(ranked, start=1):
                places[i] = place
            after = maths.rate(model, [skills[b] for b in table], places)
            for b, skill in zip(table, after, strict=True):
                skills[b] = skill
                matches[b] += 1
        curve.append(kendall_and_accuracy(true, [s.mu for s in skills]))
    return curve


def settles(curve: list[tuple[float, float]], rounds: int) -> int:
    """The first round from which τ stays ≥ 0.9 to the end (`rounds` when it never does)."""
    settled = rounds
    for index in range(len(curve) - 1, -1, -1):
        if curve[index][0] >= 0.9:
            settled = index + 1
        else:
            break
    return settled


def reaches(curve: list[tuple[float, float]], accuracy: float) -> int | None:
    for index, (_, acc) in enumerate(curve):
        if acc >= accuracy:
            return index + 1
    return None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--players", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=60)
    args = parser.parse_args()
    if args.players % TABLE or args.players < TABLE or args.rounds < 20 or args.seeds < 1:
        parser.error("players: a positive multiple of 4; rounds: at least 20; seeds: at least 1")
    curves = {
        strategy: [simulate(strategy, seed, args.players, args.rounds) for seed in range(args.seeds)]
        for strategy in ("random", "similar", "informative")
    }
    random_at_20 = [curve[19][1] for curve in curves["random"]]
    print(f"{args.players} players, 4-seat tables, {args.seeds} seeds; medians (min–max)")
    print(f"{'tables':<28} {'τ ≥ 0.9 stays from':>20} {'accuracy at 20':>16} {'to reach random@20':>20}")
    for strategy, runs in curves.items():
        settle = [settles(curve, args.rounds) for curve in runs]
        accuracy = [curve[19][1] for curve in runs]
        reach = [
            reaches(curve, target) or args.rounds for curve, target in zip(runs, random_at_20, strict=True)
        ]
        print(
            f"{strategy:<28} {statistics.median(settle):>8.1f} ({min(settle)}–{max(settle)})"
            f"{'':>3} {statistics.median(accuracy):>8.3f}{'':>8} {statistics.median(reach):>8.1f} "
            f"({min(reach)}–{max(reach)})"
        )


if __name__ == "__main__":
    main()
