"""Chicken Foot speed: the engine through the real runner, next to a bare-minimum loop, in the same run.

The engine side plays whole 10-round double-nine games with 4 random bots through
`games.core.runner.play_match` (the same runner and JSON records as real matches) and clones states taken
along those games (`games.core.benchmark.bench_game`). The baseline is a plain loop written here with no
engine interface at all: the same rules (highest held double leads, four spinner arms, chickies of three,
draw one then play or pass, a full cycle of passes ends the round, double blank 50), random choices, no
records, no observations, no legality checks. The script prints the medians of each and their ratio.

    .venv/bin/python bench/chicken_foot_baseline.py [--games 200] [--repeats 5] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from anywhere

from games.core.benchmark import bench_game  # noqa: E402

TOP = 9
PLAYERS = 4
HAND = 9
BONES = [(hi, lo) for hi in range(TOP + 1) for lo in range(hi + 1)]
DOUBLE_BLANK_POINTS = 50


def baseline_game(rng: random.Random) -> list[int]:
    """One whole game as a plain loop; returns the totals."""
    scores = [0] * PLAYERS
    led = [False] * (TOP + 1)
    previous_opener = -1
    for round_index in range(TOP + 1):
        order = list(range(len(BONES)))
        rng.shuffle(order)
        hands = [order[i * HAND:(i + 1) * HAND] for i in range(PLAYERS)]
        yard = order[PLAYERS * HAND:]
        opener = lead = -1
        for number in range(TOP, -1, -1):
            if led[number]:
                continue
            double = number * (number + 1) // 2 + number
            for seat in range(PLAYERS):
                if double in hands[seat]:
                    opener, lead = seat, double
                    break
            if opener >= 0:
                break
        seat = 0 if round_index == 0 else (previous_opener + 1) % PLAYERS
        while opener < 0:
            bone = yard.pop()
            hands[seat].append(bone)
            hi, lo = BONES[bone]
            if hi == lo and not led[hi]:
                opener, lead = seat, bone
            seat = (seat + 1) % PLAYERS
        number = BONES[lead][0]
        led[number] = True
        previous_opener = opener
        hands[opener].remove(lead)
        ends: list[int] = []  # free numbers
        need_number, need_left = number, 4
        turn = (opener + 1) % PLAYERS
        passes = 0
        while True:
            hand = hands[turn]
            if need_left:
                moves = [(bone, -1) for bone in hand if need_number in BONES[bone]]
            else:
                moves = [(bone, i) for i, end in enumerate(ends) for bone in hand if end in BONES[bone]]
            if not moves and yard:
                bone = yard.pop()
                hand.append(bone)
                if need_left:
                    moves = [(bone, -1)] if need_number in BONES[bone] else []
                else:
                    moves = [(bone, i) for i, end in enumerate(ends) if end in BONES[bone]]
            if moves:
                bone, where = moves[rng.randrange(len(moves))]
                hand.remove(bone)
                hi, lo = BONES[bone]
                passes = 0
                if where < 0:
                    ends.append(hi + lo - need_number)
                    need_left -= 1
                elif hi == lo:
                    need_number, need_left = ends.pop(where), 3
                else:
                    ends[where] = hi + lo - ends[where]
                if not hand:
                    break
            else:
                passes += 1
                if passes == PLAYERS:
                    break
            turn = (turn + 1) % PLAYERS
        for seat in range(PLAYERS):
            for bone in hands[seat]:
                scores[seat] += DOUBLE_BLANK_POINTS if bone == 0 else sum(BONES[bone])
    return scores


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per repeat (default 200)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats; medians are reported (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    engine = bench_game("chicken_foot", PLAYERS, args.games, seed=args.seed, repeats=args.repeats)
    baseline_rates = []
    for repeat in range(args.repeats):
        rng = random.Random(f"baseline:{args.seed}:{repeat}")
        started = time.perf_counter()
        for _ in range(args.games):
            baseline_game(rng)
        baseline_rates.append(args.games / (time.perf_counter() - started))
    baseline = statistics.median(baseline_rates)

    print(f"Chicken Foot, double nine, {PLAYERS} random players, whole 10-round games "
          f"({args.games} games x {args.repeats} repeats, medians):")
    print(f"  engine via play_match   {engine['games_per_s']:>10,.0f} games/s")
    print(f"                          {engine['decisions_per_s']:>10,.0f} decisions/s")
    print(f"                          {engine['events_per_s']:>10,.0f} events/s "
          f"({engine['mean_events_per_game']:.0f} events a game)")
    print(f"                          {engine['clones_per_s']:>10,.0f} clones/s")
    print(f"  bare loop, no engine    {baseline:>10,.0f} games/s")
    print(f"  engine / bare loop      {engine['games_per_s'] / baseline:>10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
