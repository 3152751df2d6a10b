"""How long a challenge waits, and how fast the ladder moves, while a staff league runs: `make run`'s setup.

    .venv/bin/python -m bench.challenge_wait [--sittings 300] [--challenge 5] [--repeats 3] [--cap 300] \\
        [--window 90] [--json PATH]
    .venv/bin/python -m bench.compare --before main --repeats 3 -- challenge_wait --repeats 1

`make run`'s configuration: a SQLite file and the filesystem broker of the run's own (a temporary folder,
removed at the end), one Celery worker process (`--pool solo`, both queues), and the periodic tasks beat would
send (the demo ladder's tick every 5 s, the reaper every 15 s) sent by the bench to the same worker. The
demo's Nacho Pile ladder runs (its bots: random, the heuristics and the search bot; one sitting a round, a
round every 5 s). Each repeat starts a staff league of the same bots (tables of 3, `--sittings` sittings),
waits `--delay` seconds, creates a challenge of `--challenge` matches and times it until it is finished (at
most `--cap` seconds: a capped wait counts as the cap), then pauses the league. Figures per repeat: the
challenge's wait (s), and the ladder's matches a minute from the league's start to the challenge's end or
`--window` seconds, whichever is later (the same window on both sides of a comparison), and the league's
matches stored by then.

Prints each repeat's figures and the medians with ranges (bench/harness.py); with bench/compare.py, before
and after in one run, interleaved.
"""

from __future__ import annotations

import argparse
import itertools
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import harness
from bench.scratch import sigterm_exits

ROOT = Path(__file__).resolve().parent.parent
TICK_SECONDS = 5.0  # the demo ladder's interval (league/bots/demo.py)
REAP_SECONDS = 15.0  # beat's reaper (docs/bot-leagues.md)


