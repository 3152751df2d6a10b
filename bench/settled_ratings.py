"""Settled ratings (the whole history fitted at once) against live ratings (updated match by match), on
synthetic pools whose true skills are known: no database.

    .venv/bin/python -m bench.settled_ratings [--seeds 10] [--players 48] [--games 1 2 4 8 16]

Each pool: `--players` players with true skills from N(25, (25/3)²); every day each plays one table, the
day's players shuffled and cut into tables of 2 to 7 seats; a table's places come from performances skill +
N(0, β²), β = 25/6, rounded to whole points (so equal performances tie). For G games per player (G days),
both systems see the first G days: live ratings are the league's model (`league.ratings.maths`, openskill's
Bradley–Terry full, rated table by table in order); settled ratings are `league.ratings.whole_history.fit`
on the same tables.
Printed per G, medians over the seeds:
- Kendall's τ between the true skills and each system's ratings after day G (live: μ; settled: the rating of
  each player's last day), over the players who played;
- out of sample: both predict the tables of day G + 1 (live from μ, σ and β with the pool's forecast; settled
  by Luce's rule on the last settled rating, 0 for an unseen player), scored by log loss and Brier on who
  finished first (1/k each for k tied winners) — lower is better.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

from league.ratings import forecast, maths
from league.ratings import whole_history as whr

BETA = 25 / 6
SIZES = range(2, 8)


def kendall(true: list[float], rated: list[float]) -> float:
    concordant = discordant = 0
    n = len(true)
    for i in range(n):
        for j in range(i + 1, n):
            sign = (true[i] - true[j]) * (rated[i] - rated[j])
            concordant += sign > 0
            discordant += sign < 0
    return (concordant - discordant) / (n * (n - 1) // 2)


def days_of(seed: int, players: int, days: int) -> tuple[list[float], list[list[list[tuple[int, int]]]]]:
    """True skills, and each day's tables as [(player, place)]."""
    world = random.Random(f"settled:{seed}")
    true = [world.gauss(25, 25 / 3) for _ in range(players)]
    schedule = []
    for _ in range(days):
        order = list(range(players))
        world.shuffle(order)
        tables, start = [], 0
        while start < players:
            size = world.choice(SIZES)
            if players - start - size == 1:  # never a table of one
                size += 1
            seated = order[start : start + size]
            start += size
            scores = {p: round(true[p] + world.gauss(0, BETA)) for p in seated}
            ranked = sorted(set(scores.values()), reverse=True)
            places = {score: 1 + sum(1 for s in scores.values() if s > score) for score in ranked}
            tables.append([(p, places[scores[p]]) for p in seated])
        schedule.append(tables)
    return true, schedule


def scores(predictions: list[tuple[list[float], list[int]]]) -> tuple[float, float]:
    """Mean log loss and Brier score of P(first) over tables."""
    losses, briers = [], []
    for chances, places in predictions:
        winners = [i for i, place in enumerate(places) if place == 1]
        y = [1 / len(winners) if i in winners else 0.0 for i in range(len(places))]
        losses.append(-sum(t * math.log(max(p, 1e-15)) for t, p in zip(y, chances, strict=True)))
        briers.append(sum((p - t) ** 2 for t, p in zip(y, chances, strict=True)))
    return statistics.fmean(losses), statistics.fmean(briers)


def run(seed: int, players: int, games: int) -> dict[str, float]:
    true, schedule = days_of(seed, players, games + 1)
    model = maths.DEFAULT_MODEL
    live = [model.initial()] * players
    history = []
    for day, tables in enumerate(schedule[:games]):
        for table in tables:
            seats = [p for p, _ in table]
            after = maths.rate(model, [live[p] for p in seats], [place for _, place in table])
            for p, skill in zip(seats, after, strict=True):
                live[p] = skill
            history.append(whr.Table(day=day, seats=table))
    settled_fit = whr.fit(history)
    settled = [settled_fit[p][-1].rating if p in settled_fit else 0.0 for p in range(players)]
    live_predictions, settled_predictions = [], []
    for table in schedule[games]:
        seats = [p for p, _ in table]
        places = [place for _, place in table]
        chances = [s.p_first for s in forecast.forecast([(live[p].mu, live[p].sigma) for p in seats], BETA)]
        live_predictions.append((chances, places))
        settled_predictions.append((whr.first_chances([settled[p] for p in seats]), places))
    live_loss, live_brier = scores(live_predictions)
    settled_loss, settled_brier = scores(settled_predictions)
    return {
        "tau_live": kendall(true, [skill.mu for skill in live]),
        "tau_settled": kendall(true, settled),
        "loss_live": live_loss,
        "loss_settled": settled_loss,
        "brier_live": live_brier,
        "brier_settled": settled_brier,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--players", type=int, default=48)
    parser.add_argument("--games", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    args = parser.parse_args()
    if args.seeds < 1 or args.players < 4 or any(g < 1 for g in args.games):
        parser.error("--seeds ≥ 1, --players ≥ 4, --games each ≥ 1")
    print(f"{args.players} players, {args.seeds} seeds, medians; lower log loss and Brier are better")
    print(
        "| games per player | τ live | τ settled | log loss live | log loss settled "
        "| Brier live | Brier settled |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for games in args.games:
        runs = [run(seed, args.players, games) for seed in range(args.seeds)]
        m = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
        print(
            f"| {games} | {m['tau_live']:.3f} | {m['tau_settled']:.3f} | {m['loss_live']:.4f} | "
            f"{m['loss_settled']:.4f} | {m['brier_live']:.4f} | {m['brier_settled']:.4f} |"
        )


if __name__ == "__main__":
    main()
