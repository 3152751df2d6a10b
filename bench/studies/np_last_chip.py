"""Nacho Pile: which chip is left last, against what the bag shows. The engine's `evaluation_mix` (what a
search scores a position short of the end by) weighs every chip in the bag alike as the possible last chip;
this measures how far that is from what games do, and fits the weights that would match them (docs/bots.md,
"the last chip's odds": a search with such weights was measured and not taken).

    .venv/bin/python -m bench.studies.np_last_chip [--games N] [--seed S] [--players P]

Plays N games of P default heuristics (match seeds S, S+1, ...) and notes the bag at the start of every turn
and the game's last chip (leaving out the turns whose bag held no chip of the last chip's kind: the chip was
out of the bag then, and came back with a Remove). Prints, by the number of chips in the bag, how often the
last chip was a Wild and a Special against their share of the bag then (what a mix weighing every chip in the
bag alike predicts), then the weights of a Wild and of a Special (a number's is 1) that make the observed last
chips most likely: P(last chip = kind) = weight x chips of the kind in the bag / the bag's weighted sum, the
weights on a grid of 0.05 from 0.20 to 2.00. Bad arguments exit with status 2.
"""

from __future__ import annotations

import argparse
import math
import random
import sys

from games import registry
from games.nacho_pile.bots import HeuristicBot
from games.nacho_pile.rules import CHIP_KINDS, STEAL, WILD

GRID = tuple(step / 20 for step in range(4, 41))


def observe(games: int, seed: int, players: int) -> list[tuple[tuple[int, ...], int]]:
    """(the bag at the start of a turn, the game's last chip) for every turn of every game."""
    game = registry.get_game("nacho_pile")
    rows = []
    for index in range(games):
        state = game.start(players, None, seed + index)
        rng = random.Random(seed + index)
        bots = [
            HeuristicBot(game, s, players, state.options, None, random.Random(seed + index + s))
            for s in range(players)
        ]
        bags = []
        turn = -1
        while not state.is_terminal():
            if state.is_chance():
                if state.turn != turn and not state.drawn:
                    turn = state.turn
                    bags.append(tuple(state.bag))
                state.apply_chance(state.sample_chance(rng))
                continue
            (seat,) = state.deciders()
            state.apply({seat: bots[seat].act_in_state(state, seat, state.legal_actions(seat))})
        rows.extend((bag, state.last_chip) for bag in bags if state.last_chip >= 0 and bag[state.last_chip])
    return rows


def fit(rows: list[tuple[tuple[int, ...], int]]) -> tuple[float, float, float]:
    """The weights of a Wild and of a Special on the grid that maximize the log-likelihood;
    and that maximum."""
    # The likelihood depends on a bag only through its numbers, Wilds and Specials: count each such triple
    # once. Each key: the bag's numbers, Wilds and Specials, the last chip's kind (0 a number, 1 the Wild, 2 a
    # Special) and how many chips of exactly the last chip were in the bag.
    counted: dict[tuple[int, int, int, int, int], int] = {}
    for bag, last in rows:
        kind = 0 if last < WILD else 1 if last == WILD else 2
        key = (sum(bag[:WILD]), bag[WILD], sum(bag[STEAL:CHIP_KINDS]), kind, bag[last])
        counted[key] = counted.get(key, 0) + 1
    best = (-math.inf, 1.0, 1.0)
    for wild in GRID:
        for special in GRID:
            total = 0.0
            for (numbers, wilds, specials, kind, held), times in counted.items():
                weight = (1.0, wild, special)[kind]
                total += times * math.log(weight * held / (numbers + wild * wilds + special * specials))
            if total > best[0]:
                best = (total, wild, special)
    return best[1], best[2], best[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.studies.np_last_chip", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=900_000)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args(argv)
    low, high = registry.get_spec("nacho_pile").players_allowed({})
    if not 1 <= args.games <= 1_000_000:
        parser.error(f"--games must be from 1 to 1000000, got {args.games}")
    if not low <= args.players <= high:
        parser.error(f"--players must be from {low} to {high}, got {args.players}")
    if args.seed < 0:
        parser.error(f"--seed must be 0 or more, got {args.seed}")

    rows = observe(args.games, args.seed, args.players)
    print(
        f"{len(rows):,} turns of {args.games:,} heuristic games, {args.players} seats, seeds {args.seed}-"
        f"{args.seed + args.games - 1}"
    )
    print(
        f"{'chips in the bag':<17} {'turns':>7} {'Wild: bag share':>16} {'last':>6} "
        f"{'Special: bag share':>19} {'last':>6}"
    )
    buckets: dict[int, list[float]] = {}
    for bag, last in rows:
        size = sum(bag)
        entry = buckets.setdefault(min(size // 8, 6), [0, 0.0, 0.0, 0, 0])
        entry[0] += 1
        entry[1] += bag[WILD] / size
        entry[2] += sum(bag[STEAL:CHIP_KINDS]) / size
        entry[3] += last == WILD
        entry[4] += last > WILD
    for bucket in sorted(buckets):
        turns, wild_share, special_share, wild_last, special_last = buckets[bucket]
        span = f"{bucket * 8}-{bucket * 8 + 7}" if bucket < 6 else "48-54"
        print(
            f"{span:<17} {turns:>7,} {wild_share / turns:>16.3f} {wild_last / turns:>6.3f} "
            f"{special_share / turns:>19.3f} {special_last / turns:>6.3f}"
        )
    wild, special, likelihood = fit(rows)
    print(
        f"most likely weights (a number's 1): Wild {wild:.2f}, Special {special:.2f} (log-likelihood "
        f"{likelihood:,.1f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
