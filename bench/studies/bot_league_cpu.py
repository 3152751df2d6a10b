"""Where a bot league's CPU goes: one Nacho Pile league played in this process (`work_play`, no Celery),
split into the engine's time, the service's own time around it, and its PostgreSQL backend's time.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
        .venv/bin/python -m bench.studies.bot_league_cpu [--repeats 3]

The engine's time is the CPU time spent inside `play_league_match`; the service's is the rest of this
process's CPU time while the league ran (claims, stores, ratings, draws); PostgreSQL's is the CPU time of this
connection's backend process, read from /proc (the server must run on this machine). The same league (seed,
bots, batch sizes as `bench/bot_league.py`) each repeat, in a database of its own (created on the server of
DATABASE_URL under a name no other run uses, dropped at the end: bench/scratch.py); medians are printed, then
once more on one `RESULT key=value ...` line for scripts (bench/compare.py).
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import time
from pathlib import Path
from unittest import mock

from bench.bot_league import BOT_MIX, fail
from bench.scratch import scratch_database

ROOT = Path(__file__).resolve().parents[2]


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of process `pid`."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sittings", type=int, default=300)
    args = parser.parse_args()
    server_url = os.environ.get("DATABASE_URL", "")
    if not server_url.startswith("postgres"):
        fail(
            "set DATABASE_URL to a PostgreSQL server on this machine, e.g. "
            "postgres://postgres@127.0.0.1:5432/postgres"
        )
    with scratch_database(server_url) as database_url:
        run(args, database_url)


def run(args: argparse.Namespace, database_url: str) -> None:
    """The repeats of one bench, in the (fresh, empty) database of `database_url`."""
    os.environ["DATABASE_URL"] = database_url
    os.environ["SECRET_KEY"] = secrets.token_urlsafe(48)
    os.environ["DJANGO_SETTINGS_MODULE"] = "league.settings.production"
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    import league.bots.services.leagues as leagues
    import league.bots.services.work as worker
    from league.bots.services.definitions import bot_register
    from league.bots.services.leagues import league_create, league_start
    from league.bots.services.work import work_play

    call_command("migrate", verbosity=0)
    bots = [
        bot_register(
            name=name, game_id="nacho_pile", kind="builtin", strategy=strategy, params=params, by=None
        )
        for name, strategy, params in BOT_MIX
    ]
    play = worker.play_league_match
    engine_seconds = [0.0]

    def timed_play(**kwargs):
        started = time.process_time()
        try:
            return play(**kwargs)
        finally:
            engine_seconds[0] += time.process_time() - started

    rows = []
    for repeat in range(args.repeats):
        league = league_create(
            name=f"CPU {repeat}",
            game_id="nacho_pile",
            bot_ids=[bot.pk for bot in bots],
            table_size=4,
            target_kind="rounds",
            target_value=args.rounds,
            sittings_per_round=args.sittings,
            seed=1000,
            batch_size=100,
            commit_every=50,
            by=None,
        )
        with (
            mock.patch.object(leagues, "queue_work"),
            mock.patch.object(worker, "queue_work"),
            mock.patch.object(worker, "play_league_match", timed_play),
        ):
            league_start(league_id=league.pk)
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                backend = cursor.fetchone()[0]
            engine_seconds[0] = 0.0
            backend_before, own_before = process_cpu(backend), time.process_time()
            matches = work_play(league_id=league.pk, worker="bench")
            own = time.process_time() - own_before
            database = process_cpu(backend) - backend_before
        engine = engine_seconds[0]
        rows.append((matches, engine, own - engine, database))
        print(
            f"  repeat {repeat + 1}: {matches} matches; "
            f"CPU ms a match: engine {engine / matches * 1000:.2f}, "
            f"service {(own - engine) / matches * 1000:.2f}, PostgreSQL {database / matches * 1000:.2f}; "
            f"engine share {engine / (own + database):.3f}"
        )
    matches = rows[0][0]
    engine, service, database = (statistics.median(row[i] / row[0] * 1000 for row in rows) for i in (1, 2, 3))
    print(f"Nacho Pile league of {matches} matches in one process (work_play), medians of {args.repeats}:")
    print(f"  engine (play_league_match)     {engine:6.2f} ms CPU a match")
    print(f"  service around it              {service:6.2f} ms CPU a match")
    print(f"  its PostgreSQL backend         {database:6.2f} ms CPU a match")
    print(f"  engine share of all CPU        {engine / (engine + service + database):6.3f}")
    print(
        f"RESULT engine_ms={engine:.3f} service_ms={service:.3f} postgres_ms={database:.3f} "
        f"engine_share={engine / (engine + service + database):.4f}"
    )
    connection.close()  # the database is dropped next


if __name__ == "__main__":
    main()