def fail(message: str) -> None:
    print(message, file=sys.stderr)
    sys.exit(2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.challenge_wait", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--sittings", type=int, default=300, help="the staff league's sittings (one round)")
    parser.add_argument("--challenge", type=int, default=5, help="the challenge's matches")
    parser.add_argument(
        "--delay", type=float, default=3.0, help="seconds between the league's start and the challenge"
    )
    parser.add_argument("--cap", type=float, default=300.0, help="the longest a challenge is waited for")
    parser.add_argument(
        "--window",
        type=float,
        default=90.0,
        help="seconds from the league's start to count the ladder over, at least (till the challenge's end)",
    )
    parser.add_argument("--repeats", type=int, default=3)
    harness.add_json_option(parser)
    args = parser.parse_args(argv)
    if min(args.sittings, args.challenge, args.repeats) < 1 or not 1 <= args.challenge <= 100:
        fail("--sittings and --repeats must be at least 1, --challenge 1 to 100")
    if args.cap <= 0 or args.delay < 0 or args.window < 0:
        fail("--cap must be positive, --delay and --window not negative")
    folder = Path(tempfile.mkdtemp(prefix="bench-challenge-wait-"))
    try:
        with sigterm_exits():
            runs = run(args, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    settings = {key: str(value) if isinstance(value, Path) else value for key, value in vars(args).items()}
    harness.write_json(args.json, "challenge_wait", {k: v for k, v in settings.items() if k != "json"}, runs)
    return 0


def _setup(folder: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'db.sqlite3'}"
    os.environ["PECKING_ORDER_VAR_DIR"] = str(folder / "var")
    os.environ["CELERY_BROKER_URL"] = "filesystem://localhost/"
    os.environ["DJANGO_SETTINGS_MODULE"] = "league.settings.local"
    import django

    django.setup()


def _send(name: str, *args: object) -> None:
    from celery import signature

    signature(name, args=args).delay()


def run(args: argparse.Namespace, folder: Path) -> dict[str, list[dict[str, float]]]:
    _setup(folder)
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)

    from games.registry import get_spec as game_spec
    from league.bots.demo import demo_bots
    from league.bots.models import BotLeague, Challenge, Fixture
    from league.bots.services.challenges import challenge_create
    from league.bots.services.definitions import bot_register
    from league.bots.services.ladders import ladder_create, ladder_enter
    from league.bots.services.leagues import league_create, league_pause, league_start
    from league.celery import app

    staff = get_user_model().objects.create_user("bench", password="bench-pw-1", is_staff=True)
    spec = game_spec("nacho_pile")
    bots = [
        bot_register(name=label, game_id=spec.id, kind="builtin", strategy=strategy, params=params, by=None)
        for label, strategy, params in demo_bots(spec.id)
    ]
    ladder = ladder_create(
        name="Bench ladder",
        game_id=spec.id,
        table_size=3,
        seed=2024,
        sittings_per_round=1,
        newcomer_matches=10,
        pace=BotLeague.Pace.SCHEDULED,
        interval_seconds=int(TICK_SECONDS),
        by=None,
    )
    for bot in bots:
        ladder_enter(ladder_id=ladder.pk, bot_id=bot.pk, by=None)
    league_start(league_id=ladder.pk)
    node = f"bench-{os.getpid()}@{socket.gethostname()}"
    queues = f"{settings.CELERY_TASK_DEFAULT_QUEUE},{settings.NOTIFICATIONS_QUEUE}"  # as `serve`
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "league",
            "worker",
            "--pool",
            "solo",
            "-l",
            "error",
            "-n",
            node,
            "-Q",
            queues,
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=os.getcwd(),
        env={**os.environ},
        start_new_session=True,
    )
    clock = {"tick": 0.0, "reap": 0.0}

    def beat() -> None:
        """What beat sends to `make run`'s worker: the ladder's tick and the reaper."""
        now = time.monotonic()
        if now - clock["tick"] >= TICK_SECONDS:
            _send("league.bots.tasks.league_tick_task", ladder.pk)
            clock["tick"] = now
        if now - clock["reap"] >= REAP_SECONDS:
            _send("league.bots.tasks.reap_leases_task")
            clock["reap"] = now

    def ladder_done() -> int:
        return Fixture.objects.filter(league=ladder, done=True).count()

    def repeat(number: int) -> dict[str, float]:
        league = league_create(
            name=f"Staff league {os.getpid()} {number}",
            game_id=spec.id,
            bot_ids=[bot.pk for bot in bots],
            table_size=3,
            target_kind="rounds",
            target_value=1,
            sittings_per_round=args.sittings,
            seed=100 + number,
            by=staff,
        )
        began, ladder_before = time.monotonic(), ladder_done()
        league_start(league_id=league.pk)
        while time.monotonic() - began < args.delay:
            beat()
            time.sleep(0.1)
        challenge = challenge_create(
            bot_id=bots[-1].pk,
            opponent_ids=[bots[0].pk, bots[1].pk],
            matches=args.challenge,
            seed=number,
            by=staff,
        )
        asked = time.monotonic()
        waited = None
        while time.monotonic() - asked < args.cap:
            if (
                waited is None
                and Challenge.objects.filter(pk=challenge.pk, status=Challenge.Status.FINISHED).exists()
            ):
                waited = time.monotonic() - asked
            if waited is not None and time.monotonic() - began >= args.window:
                break
            beat()
            time.sleep(0.1)
        ended = time.monotonic()
        figures = {
            "challenge_wait_s": args.cap if waited is None else waited,
            "ladder_per_min": 60 * (ladder_done() - ladder_before) / (ended - began),
            "league_done": float(Fixture.objects.filter(league=league, done=True).count()),
        }
        if BotLeague.objects.filter(pk=league.pk, status=BotLeague.Status.RUNNING).exists():
            league_pause(league_id=league.pk)
        Challenge.objects.filter(pk=challenge.pk).update(
            status=Challenge.Status.FINISHED
        )  # capped: let it go
        connection.close()
        return figures

    numbers = itertools.count(1)

    def progress(number: int, side: str, figures: harness.Figures) -> None:
        print(
            f"  repeat {number}: challenge waited {figures['challenge_wait_s']:.1f} s, ladder "
            f"{figures['ladder_per_min']:.1f} matches/min, league {figures['league_done']:.0f} stored",
            flush=True,
        )

    try:
        deadline = time.monotonic() + 120
        while not app.control.ping(destination=[node], timeout=1.0):
            if worker.poll() is not None or time.monotonic() > deadline:
                fail("the Celery worker did not answer a ping")
        runs = harness.interleave({"run": lambda: repeat(next(numbers))}, args.repeats, progress)
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()
    print(
        "Nacho Pile on make run's setup (SQLite, filesystem broker, one worker): the demo ladder, a staff "
        f"league of {args.sittings} sittings, a challenge of {args.challenge} created {args.delay:.0f} s "
        "after its start"
    )
    print("\n".join(harness.table(runs)))
    return runs


if __name__ == "__main__":
    sys.exit(main())
