"""Load bench: how many phones one web machine serves at a 1,000-player event (issue 51, docs/production.md).

Run:  DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres CACHE_URL=redis://127.0.0.1:6379/8 \\
      .venv/bin/python -m bench.capacity [--players 1000] [--rate 400] [--seconds 20] \\
      [--closed 4,16,64,256] [--closed-seconds 10] [--workers 4] [--before REV] [--quick] [--json PATH] \\
      [--results R] [--members P] [--queue]

It builds, through the services (players and registrations in bulk), a `--players` 4-seat Swiss pods event of
Nacho Pile in a scratch PostgreSQL database (bench/scratch.py, dropped at the end): round 1 generated,
published, every table's result entered (`table_result`) and completed; round 2 generated and published.
Then, for each side (`--before REV`: that revision, checked out in a temporary worktree, then this checkout;
without it this checkout only) on that one database:

- `collectstatic` in the side's tree, and the production path as README's production section runs it:
  `gunicorn league.wsgi --workers N` with `league.settings.production` (DEBUG off), PostgreSQL, Redis as the
  cache (`CACHE_URL`, flushed before each side: give the bench a Redis database of its own);
- a check of the static files: a stylesheet the round page links is fetched, and its name and
  `Cache-Control` printed (hashed names with a year's caching when the manifest storage is used);
- the phone mix of the issue: 35% the round page (`rounds/2/?page=K`), 25% its live refresh (the same
  address, which the page's live script fetches, sent with `If-None-Match` of the last answer's ETag for
  that address, as the script does; a side without ETags answers the whole page), 20% the event page with
  its live standings (`?standings=K`), 10% find my table (`rounds/2/find/?q=` a player's number), 10% a
  player's path (`players/SLUG/`);
- open loop: `--rate` requests a second at a steady rate for `--seconds`, arrivals independent of the
  answers, at most 256 connections at once (an arrival waits for a free connection), each latency counted
  from the request's scheduled time; what is unanswered `--seconds` after the last arrival is cancelled and
  counted as an error;
- closed loop at each `--closed` concurrency for `--closed-seconds`: that many phones asking again as soon
  as answered (each after the server has worked off what the phase before left queued: `settle`);
- results entered while the phones look (`--results R`, off by default): during the open loop the bench
  enters R results a second (`table_result` on round 2's tables, each side its own tables), the production
  worker running beside the web (`celery -A league worker --concurrency 4`, which refreshes the standings in
  the background as in production); every result is a new state of the event, whose pages are rendered anew
  on their next look. At the end, the event page's ETag is checked to be of the tournament's version then
  (the answers are current);
- signed-in players (`--members P`, 0 by default): accounts and signed-in sessions for 200 players (as a
  log-in makes them), and P% of the round page's looks (both kinds) made by one of them, with their session
  cookie and no ETag (their page carries their own header: no 304); the bench checks first that such a look is
  answered as theirs;
- the notifications queue at publication (`--queue`, off by default): round 3's publication on the
  production worker configuration (`celery -A league worker --concurrency 4`, Redis as the broker: the
  cache URL's database + 1), seconds from the publication's commit until the queue is empty.

Printed per line: requests/s answered, p50/p95/p99 in ms, errors (status 400 and over, refused or cut
connections, cancelled), and the load generator's share of one core (its CPU time over the wall time). The
generator is plain asyncio sockets (one `Connection: close` request per connection: gunicorn's sync workers
close each one), a few percent of a core at 400 a second. The load average of the machine is printed at the
start and the end of each side: other processes on the machine weigh on the figures.

`--quick` is the test's size (tests/bench/test_capacity.py): 40 players, 2 gunicorn workers, 1 s at 20 a
second, closed loop at 2.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import random
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

MIX = (("round", 35), ("round-live", 25), ("event", 20), ("find", 10), ("path", 10))
POLLING = {"round-live"}  # sent with If-None-Match, as a live page polls
MEMBER_KINDS = {"round", "round-live"}  # `--members`: the share of these looks made by signed-in players
MAX_CONNECTIONS = 256
RUN_SECRET = secrets.token_urlsafe(48)  # every side's SECRET_KEY: the members' sessions are signed with it


# --- the event -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    """What the mix asks for: the event's address, its round 2, the pages of each list, who plays."""

    url: str
    round_url: str
    table_pages: int
    standings_pages: int
    player_slugs: list[str]
    player_numbers: list[str]
    member_cookies: list[str] = field(default_factory=list)  # `--members`: signed-in players' sessions


