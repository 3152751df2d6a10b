"""Positions from Nacho Pile games between heuristic bots, with how each game ended (for bench/np_value_fit.py).

    PYTHONPATH=. .venv/bin/python bench/np_value_data.py OUT.jsonl --games 4000 --seed 1 [--players 4]

One line a position, taken at the start of every turn (the seat to move has claimed its front, nothing is drawn
yet): the seat to move, the bag by chip code, per seat the plate's and the front's counts by value 1-7 (numbers
and Wilds together) and its Specials on the plate; then the game's last chip (code) and places.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.nacho_pile.bots import HeuristicBot  # noqa: E402
from games.nacho_pile.rules import FRONT_STRIDE, GAME, PHASE_CHANCE, PLATE_STRIDE  # noqa: E402


def snapshot(state) -> dict:
    n = state.num_players
    plates, fronts, specials = [], [], []
    for seat in range(n):
        p, f = seat * PLATE_STRIDE, seat * FRONT_STRIDE
        plates.append([state.plate[p + v] + state.plate[p + 7 + v] for v in range(7)])
        fronts.append([state.front[f + v] + state.front[f + 7 + v] for v in range(7)])
        specials.append(sum(state.plate[p + 14 : p + 17]))
    return {"cur": state.current, "bag": state.bag[:], "plates": plates, "fronts": fronts, "specials": specials}


def play(seed: int, players: int, cautions: list[float]) -> list[dict]:
    rng = random.Random(seed)
    options = GAME.spec.validate_options({}, players)
    state = GAME.new_state(players, options, random.Random(rng.random()))
    bots = [HeuristicBot(GAME, s, players, options, {"caution": cautions[s]}, rng) for s in range(players)]
    positions = []
    last_turn = -1
    while not state.is_terminal():
        if state.is_chance():
            if state.turn != last_turn and not state.drawn:
                positions.append(snapshot(state))
                last_turn = state.turn
            state.apply_chance(state.sample_chance(rng))
            continue
        seat = state.current
        legal = state.legal_actions(seat)
        action = legal[0] if len(legal) == 1 else bots[seat].act_in_state(state, seat, legal)
        state.apply({seat: action})
    places = list(state.outcome().places)
    for position in positions:
        position["last"] = state.last_chip
        position["places"] = places
    return positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--cautions", default="1.0", help="comma-separated cautions the seats draw from")
    args = parser.parse_args()
    cautions = [float(c) for c in args.cautions.split(",")]
    master = random.Random(args.seed)
    with open(args.out, "w") as out:
        for game in range(args.games):
            seed = master.getrandbits(64)
            picks = [cautions[master.randrange(len(cautions))] for _ in range(args.players)]
            for position in play(seed, args.players, picks):
                position["game"] = game
                out.write(json.dumps(position, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
