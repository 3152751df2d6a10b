"""Fit `games.nacho_pile.value`'s weights: a conditional logit of who wins given the last chip, on positions
from bench/np_value_data.py.

    PYTHONPATH=. .venv/bin/python bench/np_value_data.py /tmp/np/train.jsonl --games 6000 --seed 1 --cautions 0.7,1.0,1.0
    PYTHONPATH=. .venv/bin/python bench/np_value_data.py /tmp/np/test.jsonl --games 1500 --seed 2 --cautions 0.7,1.0,1.0
    PYTHONPATH=. .venv/bin/python bench/np_value_fit.py /tmp/np/train.jsonl /tmp/np/test.jsonl [--epochs 300]

Each position's term is the one of the game's actual last chip (a number's, or the Wilds' and Specials'); the
target is the share of the win (1/k for k seats sharing first place). Full-batch Adam on standardized features,
deterministic. Prints the weights (to paste into games/nacho_pile/value.py) and, on the test positions, the log
loss and Brier score of the bag-weighted mix of the fitted chances against the engine's hard mix (each seat's
win share if the game ended now, mixed the same way).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.nacho_pile.rules import WILD  # noqa: E402
from games.nacho_pile.value import seat_features, softmax, with_stage  # noqa: E402


def load(path: str):
    with open(path) as f:
        return [json.loads(line) for line in f]


def targets(places: list[int]) -> list[float]:
    winners = places.count(1)
    return [1 / winners if p == 1 else 0.0 for p in places]


def term_rows(pos):
    number_rows, other_rows, stage = seat_features(pos["plates"], pos["fronts"], pos["specials"], pos["cur"], pos["bag"])
    return number_rows, other_rows, stage


def fit(samples, dim, epochs, lr=0.05):
    """samples: (rows per seat, target per seat). Returns weights in raw feature units."""
    count = sum(len(rows) for rows, _ in samples)
    mean = [sum(r[j] for rows, _ in samples for r in rows) / count for j in range(dim)]
    var = [sum((r[j] - mean[j]) ** 2 for rows, _ in samples for r in rows) / count for j in range(dim)]
    scale = [math.sqrt(v) if v > 1e-12 else 1.0 for v in var]
    data = [([[(r[j] - mean[j]) / scale[j] for j in range(dim)] for r in rows], y) for rows, y in samples]
    w = [0.0] * dim
    m = [0.0] * dim
    v = [0.0] * dim
    b1, b2 = 0.9, 0.999
    for epoch in range(1, epochs + 1):
        grad = [0.0] * dim
        loss = 0.0
        for rows, y in data:
            z = [sum(wj * xj for wj, xj in zip(w, r)) for r in rows]
            p = softmax(z)
            for pi, yi, r in zip(p, y, rows):
                if yi:
                    loss -= yi * math.log(max(pi, 1e-12))
                d = pi - yi
                if d:
                    for j in range(dim):
                        grad[j] += d * r[j]
        n = len(data)
        for j in range(dim):
            g = grad[j] / n
            m[j] = b1 * m[j] + (1 - b1) * g
            v[j] = b2 * v[j] + (1 - b2) * g * g
            w[j] -= lr * (m[j] / (1 - b1**epoch)) / (math.sqrt(v[j] / (1 - b2**epoch)) + 1e-8)
        if epoch % 50 == 0 or epoch == 1:
            print(f"  epoch {epoch}: loss {loss / n:.4f}", file=sys.stderr, flush=True)
    # raw units: z = sum w_j (x_j - mean_j)/scale_j = sum (w_j/scale_j) x_j + const (the constant cancels)
    return [wj / sj for wj, sj in zip(w, scale)]


def model_chances(pos, number_w, other_w):
    number_rows, other_rows, stage = term_rows(pos)
    bag = pos["bag"]
    total = sum(bag)
    n = len(pos["plates"])
    out = [0.0] * n
    for value in range(7):
        if bag[value]:
            z = [sum(a * b for a, b in zip(number_w, with_stage(r, stage))) for r in number_rows[value]]
            for i, p in enumerate(softmax(z)):
                out[i] += bag[value] / total * p
    others = total - sum(bag[:WILD])
    if others:
        z = [sum(a * b for a, b in zip(other_w, with_stage(r, stage))) for r in other_rows]
        for i, p in enumerate(softmax(z)):
            out[i] += others / total * p
    return out


def hard_chances(pos):
    bag, plates, fronts, specials = pos["bag"], pos["plates"], pos["fronts"], pos["specials"]
    n = len(plates)
    totals = [sum(plates[s]) + sum(fronts[s]) + specials[s] for s in range(n)]
    total = sum(bag)
    out = [0.0] * n
    terms = [(bag[v] / total, [plates[s][v] + fronts[s][v] for s in range(n)]) for v in range(7) if bag[v]]
    others = total - sum(bag[:WILD])
    if others:
        terms.append((others / total, totals))
    for weight, scores in terms:
        keys = list(zip(scores, totals))
        best = max(keys)
        winners = [s for s in range(n) if keys[s] == best]
        for s in winners:
            out[s] += weight / len(winners)
    return out


def score(positions, chances_of):
    logloss = brier = 0.0
    for pos in positions:
        y = targets(pos["places"])
        p = chances_of(pos)
        logloss -= sum(yi * math.log(max(pi, 1e-3)) for yi, pi in zip(y, p) if yi)
        brier += sum((yi - pi) ** 2 for yi, pi in zip(y, p))
    return logloss / len(positions), brier / len(positions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("train")
    parser.add_argument("test")
    parser.add_argument("--epochs", type=int, default=300)
    parser.add_argument("--every", type=int, default=1, help="use every k-th training position")
    args = parser.parse_args()
    train = load(args.train)[:: args.every]
    test = load(args.test)
    number_samples, other_samples = [], []
    for pos in train:
        number_rows, other_rows, stage = term_rows(pos)
        y = targets(pos["places"])
        if pos["last"] < WILD:
            number_samples.append(([with_stage(r, stage) for r in number_rows[pos["last"]]], y))
        else:
            other_samples.append(([with_stage(r, stage) for r in other_rows], y))
    print(f"{len(number_samples)} number-term and {len(other_samples)} other-term positions", file=sys.stderr)
    number_w = fit(number_samples, len(number_samples[0][0][0]), args.epochs)
    other_w = fit(other_samples, len(other_samples[0][0][0]), args.epochs)
    print("NUMBER_WEIGHTS = (" + ", ".join(f"{w:.5f}" for w in number_w) + ")")
    print("OTHER_WEIGHTS = (" + ", ".join(f"{w:.5f}" for w in other_w) + ")")
    for name, chances in (("fitted", lambda p: model_chances(p, number_w, other_w)), ("hard mix", hard_chances)):
        for lo, hi in ((0.0, 0.35), (0.35, 0.7), (0.7, 1.01), (0.0, 1.01)):
            part = [p for p in test if lo <= sum(p["bag"]) / 54 < hi]
            ll, br = score(part, chances)
            print(f"{name:9s} stage {lo:.2f}-{hi:.2f} ({len(part)} positions): log loss {ll:.4f} brier {br:.4f}")


if __name__ == "__main__":
    main()
