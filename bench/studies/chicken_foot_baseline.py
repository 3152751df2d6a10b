"""Chicken Foot speed: the engine through the real runner, next to a bare-minimum loop, in the same run.

The engine side plays whole 10-round double-nine games with 4 random bots through
`games.core.runner.play_match` (the same runner and JSON records as real matches) and clones states taken
along those games. The baseline is a plain loop written here with no engine interface at all: the same rules
(highest held double leads, four spinner arms, chickies of three, draw one then play or pass, a full cycle of
passes ends the round, double blank 50), random choices, no records, no observations, no legality checks. Both
sides run alternately in each repeat. The script prints medians of each and their ratio, by the wall clock and
by this process's CPU time (on a shared machine the wall clock also counts time spent waiting for a core).

    .venv/bin/python -m bench.studies.chicken_foot_baseline [--games 200] [--repeats 5] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from games.core.benchmark import states_along
from games.core.runner import play_match

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
        hands = [order[i * HAND : (i + 1) * HAND] for i in range(PLAYERS)]
        yard = order[PLAYERS * HAND :]
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


def timed(work) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per repeat (default 200)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats; medians are reported (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rates: dict[str, list[float]] = {
        key: []
        for key in (
            "engine_wall",
            "engine_cpu",
            "decisions_wall",
            "decisions_cpu",
            "baseline_wall",
            "baseline_cpu",
            "clones_wall",
            "clones_cpu",
        )
    }
    records: list[dict] = []
    events_per_game: list[float] = []
    for repeat in range(args.repeats):
        seeds = range(args.seed + repeat * args.games, args.seed + (repeat + 1) * args.games)

        counts = {"decisions": 0, "events": 0}

        def engine_games(seeds=seeds, counts=counts) -> None:
            # Records are counted and dropped as a league worker would store them (only a few are kept for the
            # clone timing), so that holding hundreds of them does not slow the collector down.
            records.clear()
            for seed in seeds:
                record = play_match("chicken_foot", PLAYERS, ["random"] * PLAYERS, seed)
                counts["events"] += len(record["events"])
                counts["decisions"] += sum(len(payload) for kind, payload in record["events"] if kind == "m")
                if len(records) < 20:
                    records.append(record)

        wall, cpu = timed(engine_games)
        decisions = counts["decisions"]
        events_per_game.append(counts["events"] / args.games)
        rates["engine_wall"].append(args.games / wall)
        rates["engine_cpu"].append(args.games / cpu)
        rates["decisions_wall"].append(decisions / wall)
        rates["decisions_cpu"].append(decisions / cpu)

        rng = random.Random(f"baseline:{args.seed}:{repeat}")
        wall, cpu = timed(lambda rng=rng: [baseline_game(rng) for _ in range(args.games)])
        rates["baseline_wall"].append(args.games / wall)
        rates["baseline_cpu"].append(args.games / cpu)

        samples = [state for record in records for state in states_along(record, len(record["events"]) // 10)]
        rounds = max(1, 20_000 // len(samples))

        def clone_all(samples=samples, rounds=rounds) -> None:
            for _ in range(rounds):
                for state in samples:
                    state.clone()

        wall, cpu = timed(clone_all)
        rates["clones_wall"].append(rounds * len(samples) / wall)
        rates["clones_cpu"].append(rounds * len(samples) / cpu)
    median = {key: statistics.median(values) for key, values in rates.items()}
    events = statistics.mean(events_per_game)

    print(
        f"Chicken Foot, double nine, {PLAYERS} random players, whole 10-round games "
        f"({args.games} games x {args.repeats} repeats, medians; {events:.0f} events a game):"
    )
    print(f"  {'':28}{'wall clock':>14}{'CPU time':>14}")
    print(
        f"  {'engine via play_match':28}{median['engine_wall']:>14,.0f}{median['engine_cpu']:>14,.0f}  "
        "games/s"
    )
    print(f"  {'':28}{median['decisions_wall']:>14,.0f}{median['decisions_cpu']:>14,.0f}  decisions/s")
    print(f"  {'':28}{median['clones_wall']:>14,.0f}{median['clones_cpu']:>14,.0f}  clones/s")
    print(
        f"  {'bare loop, no engine':28}{median['baseline_wall']:>14,.0f}{median['baseline_cpu']:>14,.0f}  "
        "games/s"
    )
    print(
        f"  {'engine / bare loop':28}{median['engine_wall'] / median['baseline_wall']:>14.2f}"
        f"{median['engine_cpu'] / median['baseline_cpu']:>14.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
