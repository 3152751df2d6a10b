"""Bot-league throughput: a Nacho Pile league on PostgreSQL, Redis and real Celery workers, next to the
engine alone with the same number of processes, in the same run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres CELERY_BROKER_URL=redis://127.0.0.1:6379/12 \
        .venv/bin/python bench/bot_league.py [--processes 2] [--bots 8] [--table 4] [--rounds 3]
        [--sittings 300] [--batch 100] [--commit-every 50] [--repeats 5]

The service's figure counts matches played, recorded (record and result version stored) and rated, per second,
from the league's start to the commit that finished it (which follows the last rating): the league's
`finished_at − started_at`, both written by the database's clock. The engine's figure plays the very same
matches (same seeds, same bots, same seats) with a pool of the same number of processes and stores nothing,
right after the league; from the second repeat on it is averaged with the engine's rate on the previous
league's matches measured right before the league (the same bots, table size and number of matches), so that a
machine whose speed drifts weighs on both sides of the ratio alike. Each repeat uses a fresh league; the
medians are printed, then once more on one line for scripts (bench/alternate.py reads it): `RESULT ratio=0.58
service=672.4 engine=1153.0 recorded=701.2 size=251.0`. The bench works in a database of its own, created on
the server of DATABASE_URL under a name no other run uses and dropped at its end (bench/scratch.py); the Redis
database of CELERY_BROKER_URL is emptied first, so give the bench one of its own.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import secrets
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.scratch import scratch_database  # noqa: E402

BOT_MIX = (("Random", "random", {}),) + tuple(
    (f"Heuristic {caution}", "heuristic", {"caution": caution})
    for caution in (0.3, 0.6, 1.0, 1.5, 2.0, 3.0, 5.0)
)


def fail(message: str) -> None:
    print(message, file=sys.stderr)
    sys.exit(2)


def play_one(args: tuple) -> int:
    from league.bots.playing import play_league_match

    game_id, options, seed, seats = args
    played = play_league_match(game_id=game_id, options=options, seed=seed, seats=seats)
    return len(played.record["events"])


def engine_rate(jobs: list[tuple], processes: int) -> float:
    """Matches per second playing `jobs` with a pool of `processes` (the pool's start-up not counted)."""
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        pool.map(play_one, jobs[: processes * 2])  # warm the processes up (imports, caches)
        started = time.perf_counter()
        pool.map(play_one, jobs, chunksize=max(1, len(jobs) // (processes * 20)))
        return len(jobs) / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--bots", type=int, default=8)
    parser.add_argument("--table", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sittings", type=int, default=300)
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--commit-every", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    server_url = os.environ.get("DATABASE_URL", "")
    broker_url = os.environ.get("CELERY_BROKER_URL", "")
    if not server_url.startswith("postgres"):
        fail("set DATABASE_URL to a PostgreSQL server, e.g. postgres://postgres@127.0.0.1:5432/postgres")
    if not broker_url.startswith("redis://"):
        fail("set CELERY_BROKER_URL to a Redis database, e.g. redis://127.0.0.1:6379/12")
    if not 2 <= args.table <= 6 or not args.table <= args.bots <= len(BOT_MIX):
        fail(f"--table must be 2 to 6 and --bots from --table to {len(BOT_MIX)}")

    with scratch_database(server_url) as database_url:
        run(args, database_url, broker_url)


def run(args: argparse.Namespace, database_url: str, broker_url: str) -> None:
    """The leagues and the engine runs of one bench, in the (fresh, empty) database of `database_url`."""
    os.environ["DATABASE_URL"] = database_url
    os.environ["SECRET_KEY"] = secrets.token_urlsafe(48)  # production settings, as a deployment runs them
    os.environ["DJANGO_SETTINGS_MODULE"] = "league.settings.production"
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    subprocess.run(["redis-cli", "-u", broker_url, "flushdb"], check=True, capture_output=True)

    from django.db.models import Max

    from league.bots.models import BotLeague, Fixture
    from league.bots.services.definitions import bot_register
    from league.bots.services.leagues import league_create, league_start
    from league.bots.services.work import seat_bots
    from league.matches.models import Match, MatchSeat
    from league.results.models import ResultVersion

    bots = [
        bot_register(
            name=name, game_id="nacho_pile", kind="builtin", strategy=strategy, params=params, by=None
        )
        for name, strategy, params in BOT_MIX[: args.bots]
    ]
    environment = {**os.environ}
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "league",
            "worker",
            "--pool",
            "prefork",
            "--concurrency",
            str(args.processes),
            "-l",
            "warning",
            "-n",
            f"bench-{os.getpid()}@%h",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=ROOT,
        env=environment,
        start_new_session=True,
    )
    service, recorded, engine, sizes, matches = [], [], [], [], 0
    before: float | None = None
    try:
        time.sleep(3)  # the worker's start-up is not part of the league
        for repeat in range(args.repeats):
            league = league_create(
                name=f"Bench {repeat}",
                game_id="nacho_pile",
                bot_ids=[bot.pk for bot in bots],
                table_size=args.table,
                target_kind="rounds",
                target_value=args.rounds,
                sittings_per_round=args.sittings,
                seed=1000 + repeat,
                batch_size=args.batch,
                commit_every=args.commit_every,
                by=None,
            )
            league_start(league_id=league.pk)
            while BotLeague.objects.values_list("status", flat=True).get(pk=league.pk) != "finished":
                time.sleep(0.2)
            league.refresh_from_db()
            matches = Fixture.objects.filter(league=league, done=True).count()
            service.append(matches / (league.finished_at - league.started_at).total_seconds())
            last_stored = ResultVersion.objects.filter(match__bot_fixture__league=league).aggregate(
                at=Max("entered_at")
            )
            recorded.append(matches / (last_stored["at"] - league.started_at).total_seconds())
            sizes.append(
                sum(
                    len(bytes(blob))
                    for blob in Match.objects.filter(bot_fixture__league=league).values_list(
                        "record", flat=True
                    )
                )
                / matches
            )
            seats = seat_bots(league)
            players: dict[int, list[int]] = {}
            for match_id, player_id in (
                MatchSeat.objects.filter(match__bot_fixture__league=league)
                .order_by("match_id", "seat")
                .values_list("match_id", "player_id")
            ):
                players.setdefault(match_id, []).append(player_id)
            jobs = [
                (league.game_id, league.options, seed, [seats[p][1] for p in players[match_id]])
                for match_id, seed in Fixture.objects.filter(league=league)
                .order_by("position")
                .values_list("match_id", "seed")
            ]
            connection.close()
            # The engine's rate right after the league, averaged with its rate right before (see above).
            after = engine_rate(jobs, args.processes)
            engine.append(after if before is None else (before + after) / 2)
            before = engine_rate(jobs, args.processes) if repeat + 1 < args.repeats else None
            print(
                f"  repeat {repeat + 1}: service {service[-1]:,.0f} matches/s, engine {engine[-1]:,.0f} "
                f"matches/s, ratio {service[-1] / engine[-1]:.2f}"
            )
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait()
        connection.close()  # the database is dropped next
    service_rate, engine_median = statistics.median(service), statistics.median(engine)
    ratio = statistics.median(rate / alone for rate, alone in zip(service, engine, strict=True))
    print(
        f"Nacho Pile bot league: {args.bots} bots, tables of {args.table}, "
        f"{args.rounds} rounds x {args.sittings} "
        f"sittings = {matches} matches a league, {args.processes} worker processes, PostgreSQL + Redis"
    )
    print(f"medians of {args.repeats} repeats:")
    print(f"  service: played and recorded              {statistics.median(recorded):8,.0f} matches/s")
    print(
        f"  service: played, recorded and rated       {service_rate:8,.0f} matches/s   (to the last rating)"
    )
    print(f"  engine alone, {args.processes} processes               {engine_median:8,.0f} matches/s")
    print(f"  service / engine, repeat by repeat        {ratio:8.2f}   (target >= 0.50)")
    print(f"  stored record size                        {statistics.median(sizes):8,.0f} bytes a match")
    print(
        f"RESULT ratio={ratio:.4f} service={service_rate:.1f} engine={engine_median:.1f} "
        f"recorded={statistics.median(recorded):.1f} size={statistics.median(sizes):.1f}"
    )


if __name__ == "__main__":
    main()