def build_event(players: int) -> Event:
    """A `players` 4-seat Swiss pods event of Nacho Pile: round 1 played and complete, round 2 published."""
    from django.contrib.auth import get_user_model

    from league.core.names import name_key
    from league.players.models import Player
    from league.tournaments import services
    from league.tournaments.models import Registration

    rng = random.Random(2026)
    organizer = get_user_model().objects.create_superuser("bench", "bench@example.invalid", "bench-pass-123")
    names = [f"Phone {i:04d}" for i in range(1, players + 1)]
    Player.objects.bulk_create(
        Player(name=name, name_key=name_key(name), slug=name.lower().replace(" ", "-")) for name in names
    )
    people = list(Player.objects.filter(name__in=names).order_by("id"))
    tournament = services.tournament_create(
        created_by=organizer,
        name="Capacity Open",
        game_id="nacho_pile",
        format="swiss",
        table_size=4,
        rounds=4,
        rated=False,
    )
    Registration.objects.bulk_create(
        Registration(tournament=tournament, player=player, seed=seed) for seed, player in enumerate(people, 1)
    )
    services.tournament_start(tournament=tournament, by=organizer)
    first = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=first, by=organizer)
    for table in first.tables.order_by("number"):
        places = list(range(1, len(table.planned_seats) + 1))
        rng.shuffle(places)
        services.table_result(table=table, by=organizer, expected_version=0, places=places)
    services.round_complete(round_row=first, by=organizer)
    second = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=second, by=organizer)
    tables = second.tables.count()
    return Event(
        url=tournament.get_absolute_url(),
        round_url=second.get_absolute_url(),
        table_pages=max(1, -(-tables // 100)),
        standings_pages=max(1, -(-players // 100)),
        player_slugs=[player.slug for player in people],
        player_numbers=[name.split()[1] for name in names],
    )


def sign_in_players(count: int) -> list[str]:
    """Accounts for the first `count` players of the event and a signed-in session each (as a log-in makes
    it, signed with the servers' SECRET_KEY): the `sessionid` cookies."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.test import override_settings
    from django.utils import timezone

    from league.accounts.sessions import LOGGED_IN_AT, REFRESHED_AT
    from league.players.models import Player

    users = get_user_model()
    players = list(Player.objects.filter(name__startswith="Phone ").order_by("id")[:count])
    cookies = []
    now = int(timezone.now().timestamp())
    with override_settings(SECRET_KEY=RUN_SECRET):
        for player in players:
            user = users.objects.create_user(f"member-{player.slug}", password=secrets.token_urlsafe(12))
            Player.objects.filter(pk=player.pk).update(user=user)
            session = SessionStore()
            session.update(
                {
                    SESSION_KEY: str(user.pk),
                    BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                    HASH_SESSION_KEY: user.get_session_auth_hash(),
                    LOGGED_IN_AT: now,
                    REFRESHED_AT: now,
                }
            )
            session.create()
            cookies.append(f"sessionid={session.session_key}")
    return cookies


def paths_of(event: Event, rng: random.Random) -> tuple[str, str]:
    """One request of the mix: its kind and path."""
    kind = rng.choices([k for k, _ in MIX], weights=[w for _, w in MIX])[0]
    if kind == "round":
        return kind, f"{event.round_url}?page={rng.randint(1, event.table_pages)}"
    if kind == "round-live":
        return kind, f"{event.round_url}?page={rng.randint(1, event.table_pages)}"
    if kind == "event":
        return kind, f"{event.url}?standings={rng.randint(1, event.standings_pages)}"
    if kind == "find":
        return kind, f"{event.round_url}find/?q={rng.choice(event.player_numbers)}"
    return kind, f"{event.url}players/{rng.choice(event.player_slugs)}/"


# --- the generator ---------------------------------------------------------------------------------------


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


async def get(port: int, path: str, headers: dict[str, str] | None = None, timeout: float = 60) -> Answer:
    """One HTTP/1.1 GET on a fresh connection (Connection: close), read to its end."""

    async def exchange() -> Answer:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close"]
            lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
            data = await reader.read()
        finally:
            writer.close()
        head, _, body = data.partition(b"\r\n\r\n")
        first, *rest = head.decode("latin-1").split("\r\n")
        found = {}
        for line in rest:
            name, _, value = line.partition(":")
            found[name.strip().lower()] = value.strip()
        return Answer(int(first.split()[1]), found, body)

    return await asyncio.wait_for(exchange(), timeout)


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    starts: list[float] = field(default_factory=list)  # each answered request's (scheduled) start
    errors: int = 0
    not_modified: int = 0
    first_error: str = ""

    def worst_second_p95(self) -> float:
        """The highest p95 (ms) of the requests started in one whole second of the run: the run's worst
        moment (the first second after publication, a worker's pause), which the whole run's p95 averages."""
        if not self.starts:
            return float("nan")
        first = min(self.starts)
        seconds: dict[int, list[float]] = {}
        for start, latency in zip(self.starts, self.latencies, strict=True):
            seconds.setdefault(int(start - first), []).append(latency)
        return max(sorted(values)[int(0.95 * len(values))] for values in seconds.values()) * 1000

    def line(self, wall: float, cpu: float) -> dict[str, float]:
        ordered = sorted(self.latencies)

        def pick(q: float) -> float:
            return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else float("nan")

        return {
            "rps": len(ordered) / wall if wall else 0.0,
            "worst_second_p95": self.worst_second_p95(),
            "p50": pick(0.50),
            "p95": pick(0.95),
            "p99": pick(0.99),
            "errors": self.errors,
            "answered": len(ordered),
            "not_modified": self.not_modified,
            "cpu": 100 * cpu / wall if wall else 0.0,
        }


class Phones:
    """The mix against one server; remembers each polled address's last ETag."""

    def __init__(self, port: int, event: Event, seed: int, members: float = 0) -> None:
        self.port, self.event, self.rng, self.members = port, event, random.Random(seed), members
        self.etags: dict[str, str] = {}

    async def one(self, tally: Tally, started: float) -> None:
        kind, path = paths_of(self.event, self.rng)
        headers = {"If-None-Match": self.etags[path]} if kind in POLLING and path in self.etags else {}
        if kind in MEMBER_KINDS and self.event.member_cookies and self.rng.random() < self.members / 100:
            headers = {"Cookie": self.rng.choice(self.event.member_cookies)}  # their page has no ETag
        try:
            answer = await get(self.port, path, headers)
        except (TimeoutError, OSError) as exc:
            tally.errors += 1
            tally.first_error = tally.first_error or f"{path}: {exc!r}"
            return
        if answer.status >= 400:
            tally.errors += 1
            tally.first_error = tally.first_error or f"{path}: {answer.status}"
            return
        if answer.status == 304:
            tally.not_modified += 1
        elif kind in POLLING and "etag" in answer.headers:
            self.etags[path] = answer.headers["etag"]
        tally.latencies.append(time.perf_counter() - started)
        tally.starts.append(started)

    async def open_loop(self, rate: float, seconds: float) -> dict[str, Any]:
        """`rate` arrivals a second for `seconds`, each on a free connection as soon as one is; latency from
        its scheduled time. Unanswered `seconds` after the last arrival: cancelled, an error."""
        tally, slots = Tally(), asyncio.Semaphore(MAX_CONNECTIONS)

        async def arrival(at: float) -> None:
            async with slots:
                await self.one(tally, at)

        cpu0, start = time.process_time(), time.perf_counter()
        tasks = []
        count = int(rate * seconds)
        for i in range(count):
            at = start + i / rate
            delay = at - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.ensure_future(arrival(at)))
        done, pending = await asyncio.wait(tasks, timeout=max(seconds, 10)) if tasks else (set(), set())
        for task in pending:
            task.cancel()
        tally.errors += len(pending)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu0
        return tally.line(wall, cpu) | {"first_error": tally.first_error}

    async def closed_loop(self, phones: int, seconds: float) -> dict[str, Any]:
        tally = Tally()
        cpu0, start = time.process_time(), time.perf_counter()
        end = start + seconds

        async def phone() -> None:
            while time.perf_counter() < end:
                await self.one(tally, time.perf_counter())

        await asyncio.gather(*(phone() for _ in range(phones)))
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu0
        return tally.line(wall, cpu) | {"first_error": tally.first_error}


# --- results while the phones look -----------------------------------------------------------------------


class Results:
    """Enters round 2's results, `rate` a second, in a thread of the bench's own (its own database
    connection), on the tables of round 2 not played yet, lowest number first; stops when told."""

    def __init__(self, rate: float) -> None:
        import threading

        self.rate, self.entered, self.stop = rate, 0, threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db import connection

        from league.tournaments import services
        from league.tournaments.models import Table

        organizer = get_user_model().objects.get(username="bench")
        rng = random.Random(5)
        tables = Table.objects.filter(round__tournament__name="Capacity Open", round__number=2).exclude(
            match__status="finished"
        )
        try:
            start = time.perf_counter()
            for table in tables.order_by("number"):
                if self.stop.wait(max(0.0, start + self.entered / self.rate - time.perf_counter())):
                    break
                places = list(range(1, len(table.planned_seats) + 1))
                rng.shuffle(places)
                services.table_result(table=table, by=organizer, expected_version=0, places=places)
                self.entered += 1
        finally:
            connection.close()


def member_check(port: int, event: Event) -> str:
    """Whether a member's look at the round page is answered as theirs (their log-out form)."""
    answer = asyncio.run(get(port, event.round_url, {"Cookie": event.member_cookies[0]}))
    if b'id="log-out"' not in answer.body:
        raise SystemExit("a member's session is not signed in on the server: the bench's sessions are wrong")
    return f"{len(event.member_cookies)} signed-in players; a member's round page shows their log-out form"


def current_check(port: int, event: Event) -> str:
    """Whether the event page's answer now is of the tournament's version now."""
    from league.tournaments.models import Tournament

    answer = asyncio.run(get(port, event.url))
    tournament = Tournament.objects.get(name="Capacity Open")
    expected = f'"t{tournament.pk}.{tournament.public_version}.'
    tag = answer.headers.get("etag", "")
    verdict = "current" if tag.startswith(expected) else f"NOT current (expected {expected}...)"
    return f"event page ETag {tag or '(none)'}: {verdict}"


def start_worker(tree: Path, environment: dict[str, str]) -> subprocess.Popen:
    """The production worker configuration, its broker emptied first."""
    import redis

    redis.Redis.from_url(environment["CELERY_BROKER_URL"]).flushdb()
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "league", "worker", "-l", "warning", "--concurrency", "4"],
        cwd=tree,
        env=environment,
        stdout=subprocess.DEVNULL,  # the console mail backend prints every mail (to the worker's log)
        stderr=subprocess.DEVNULL,
    )


# --- the production path ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def production_environment(tree: Path, database_url: str, cache_url: str) -> dict[str, str]:
    environment = dict(os.environ)
    environment.update(
        DJANGO_SETTINGS_MODULE="league.settings.production",
        SECRET_KEY=RUN_SECRET,
        DATABASE_URL=database_url,
        CACHE_URL=cache_url,
        CELERY_BROKER_URL=broker_url(cache_url),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DEBUG="0",
        SECURE_COOKIES="0",
        LOG_LEVEL="WARNING",
        PYTHONPATH=str(tree),
    )
    return environment


def broker_url(cache_url: str) -> str:
    head, _, number = cache_url.rpartition("/")
    return f"{head}/{int(number or 0) + 1}"


def flush_cache(cache_url: str) -> None:
    import redis

    redis.Redis.from_url(cache_url).flushdb()


class Server:
    """gunicorn with `workers` workers in `tree` on a free port, the production settings."""

    def __init__(self, tree: Path, environment: dict[str, str], workers: int) -> None:
        self.port = free_port()
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=tree,
            env=environment,
            check=True,
        )
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "league.wsgi",
                "--workers",
                str(workers),
                "--bind",
                f"127.0.0.1:{self.port}",
                "--backlog",
                "2048",
                "--timeout",
                "120",
                "--log-level",
                "warning",
            ],
            cwd=tree,
            env=environment,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                asyncio.run(get(self.port, "/tournaments/", timeout=5))  # any answer: it serves
                break
            except (TimeoutError, OSError):
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise SystemExit("gunicorn did not start")
            time.sleep(0.3)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def static_check(port: int, event: Event) -> str:
    """The first stylesheet the round page links: its address and Cache-Control."""
    page = asyncio.run(get(port, event.round_url))
    found = re.search(rb'<link rel="stylesheet" href="([^"]+)"', page.body)
    if not found:
        return "no stylesheet linked"
    href = found.group(1).decode()
    answer = asyncio.run(get(port, href))
    return f"{href} {answer.status} Cache-Control: {answer.headers.get('cache-control', '(none)')}"


