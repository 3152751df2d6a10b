"""How much of a game is luck: a search that sees every hidden card, against the game's best heuristic.

    .venv/bin/python -m bench.studies.ceiling GAME [--players 4] [--games 200] [--seed 7] [--jobs 2]
        [--params "iterations=300;..."] [--opponent heuristic]

The ceiling bot is the search bot (`games.bots.search.SearchBot`, the game's default parameters unless
`--params` says otherwise) with one difference: where the search bot deals a state from its observation, the
ceiling bot takes a copy of the true state, so it knows every hand and every hidden card (what the dice, the
bag or the shuffle will bring next is still drawn at random inside its search). It is a measuring stick and
nothing else: it is not in the registry, so no league, ladder or arena can seat it.

Its win share against three (or N - 1) copies of the heuristic is about as far as any player could get with
that much search: what it cannot win is luck. The series is played like the arena's (`games.core.arena`):
match g has seed `series_seed(seed, g)` and the seats rotate by g; the table is the arena's.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from games import registry
from games.bots.search import SearchBot
from games.core.arena import BotLine, SeriesResult, series_seed
from games.core.errors import GameError
from games.core.runner import bot_seed
from games.core.state import Game, Observation, State

CEILING = "ceiling"


class SeeingGame:
    """A game whose `sample_state` hands out copies of one true state
    instead of dealing from an observation."""

    def __init__(self, game: Game, state: State):
        self._game = game
        self.state = state

    def sample_state(self, observation: Observation, rng: random.Random) -> State:
        return self.state.clone()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


class Seeing:
    """Mixed into a search bot: it searches the true state (kept out of the registry:
    a measuring stick only)."""

    name = CEILING
    summary = "search that sees every hidden card (bench/studies/ceiling.py only)"

    def act_seeing(self, state: State, legal: list) -> Any:
        self.game = SeeingGame(self.game, state)
        try:
            return self.act(state.observation(self.seat), legal)
        finally:
            self.game = self.game._game


def ceiling_class(game_id: str) -> type:
    """The ceiling bot of a game: the search bot with that game's tuned defaults, seeing the true state."""
    return type("CeilingBot", (Seeing, SearchBot.for_game(game_id)), {"__module__": __name__})


def parse_params(text: str) -> dict[str, str]:
    """`key=value;key=value` as the arena's --bots writes parameters (values validated by the bot)."""
    params = {}
    for item in filter(None, (part.strip() for part in text.split(";"))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"parameter {item!r} is not key=value")
        params[key.strip()] = value.strip()
    return params


def play_one(args: tuple) -> tuple[list[int], list[float], dict[int, int], dict[int, float]]:
    """One match: seat `ceiling_seat` is the ceiling bot, the others `opponent`; places, scores, timing."""
    game_id, players, ceiling_seat, opponent, params, seed = args
    game = registry.get_game(game_id)
    options = game.spec.validate_options(None, players)
    state = game.new_state(players, options, random.Random(seed))
    bots: list[Any] = []
    for seat in range(players):
        rng = random.Random(bot_seed(seed, seat))
        if seat == ceiling_seat:
            bots.append(ceiling_class(game_id)(game, seat, players, options, params, rng))
        else:
            bots.append(registry.bot_class(opponent, game_id)(game, seat, players, options, None, rng))
    decisions: dict[int, int] = {}
    seconds: dict[int, float] = {}
    rng = state.rng
    while not state.is_terminal():
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
            continue
        actions = {}
        for seat in state.deciders():
            legal = state.legal_actions(seat)
            started = time.perf_counter()
            if seat == ceiling_seat:
                actions[seat] = bots[seat].act_seeing(state, legal)
            else:
                actions[seat] = bots[seat].act(state.observation(seat), legal)
            decisions[seat] = decisions.get(seat, 0) + 1
            seconds[seat] = seconds.get(seat, 0.0) + time.perf_counter() - started
        state.apply(actions)  # checked: a ceiling bot's choice must be legal like anyone's
    outcome = state.outcome()
    return list(outcome.places), list(outcome.scores), decisions, seconds


def ceiling_series(
    game_id: str,
    players: int,
    games: int,
    seed: int,
    params: dict[str, Any],
    opponent: str = "heuristic",
    jobs: int = 1,
) -> SeriesResult:
    """The ceiling bot in seat g mod N of match g, the opponent elsewhere; aggregated like an arena series."""
    registry.bot_class(opponent, game_id)  # an unknown opponent is refused before anything is played
    ceiling_class(game_id).validate_params(params)
    tasks = [(game_id, players, g % players, opponent, params, series_seed(seed, g)) for g in range(games)]
    result = SeriesResult(game_id, players, games, seed)
    lines = {CEILING: BotLine(CEILING), opponent: BotLine(opponent)}
    result.lines = lines
    if jobs <= 1:
        outcomes = map(play_one, tasks)
    else:
        pool = ProcessPoolExecutor(max_workers=jobs)
        outcomes = pool.map(play_one, tasks, chunksize=max(1, games // (jobs * 8)))
    for task, (places, scores, decisions, seconds) in zip(tasks, outcomes, strict=True):
        ceiling_seat = task[2]
        for seat in range(players):
            lines[CEILING if seat == ceiling_seat else opponent].add(
                places, seat, scores[seat], decisions.get(seat, 0), seconds.get(seat, 0.0)
            )
    if jobs > 1:
        pool.shutdown()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a game id: " + ", ".join(registry.game_ids()))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--params", default="", help="search parameters, key=value;key=value (default: the game's)"
    )
    parser.add_argument("--opponent", default="heuristic", help="the bot of the other seats")
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1:
        print("bench/studies/ceiling.py: --games and --jobs must be at least 1", file=sys.stderr)
        return 2
    try:
        game = registry.get_game(args.game)
        game.spec.validate_options(None, args.players)
        params = parse_params(args.params)
        started = time.process_time()
        result = ceiling_series(
            args.game,
            args.players,
            args.games,
            args.seed,
            params,
            args.opponent,
            min(args.jobs, os.cpu_count() or 1),
        )
    except (GameError, ValueError) as exc:
        print(f"bench/studies/ceiling.py: {exc}", file=sys.stderr)
        return 2
    shown = ";".join(f"{k}={v}" for k, v in params.items()) or "the game's defaults"
    print(
        f"{game.spec.name}, {args.players} players, {args.games} games, seed {args.seed}: the ceiling bot "
        f"(search, {shown}, seeing every hidden card) against {args.players - 1} x {args.opponent} "
        f"(fair share {result.fair_share:.3f}; CPU of this process {time.process_time() - started:.0f} s)"
    )
    print(result.table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
