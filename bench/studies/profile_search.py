"""Profile the search bot on positions from heuristic games:
`python -m bench.studies.profile_search GAME 'k=v;k=v' [--profile]`.

Collects up to 12 decision positions of the first seat from a seeded game of four heuristics, then times the
search bot (with the given parameters, over the game's tuned defaults) deciding each; `--profile` prints the
top of a cProfile of the same work.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time

from games import registry
from games.cli import parse_option


def positions(game_id: str, players: int, seed: int, count: int):
    game = registry.get_game(game_id)
    bots = registry.bots_for(game_id)
    best = "heuristic" if "heuristic" in bots else "random"
    state = game.start(players, None, seed)
    rng = random.Random(seed)
    players_ = [
        bots[best](game, s, players, state.options, None, random.Random(seed * 10 + s))
        for s in range(players)
    ]
    out = []
    step = 0
    while not state.is_terminal():
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
            continue
        actions = {}
        for s in state.deciders():
            legal = state.legal_actions(s)
            if s == 0 and len(legal) > 1 and step % 3 == 0 and len(out) < count:
                out.append((state.observation(s), legal))
            actions[s] = players_[s].act(state.observation(s), legal)
        step += 1
        state.apply(actions)
    return game, state.options, out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game")
    parser.add_argument("params", nargs="?", default="")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    params = dict(parse_option(p) for p in args.params.split(";") if p)
    cls = registry.bot_class("search", args.game)
    work = []
    for seed in range(args.seeds):
        game, options, pos = positions(args.game, args.players, seed + 1, 12)
        work += [(game, options, obs, legal) for obs, legal in pos]

    def run():
        for index, (game, options, obs, legal) in enumerate(work):
            bot = cls(game, 0, args.players, options, params, random.Random(index))
            bot.act(obs, legal)

    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        run()
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(18)
    start = time.process_time()
    run()
    elapsed = time.process_time() - start
    print(f"{args.game} {cls.validate_params(params)}")
    print(f"{len(work)} decisions, {1000 * elapsed / len(work):.1f} ms CPU a decision")


if __name__ == "__main__":
    main()
