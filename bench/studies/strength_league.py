"""A bot league through the service that orders the bots by strength: random, the heuristic, and the search
bot at several budgets, rated by the league's own pool.

    .venv/bin/python -m bench.studies.strength_league GAME [--table 4] [--rounds 6] [--sittings 8] [--seed 1]
        [--budgets 25,100,400] [--move-seconds 60]

The bots are registered, the league is created, started and played to its target by the same services the site
and the Celery workers use (`league.bots.services.bot_register`, `league.bots.services.leagues`,
`league.bots.services.work.work_play`, here in this process), on a database of its own (a scratch PostgreSQL
database on the server of DATABASE_URL, else a SQLite file in a temporary folder). Printed: the league's
standings as its page shows them (conservative rating mu − 3σ, mu, 3σ (the page's ±), matches, mean place,
share of wins), then whether the order is random < heuristic < search and where the budgets come out in order
of budget. The search bots are `search` with only `iterations` set (every other parameter the game's default);
"search (default)" is the bot with no parameters at all.

Every bot is registered with `--move-seconds` (60 by default) as its time for a move: a league's own default
(1 s) is a limit of the service, and on a machine busy with other work a search of a large budget can go over
it now and then, forfeit, and be placed last, which measures the machine's load, not the bot. The time-outs of
each bot are printed beside its standing, so a run that had any says so.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from bench.scratch import bench_database, setup_django

ROOT = Path(__file__).resolve().parents[2]


def lineup(game_id: str, budgets: list[int]) -> list[tuple[str, str, dict]]:
    """(name, strategy, params) of the league's bots, weakest expected first."""
    bots = [("Random", "random", {}), ("Heuristic", "heuristic", {})]
    bots += [(f"Search {budget}", "search", {"iterations": budget}) for budget in budgets]
    bots.append(("Search (default)", "search", {}))
    return bots


def run(args: argparse.Namespace) -> int:
    from league.bots.models import BotLeague
    from league.bots.selectors import bot_forfeit_rates, league_standings
    from league.bots.services.definitions import bot_register
    from league.bots.services.leagues import league_create, league_start
    from league.bots.services.work import work_play

    budgets = sorted(args.budgets)
    bots = [
        bot_register(
            name=name,
            by=None,
            game_id=args.game,
            kind="builtin",
            strategy=strategy,
            params=params,
            move_seconds=args.move_seconds,
        )
        for name, strategy, params in lineup(args.game, budgets)
    ]
    league = league_create(
        name=f"Strength {args.game}",
        game_id=args.game,
        bot_ids=[b.pk for b in bots],
        table_size=args.table,
        target_kind="rounds",
        target_value=args.rounds,
        sittings_per_round=args.sittings,
        seed=args.seed,
        by=None,
    )
    league_start(league_id=league.pk)
    started, cpu = time.perf_counter(), time.process_time()
    work_play(league_id=league.pk, worker=f"bench:{os.getpid()}")
    league.refresh_from_db()
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    if league.status != BotLeague.Status.FINISHED:
        print(f"the league is {league.get_status_display().lower()}, not finished", file=sys.stderr)
        return 1
    rows = league_standings(league)
    print(f"command: .venv/bin/python bench/{Path(__file__).name} {' '.join(sys.argv[1:])}")
    print(
        f"{args.game}: {len(bots)} bots, tables of {args.table}, {args.rounds} rounds x "
        f"{args.sittings} sittings, seed {args.seed}, {args.move_seconds:g} s a move; "
        f"played in {wall:.0f} s ({cpu:.0f} s CPU)\n"
    )
    print(
        f"{'rank':>4}  {'bot':<18} {'mu-3σ':>7} {'mu':>7} {'3σ':>6} {'matches':>7} {'mean place':>10} "
        f"{'wins':>6} {'time-outs':>9}"
    )
    for row in rows:
        timeouts = bot_forfeit_rates(row.bot, viewer=None).timeouts
        print(
            f"{row.rank:>4}  {row.bot.name:<18} {row.conservative:>7.2f} "
            f"{row.mu:>7.2f} {row.uncertainty:>6.2f} {row.matches:>7} {row.mean_place:>10.2f} "
            f"{row.win_share:>6.3f} {timeouts:>9}"
        )
    mu = {row.bot.name: row.mu for row in rows}
    strongest_search = max(
        mu[name] for name, strategy, _ in lineup(args.game, budgets) if strategy == "search"
    )
    ordered = mu["Random"] < mu["Heuristic"] < strongest_search
    print(f"\nrandom < heuristic < best search (by mu): {'yes' if ordered else 'no'}")
    by_budget = [mu[f"Search {b}"] for b in budgets]
    print(
        "search budgets in order of mu: "
        + " < ".join(
            f"{b}" for b, _ in sorted(zip(budgets, by_budget, strict=True), key=lambda pair: pair[1])
        )
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--table", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--sittings", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budgets", default="25,100,400")
    parser.add_argument(
        "--move-seconds",
        type=float,
        default=60.0,
        help="each bot's time for a move (a forfeit places it last; default 60)",
    )
    args = parser.parse_args(argv)
    try:
        args.budgets = [int(part) for part in args.budgets.split(",") if part.strip()]
    except ValueError:
        print(
            "strength_league: --budgets takes whole numbers separated by commas",
            file=sys.stderr,
        )
        return 2
    if not args.budgets or min(args.budgets) < 1 or min(args.rounds, args.sittings) < 1:
        print(
            "strength_league: budgets, --rounds and --sittings must be at least 1",
            file=sys.stderr,
        )
        return 2
    if not 0.01 <= args.move_seconds <= 600:
        print("strength_league: --move-seconds must be between 0.01 and 600", file=sys.stderr)
        return 2
    from games import registry
    from games.core.errors import GameError

    try:
        registry.get_game(args.game).spec.validate_options(None, args.table)
        registry.bot_class("heuristic", args.game)
    except GameError as exc:
        print(f"strength_league: {exc}", file=sys.stderr)
        return 2
    with bench_database(os.environ.get("DATABASE_URL")) as database_url:
        setup_django(database_url)
        return run(args)


if __name__ == "__main__":
    sys.exit(main())