def warm(port: int, event: Event, workers: int) -> None:
    """A few looks at each kind of page, `workers` at once, so that every gunicorn worker has served each
    kind before the measurement: a worker's first request of a kind loads its modules and compiles its
    templates (a few hundred ms), which a server that served the event's earlier rounds has long done. The
    state is new (round 2 just published): the pages of it are rendered in the measurement, on first look."""
    paths = (
        event.url,
        f"{event.url}?fragment=live",
        event.round_url,
        f"{event.round_url}find/?q=0001",
        f"{event.url}players/{event.player_slugs[0]}/",
    )

    async def looks() -> None:
        for path in paths:
            await asyncio.gather(*(get(port, path) for _ in range(2 * workers)))

    asyncio.run(looks())


def settle(port: int, limit: float = 180) -> None:
    """Wait until the server has worked through what an earlier phase left in its queue (the requests the
    generator gave up on are still served): until a look at the event list answers within a second."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        start = time.monotonic()
        with contextlib.suppress(TimeoutError, OSError):
            asyncio.run(get(port, "/tournaments/", timeout=limit))
        if time.monotonic() - start < 1:
            return
        time.sleep(0.5)


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def measure_side(
    label: str, tree: Path, database_url: str, cache_url: str, event: Event, args: argparse.Namespace
) -> dict[str, dict[str, float]]:
    flush_cache(cache_url)
    environment = production_environment(tree, database_url, cache_url)
    server = Server(tree, environment, args.workers)
    figures: dict[str, dict[str, float]] = {}
    try:
        print(f"\n{label}: {tree} ({git_describe(tree)}), gunicorn {args.workers} workers on :{server.port}")
        print(f"  load average at start: {load()}")
        print(f"  static: {static_check(server.port, event)}")
        warm(server.port, event, args.workers)
        phones = Phones(server.port, event, seed=args.seed, members=args.members)
        if event.member_cookies:
            print(f"  members: {member_check(server.port, event)}")
        if args.results:
            worker = start_worker(tree, environment)
            time.sleep(10)  # the worker's start
            writer = Results(args.results)
            writer.thread.start()
            try:
                line = asyncio.run(phones.open_loop(args.rate, args.seconds))
            finally:
                writer.stop.set()
                writer.thread.join()
            figures[f"open {args.rate:g}/s +{args.results:g} res/s"] = line
            current = current_check(server.port, event)
            print(f"  results entered during the open loop: {writer.entered}; {current}")
            worker.terminate()
            worker.wait(60)
        else:
            figures[f"open {args.rate:g}/s"] = asyncio.run(phones.open_loop(args.rate, args.seconds))
        for count in args.closed:
            settle(server.port)
            figures[f"closed {count}"] = asyncio.run(phones.closed_loop(count, args.closed_seconds))
        print(f"  load average at end: {load()}")
    finally:
        server.stop()
    print_table(figures)
    return figures


HEADER = (
    f"  {'load':<14} {'req/s':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'errors':>6} {'304s':>6}"
    f" {'gen CPU':>7} {'worst 1 s p95':>13}"
)


def print_table(figures: dict[str, dict[str, float]]) -> None:
    print(HEADER)
    for name, line in figures.items():
        print(
            f"  {name:<14} {line['rps']:>7.1f} {line['p50']:>8.0f} {line['p95']:>8.0f} {line['p99']:>8.0f}"
            f" {line['errors']:>6d} {line['not_modified']:>6d} {line['cpu']:>6.1f}%"
            f" {line.get('worst_second_p95', float('nan')):>10.0f} ms"
        )
        if line.get("first_error"):
            print(f"    first error: {line['first_error']}")


def git_describe(tree: Path) -> str:
    found = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=tree, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain"], cwd=tree, capture_output=True, text=True)
    return found.stdout.strip() + (" + uncommitted changes" if dirty.stdout.strip() else "")


# --- the notifications queue -----------------------------------------------------------------------------


def queue_drain(tree: Path, database_url: str, cache_url: str, event: Event) -> str:
    """Round 3 published with a production worker running: seconds until the notifications queue is empty."""
    import redis
    from django.contrib.auth import get_user_model

    from league.notifications.models import Notification
    from league.players.models import Player
    from league.tournaments import services
    from league.tournaments.models import Round, Table, Tournament

    environment = production_environment(tree, database_url, cache_url)
    broker = redis.Redis.from_url(environment["CELERY_BROKER_URL"])
    # Every player has an account with a mail address: each is told that their table is out.
    users = get_user_model()
    players = list(Player.objects.filter(name__startswith="Phone ", user__isnull=True).order_by("id"))
    users.objects.bulk_create(
        users(username=player.slug, email=f"{player.slug}@example.invalid") for player in players
    )
    by_name = dict(users.objects.filter(username__startswith="phone-").values_list("username", "pk"))
    for player in players:
        player.user_id = by_name[player.slug]
    Player.objects.bulk_update(players, ["user"])
    worker = start_worker(tree, environment)
    try:
        time.sleep(10)  # the worker's start
        organizer = users.objects.get(username="bench")
        tournament = Tournament.objects.get(name="Capacity Open")
        second = Round.objects.get(tournament=tournament, number=2)
        rng = random.Random(3)
        for table in Table.objects.filter(round=second).order_by("number"):
            places = list(range(1, len(table.planned_seats) + 1))
            rng.shuffle(places)
            services.table_result(table=table, by=organizer, expected_version=0, places=places)
        services.round_complete(round_row=second, by=organizer)
        third = services.round_generate(tournament=tournament, by=organizer)
        start = time.perf_counter()
        services.round_publish(round_row=third, by=organizer)
        published = time.perf_counter() - start
        peak = 0
        while True:
            waiting = sum(broker.llen(name) for name in broker.scan_iter() if broker.type(name) == b"list")
            waiting += broker.hlen("unacked")  # taken by the worker, not done
            peak = max(peak, waiting)
            if waiting == 0 and time.perf_counter() - start > 2:
                break
            if time.perf_counter() - start > 600:
                return "not drained in 600 s"
            time.sleep(0.1)
        drained = time.perf_counter() - start
        stored = Notification.objects.filter(tournament=tournament, table__round=third).count()
        return (
            f"publish {published:.2f} s; {stored} notifications stored, the queue (at most {peak} messages) "
            f"empty {drained:.1f} s after the publication began (worker: --concurrency 4, Redis broker)"
        )
    finally:
        worker.terminate()
        worker.wait(60)


# --- main ------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=400)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--closed", default="4,16,64,256")
    parser.add_argument("--closed-seconds", type=float, default=10)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--seed", type=int, default=51)
    parser.add_argument("--before", help="a revision measured first, on the same database")
    parser.add_argument("--queue", action="store_true", help="measure the notifications queue at publication")
    parser.add_argument(
        "--results", type=float, default=0, help="results entered a second during the open loop (worker on)"
    )
    parser.add_argument(
        "--members", type=float, default=0, help="percent of the round page's looks made by signed-in players"
    )
    parser.add_argument("--quick", action="store_true", help="the test's tiny size")
    parser.add_argument("--json", help="write every figure here")
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.rate, args.seconds, args.workers = 40, 20, 1, 2
        args.closed, args.closed_seconds = "2", 1
    args.closed = [int(part) for part in args.closed.split(",") if part]
    server_url = os.environ.get("DATABASE_URL", "")
    cache_url = os.environ.get("CACHE_URL", "")
    if not server_url.startswith("postgres") or not cache_url.startswith("redis"):
        parser.error(
            "set DATABASE_URL to a PostgreSQL server and CACHE_URL to a Redis database of the bench's own"
        )
    sizes = (args.players >= 8, args.rate > 0, args.seconds > 0, args.workers >= 1, args.results >= 0)
    if not all(sizes) or not 0 <= args.members <= 100:
        parser.error(
            "--players at least 8, --rate and --seconds above 0, --workers at least 1, --results 0 or more,"
            " --members from 0 to 100"
        )

    from bench.scratch import scratch_database, setup_django

    trees: list[tuple[str, Path]] = []
    scratch = Path(tempfile.mkdtemp(prefix="pecking-capacity-"))
    results: dict[str, dict[str, dict[str, float]]] = {}
    try:
        if args.before:
            before = scratch / "before"
            subprocess.run(
                ["git", "worktree", "add", "--detach", str(before), args.before],
                cwd=ROOT,
                check=True,
                capture_output=True,
            )
            trees.append((f"before ({args.before})", before))
        trees.append(("after" if args.before else "this checkout", ROOT))
        with scratch_database(server_url) as database_url:
            if args.queue or args.results:  # the writes' tasks go to the worker's broker
                os.environ["CELERY_BROKER_URL"] = broker_url(cache_url)
            setup_django(database_url)
            start = time.perf_counter()
            event = build_event(args.players)
            if args.members:
                event = dataclasses.replace(event, member_cookies=sign_in_players(min(args.players, 200)))
            print(
                f"{args.players}-player 4-seat Swiss pods (Nacho Pile), round 1 played, round 2 published: "
                f"built in {time.perf_counter() - start:.1f} s; machine: {os.cpu_count()} cores, "
                f"load average {load()}"
            )
            print(
                f"open loop {args.rate:g}/s for {args.seconds:g} s, closed loop at {args.closed} for "
                f"{args.closed_seconds:g} s each; mix " + ", ".join(f"{w}% {k}" for k, w in MIX)
            )
            for label, tree in trees:
                results[label] = measure_side(label, tree, database_url, cache_url, event, args)
            if len(trees) == 2:
                print("\nside by side (before | after):")
                print(f"  {'load':<14} {'req/s':>15} {'p95 ms':>15} {'p99 ms':>15} {'errors':>11}")
                first, second = results.values()
                for name in first:
                    a, b = first[name], second[name]
                    print(
                        f"  {name:<14} {a['rps']:>7.1f}|{b['rps']:<7.1f} {a['p95']:>7.0f}|{b['p95']:<7.0f}"
                        f" {a['p99']:>7.0f}|{b['p99']:<7.0f} {a['errors']:>5d}|{b['errors']:<5d}"
                    )
            if args.queue:
                print(
                    "\nnotifications at round 3's publication: "
                    + queue_drain(ROOT, database_url, cache_url, event)
                )
            from django.db import connections

            connections.close_all()
    finally:
        if args.before:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(scratch / "before")],
                cwd=ROOT,
                capture_output=True,
            )
        shutil.rmtree(scratch, ignore_errors=True)
    if args.json:
        Path(args.json).write_text(json.dumps({"bench": "capacity", "sides": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
