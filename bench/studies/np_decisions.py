"""Where Nacho Pile's search wins: its draw-or-stop decisions, its Wild and Special decisions, or both.

    .venv/bin/python -m bench.studies.np_decisions --split both|drawstop|specials [--special-iterations N]
        [--games 600] [--seed 2038]

Plays the arena's series (`games.core.arena.play_series`: match g has seed `series_seed(seed, g)`, seats
rotated) of one search seat against three copies of `heuristic` at 4 seats, where the search seat is the
default `search` bot (Nacho Pile's tuned defaults) for the decisions `--split` names and the default
`heuristic` for the others:

- `both`: every decision by the search (the default search bot itself: the same games as
  `python -m games arena nacho_pile --bots "search,heuristic,heuristic,heuristic"` with the same seed);
- `drawstop`: the search decides draw or stop, the heuristic values the Wilds and plays the Specials;
- `specials`: the heuristic decides draw or stop, the search values the Wilds and plays the Specials.

`--special-iterations N` gives the search N iterations for its Wild and Special decisions (its draw-or-stop
decisions keep the default; N is checked as the search bot's own `iterations` parameter). A measuring stick
only: the split bot is not in the registry.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from games.bots.search import SearchBot
from games.core.arena import play_series
from games.core.errors import GameError
from games.core.runner import SeatPlayer
from games.nacho_pile.bots import HeuristicBot

GAME = "nacho_pile"
DRAW_OR_STOP = ["draw", "stop"]


def split_bot(split: str, special_iterations: int) -> type:
    """The default Nacho Pile search, handing the decisions `split` leaves out to the heuristic."""

    class SplitSearch(SearchBot.for_game(GAME)):  # type: ignore[misc]
        def __init__(self, game, seat, num_players, options, params, rng):
            super().__init__(game, seat, num_players, options, params, rng)
            self.heuristic = HeuristicBot(game, seat, num_players, options, None, rng)  # draws nothing

        def act(self, observation: Any, legal_actions: list) -> Any:
            draw_or_stop = legal_actions == DRAW_OR_STOP
            if (split == "drawstop" and not draw_or_stop) or (split == "specials" and draw_or_stop):
                return self.heuristic.act(observation, legal_actions)
            if draw_or_stop or not special_iterations:
                return super().act(observation, legal_actions)
            saved = self.config["iterations"]
            self.config["iterations"] = special_iterations
            try:
                return super().act(observation, legal_actions)
            finally:
                self.config["iterations"] = saved

    return SplitSearch


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("both", "drawstop", "specials"), default="both")
    parser.add_argument("--special-iterations", type=int, default=0)
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=2038)
    args = parser.parse_args(argv)
    if args.games < 1:
        print("bench/studies/np_decisions.py: --games must be at least 1", file=sys.stderr)
        return 2
    if args.special_iterations:
        try:  # the search bot's own check of its `iterations` parameter
            SearchBot.validate_params({"iterations": args.special_iterations})
        except GameError as exc:
            print(f"bench/studies/np_decisions.py: --special-iterations: {exc}", file=sys.stderr)
            return 2
    cls = split_bot(args.split, args.special_iterations)

    def make(game, seat, num_players, options, rng):
        return cls(game, seat, num_players, options, None, rng)

    seats = [SeatPlayer("search", make=make), "heuristic", "heuristic", "heuristic"]
    started = time.process_time()
    result = play_series(GAME, seats, 4, args.games, args.seed)
    iterations = (
        f", {args.special_iterations} iterations for Wilds and Specials" if args.special_iterations else ""
    )
    print(
        f"Nacho Pile: search for {args.split}{iterations} (the heuristic for the rest) against 3 x "
        f"heuristic, {args.games} games, seed {args.seed}; CPU {time.process_time() - started:.0f} s"
    )
    print(result.table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
