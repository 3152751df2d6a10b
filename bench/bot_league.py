"""Bot-league throughput: a Nacho Pile league on PostgreSQL, Redis and real Celery workers, next to the
engine alone with the same number of processes, interleaved in the same run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres CELERY_BROKER_URL=redis://127.0.0.1:6379/12 \
        .venv/bin/python -m bench.bot_league [--processes 2] [--bots 8] [--table 4] [--rounds 3]
        [--sittings 300] [--batch 100] [--commit-every 50] [--repeats 5] [--json PATH]

Each repeat plays a fresh league through the service, then the very same matches (same seeds, bots and seats)
with the engine alone, in a pool of the same number of processes that stores nothing (bench/harness.py
`interleave`: service, engine, service, engine, ...). The service's figure counts matches played, recorded
(record and result version stored) and rated, per second, from the league's start to the commit that finished
it (the league's `finished_at − started_at`, both written by the database's clock). The ratio is taken repeat
by repeat, service over the engine on the same matches; printed: each figure's median and range, the ratio's
too, and a `RESULT ratio=... service=... engine=... recorded=... size=...` line for scripts.

So that the two sides are measured alike: the league starts only once the worker answers a ping (its start-up
is not the league's), and the engine runs only once nothing is queued and every match of the league is
verified (the verifications its matches queued are done), so the worker's work never overlaps the engine's.
While a league runs, the bench hands back expired leases and queues work every 15 seconds, as the beat's
reaper does in a deployment (the bench runs no beat): without it, a lease that expired was never handed back
and the league sat with its worker idle and nothing queued. A league that still makes no progress for
`--stall` seconds with nothing queued stops the bench with a message.

The bench works in a database of its own, created on the server of DATABASE_URL under a name no other run
uses and dropped at its end (bench/scratch.py); the worker's queues on the broker of CELERY_BROKER_URL are
emptied first, so give the bench a Redis database of its own (a filesystem broker, `filesystem://` with
PECKING_ORDER_VAR_DIR, serves for a smoke run).
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from bench import harness
from bench.scratch import scratch_database

ROOT = Path(__file__).resolve().parent.parent
REAP_EVERY_SECONDS = 15  # the beat schedule's interval for the reaper (league/bots/migrations)

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


def _django() -> None:
    import django

    django.setup()


def engine_rate(jobs: list[tuple], processes: int) -> float:
    """Matches per second playing `jobs` with a pool of `processes` (the pool's start-up not counted)."""
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        pool.map(play_one, jobs[: processes * 2])  # warm the processes up (imports, caches)
        started = time.perf_counter()
        pool.map(play_one, jobs, chunksize=max(1, len(jobs) // (processes * 20)))
        return len(jobs) / (time.perf_counter() - started)


QUEUES = ("celery", "notifications")  # the queues the bench's worker consumes (league/settings/base.py)


def queued() -> int:
    """Messages waiting in the worker's queues."""
    from league.celery import app

    with app.connection_for_read() as connection:
        channel = connection.default_channel
        return sum(
            channel.queue_declare(queue=name, durable=True, auto_delete=False).message_count
            for name in QUEUES
        )


def purge() -> None:
    """Empty the worker's queues (of messages an earlier run left)."""
    from league.celery import app

    with app.connection_for_write() as connection:
        channel = connection.default_channel
        for name in QUEUES:
            channel.queue_declare(queue=name, durable=True, auto_delete=False)
            channel.queue_purge(name)


def wait_ready(node: str, worker: subprocess.Popen, seconds: float = 120) -> None:
    from league.celery import app

    deadline = time.monotonic() + seconds
    while not any(node in reply for reply in app.control.ping(destination=[node], timeout=1.0)):
        if worker.poll() is not None:
            fail(f"the Celery worker exited with status {worker.returncode} before answering")
        if time.monotonic() > deadline:
            fail(f"the Celery worker {node} did not answer a ping within {seconds:.0f}s")


def wait_idle(league_id: int, seconds: float = 600) -> None:
    """Until nothing is queued and every match of the league is verified (the work the league left the
    worker), twice in a row a moment apart."""
    from league.matches.models import Match

    deadline, quiet = time.monotonic() + seconds, 0
    while quiet < 2:
        unverified = Match.objects.filter(bot_fixture__league_id=league_id, verification__isnull=True)
        quiet = quiet + 1 if queued() == 0 and not unverified.exists() else 0
        if time.monotonic() > deadline:
            fail(f"the worker was still busy {seconds:.0f}s after the league finished")
        time.sleep(0.2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bot_league", description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--bots", type=int, default=8)
    parser.add_argument("--table", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sittings", type=int, default=300)
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--commit-every", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--stall", type=float, default=120, help="seconds without progress before the bench gives up"
    )
    harness.add_json_option(parser)
    args = parser.parse_args(argv)
    server_url = os.environ.get("DATABASE_URL", "")
    broker_url = os.environ.get("CELERY_BROKER_URL", "")
    if not server_url.startswith("postgres"):
        fail("set DATABASE_URL to a PostgreSQL server, e.g. postgres://postgres@127.0.0.1:5432/postgres")
    if not broker_url.startswith(("redis://", "filesystem://")):
        fail("set CELERY_BROKER_URL to a Redis database of its own, e.g. redis://127.0.0.1:6379/12")
    if not 2 <= args.table <= 6 or not args.table <= args.bots <= len(BOT_MIX):
        fail(f"--table must be 2 to 6 and --bots from --table to {len(BOT_MIX)}")
    if min(args.processes, args.rounds, args.sittings, args.batch, args.commit_every, args.repeats) < 1:
        fail("--processes, --rounds, --sittings, --batch, --commit-every and --repeats must be at least 1")

    with scratch_database(server_url) as database_url:
        runs = run(args, database_url)
    settings = {key: value for key, value in vars(args).items() if key != "json"}
    harness.write_json(args.json, "bot_league", settings, runs)
    return 0


def run(args: argparse.Namespace, database_url: str) -> dict[str, list[dict[str, float]]]:
    """The leagues and the engine runs of one bench, in the (fresh, empty) database of `database_url`;
    the figures of each side, repeat by repeat (the service's with the repeat's ratio)."""
    os.environ["DATABASE_URL"] = database_url
    os.environ["SECRET_KEY"] = secrets.token_urlsafe(48)  # production settings, as a deployment runs them
    os.environ["DJANGO_SETTINGS_MODULE"] = "league.settings.production"
    _django()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    purge()

    from django.db.models import Max

    from league.bots.models import BotLeague, Fixture
    from league.bots.services.definitions import bot_register
    from league.bots.services.leagues import league_create, league_start
    from league.bots.services.leases import leases_reap
    from league.bots.services.work import seat_bots
    from league.matches.models import Match, MatchSeat
    from league.results.models import ResultVersion

    bots = [
        bot_register(
            name=name, game_id="nacho_pile", kind="builtin", strategy=strategy, params=params, by=None
        )
        for name, strategy, params in BOT_MIX[: args.bots]
    ]
    node = f"bench-{os.getpid()}@{socket.gethostname()}"
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
            node,
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=ROOT,
        env={**os.environ},
        start_new_session=True,
    )
    jobs: list[tuple] = []
    reaped = [0]

    def wait_finished(league_id: int) -> None:
        """Until the league is finished: reaping as the beat would, stopping after `--stall` idle seconds."""
        done_before, progress_at, reaped_at = -1, time.monotonic(), time.monotonic()
        while True:
            status = BotLeague.objects.values_list("status", flat=True).get(pk=league_id)
            if status == "finished":
                return
            done = Fixture.objects.filter(league_id=league_id, done=True).count()
            now = time.monotonic()
            if done != done_before:
                done_before, progress_at = done, now
            if now - reaped_at >= REAP_EVERY_SECONDS:
                reaped[0] += leases_reap()
                reaped_at = now
            if now - progress_at > args.stall and queued() == 0:
                fail(
                    f"league {league_id} ({status}) made no progress for {args.stall:.0f}s with nothing "
                    f"queued: {done} fixtures done"
                )
            time.sleep(0.2)

    def service(repeat: int) -> dict[str, float]:
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
        wait_finished(league.pk)
        league.refresh_from_db()
        assert league.started_at is not None and league.finished_at is not None
        matches = Fixture.objects.filter(league=league, done=True).count()
        last_stored = ResultVersion.objects.filter(match__bot_fixture__league=league).aggregate(
            at=Max("entered_at")
        )
        stored = Match.objects.filter(bot_fixture__league=league).values_list("record", flat=True)
        seats = seat_bots(league)
        players: dict[int, list[int]] = {}
        for match_id, player_id in (
            MatchSeat.objects.filter(match__bot_fixture__league=league)
            .order_by("match_id", "seat")
            .values_list("match_id", "player_id")
        ):
            players.setdefault(match_id, []).append(player_id)
        jobs[:] = [
            (league.game_id, league.options, seed, [seats[p][1] for p in players[match_id]])
            for match_id, seed in Fixture.objects.filter(league=league)
            .order_by("position")
            .values_list("match_id", "seed")
        ]
        figures = {
            "service": matches / (league.finished_at - league.started_at).total_seconds(),
            "recorded": matches / (last_stored["at"] - league.started_at).total_seconds(),
            "size": sum(len(bytes(blob)) for blob in stored) / matches,
            "matches": float(matches),
        }
        wait_idle(league.pk)
        connection.close()
        return figures

    def engine() -> dict[str, float]:
        return {"engine": engine_rate(jobs, args.processes)}

    def progress(repeat: int, side: str, figures: harness.Figures) -> None:
        rate = figures[side]
        print(f"  repeat {repeat}: {side} {rate:,.1f} matches/s", flush=True)

    repeats = itertools.count()
    try:
        wait_ready(node, worker)
        runs = harness.interleave(
            {"service": lambda: service(next(repeats)), "engine": engine}, args.repeats, progress
        )
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:  # a warm shutdown that hangs (seen with the filesystem broker)
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()
        connection.close()  # the database is dropped next
    for service_run, engine_run in zip(runs["service"], runs["engine"], strict=True):
        service_run["ratio"] = service_run["service"] / engine_run["engine"]
    summary = harness.summarize(runs)
    served, alone = summary["service"], summary["engine"]["engine"]
    print(
        f"Nacho Pile bot league: {args.bots} bots, tables of {args.table}, {args.rounds} rounds x "
        f"{args.sittings} sittings = {served['matches'].median:.0f} matches a league, "
        f"{args.processes} worker processes, PostgreSQL + Redis; {reaped[0]} expired leases handed back"
    )
    print(f"medians [min – max] of {args.repeats} repeats, service and engine interleaved:")
    print(f"  service: played and recorded            {served['recorded']} matches/s")
    print(f"  service: played, recorded and rated     {served['service']} matches/s   (to the last rating)")
    print(f"  engine alone, {args.processes} processes             {alone} matches/s")
    print(f"  service / engine, repeat by repeat      {served['ratio']}   (target >= 0.50)")
    print(f"  stored record size                      {served['size']} bytes a match")
    print(
        f"RESULT ratio={served['ratio'].median:.4f} service={served['service'].median:.1f} "
        f"engine={alone.median:.1f} recorded={served['recorded'].median:.1f} size={served['size'].median:.1f}"
    )
    return runs


if __name__ == "__main__":
    sys.exit(main())
