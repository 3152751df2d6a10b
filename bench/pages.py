"""Benchmark: every public page type, server side, on a site of 1,000 players, 200 tournaments (a few of 500
players), 20 bot leagues and 100,000 matches, with each page's query count at two data sizes.

Run:  DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python -m bench.pages [--repeat 15]
      [--scale 1.0]   (a scratch database on that server, dropped at the end: bench/scratch.py; without a
      PostgreSQL URL, a SQLite file in a temporary folder)

The site is built twice over: first a tenth of it (the small site), then the rest (the full site). After each
part every page type is rendered `--repeat` times with Django's test Client (a visitor, DEBUG off), each time
with the fragments the page loads (a tournament's live standings `?fragment=live`, a round page's refresh, a
bot league's live part), counting the queries of the whole (CaptureQueriesContext). Printed per page type: the
median milliseconds at both sizes and the query count at both sizes; a count that grows with the rows is
marked `GROWS`. The people's matches, their seats, result versions, rating histories and ratings are written
in bulk (the bench owns its scratch database); tournaments go through the tournament services (registrations
in bulk, as bench/tournament_round.py does), bot leagues through the league services and an in-process worker.

Figures only: nothing is asserted about time. The last line is `RESULT key=value ...`; `--json PATH` writes
each page type's full-site `PAGE ms` and `PAGE queries` (bench/harness.py). `--slowest N` also prints the N
slowest queries of each page type over 50 ms. `--clock cpu` times this process's CPU time instead of the wall
clock (the database server's work left out).

Before and after, on one site (bench/compare.py `--shared`): `--build-only STATE` builds the full site on a
scratch database that is kept and writes its URL and pages to STATE; `--reuse STATE` renders each page type
`--repeat` times on it (no building; `--json` as above); `--drop STATE` drops that database.

Before/after figures (`bench.compare --before 994028f --after 1c88271 --repeats 7 --shared -- pages --scale
0.2 --repeat 5 --clock cpu`: 200 players, 40 tournaments (one of 100 players), 4 bot leagues, 20,000 matches;
after = the pages in `league/web` reading their page selectors, one shape of history; 2 cores shared with
seven other helpers), median ms of CPU before / after (range of the 7 runs' medians), ratio: home 20.2
(17.6-30.0) / 21.9 (18.8-25.7) 1.09; players 7.4 / 7.8 1.05; match 11.8 / 12.5 1.06; player 35.9 / 36.7 1.02;
tournament 57.0 (45.3-59.8) / 48.5 (37.6-58.5) 0.85; bracket 63.6 / 58.0 0.91; round 51.7 / 46.4 0.90;
league 72.7 / 67.5 0.93; replay 9.8 / 8.5 0.88; the others 0.92-1.02. Every page's query count is the same on
both sides (the bracket's 44-46 before, 44 after). Profiles of the bots list, sign-up, league and replay pages
count the same Python calls on both sides (within 0.05%): what moves the small pages' ratios is the machine.
Nothing is asserted about time.

Figures (PostgreSQL, `--repeat 15`, full site: 1,000 players, 200 tournaments (3 of 500 players), 20 bot
leagues, 101,548 matches; building took about 5 minutes; 2 cores shared with four other helpers, load average
2-8, so single figures vary by up to 2x and the small-site column is the noisier), ms (queries):

    page          first        chart tag, history    row tags, values,    the same, the
                               as values             subqueries (a)       database analyzed (b)
    players       236.3 (2)     56.1 (3)              28.0 (3)             33.2 (3)
    player        145.2 (7)    113.4 (7)              52.6 (7)             42.2 (7)
    bot player    130.2 (7)     68.7 (7)              43.3 (8)             29.9 (8)
    league        489.2 (30)   174.2 (30)             96.0 (28)            76.9 (28)
    tournament    210.7 (24)   112.4 (24)             42.7 (24)            42.6 (24)
    round         286.3 (26)   141.4 (26)             47.7 (26)            58.0 (26)
    bracket       105.7 (46)    89.9 (46)             43.2 (46)            43.7 (46)
    every other page type under 45 ms; no query count grows between the small and the full site.
    The league's figures include its live part, the tournament's (500 players) its `?fragment=live`, the
    round's (125 tables) its refresh.

(a) the standings rows, a round's table cards and their seats written by Python template tags (the same HTML),
a round page's partial history read as values, rating histories read with the match's time by a subquery
(not a join that hashed the whole match table), recent matches' seats prefetched in seat order with their
players. (b) the bench now ANALYZEs after building each part (`analyze`): before, its fresh tables had no
planner statistics and a few ten-row lookups ran as parallel scans (about 10 ms each on the league page).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from pathlib import Path

from bench import harness
from bench.pages_site import Site, total_matches
from bench.scratch import bench_database, drop_kept, kept_database, setup_django

ROOT = Path(__file__).resolve().parent.parent

FULL = {"players": 1000, "tournaments": 200, "big": 3, "big_size": 500, "leagues": 20, "matches": 100_000}
CLOCK = time.perf_counter  # `--clock cpu`: time.process_time, the database server's work left out


SLOWEST: dict[
    str, list[tuple[float, str]]
] = {}  # page type: its slowest queries in the last turn (--slowest)


def measure(urls: list[str], repeat: int, name: str = "") -> tuple[float, int]:
    """Median milliseconds of rendering every url in turn, and the queries of one such turn."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    times, counts = [], set()
    for _ in range(repeat + 1):  # the first turn warms the caches (templates, the game registry)
        start = CLOCK()
        with CaptureQueriesContext(connection) as captured:
            for url in urls:
                response = client.get(url, HTTP_HOST="localhost")
                if response.status_code != 200:
                    raise SystemExit(f"{url} answered {response.status_code}")
        times.append(CLOCK() - start)
        counts.add(len(captured))
    SLOWEST[name] = sorted(
        ((float(q["time"]) * 1000, q["sql"]) for q in captured.captured_queries), reverse=True
    )
    return statistics.median(times[1:]) * 1000, max(counts)


def parts(scale: float) -> tuple[dict, dict]:
    """The small site and the rest of the full site at `scale` (a share of FULL)."""
    full = {key: max(1, round(value * scale)) for key, value in FULL.items()}
    full["big_size"] = min(full["big_size"], full["players"])
    small = {key: max(1, value // 10) for key, value in full.items()}
    small["big"], small["big_size"], small["league_rounds"] = 0, 0, 4
    rest = {key: full[key] - small[key] for key in full}
    rest["big_size"], rest["league_rounds"] = full["big_size"], 40
    return small, rest


def build_only(state: Path, scale: float, seed: int) -> None:
    """Build the full site on a database that is kept; write its URL and pages to `state` (`--reuse`)."""
    database_url = kept_database(os.environ.get("DATABASE_URL"))
    try:
        setup_django(database_url)
        site = Site(random.Random(seed))
        for part in parts(scale):
            site.grow(part)
        state.write_text(json.dumps({"database_url": database_url, "pages": site.pages()}))
    except BaseException:
        drop_kept(database_url)
        raise
    from django.db import connections

    connections.close_all()
    print(f"built, kept: {database_url}", flush=True)


def reuse(state: Path, repeat: int, clock: str, json_path: Path | None) -> None:
    """Render every page type of a site `--build-only` built; its median ms and queries."""
    global CLOCK
    built = json.loads(state.read_text())
    setup_django(built["database_url"])
    CLOCK = time.process_time if clock == "cpu" else time.perf_counter
    figures: dict[str, float] = {}
    for name, urls in built["pages"].items():
        ms, count = measure(urls, repeat)
        figures[f"{name} ms"], figures[f"{name} queries"] = ms, count
    print(" ".join(f"{name.replace(' ', '_')}={value:.2f}" for name, value in figures.items()))
    settings = {"repeat": repeat, "clock": clock, "database_url": built["database_url"]}
    harness.write_json(json_path, "pages", settings, {"run": [figures]})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--scale", type=float, default=1.0, help="the full site's size, as a share of FULL")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--slowest", type=int, default=0, help="print each slow page's N slowest queries")
    parser.add_argument(
        "--clock", choices=("wall", "cpu"), default="wall", help="cpu: this process's CPU time"
    )
    shared = parser.add_mutually_exclusive_group()
    shared.add_argument("--build-only", metavar="STATE", type=Path, help="build the site, keep its database")
    shared.add_argument("--reuse", metavar="STATE", type=Path, help="measure a site --build-only built")
    shared.add_argument("--drop", metavar="STATE", type=Path, help="drop a site --build-only built")
    harness.add_json_option(parser)
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.build_only:
        build_only(args.build_only, args.scale, args.seed)
        return 0
    if args.reuse:
        reuse(args.reuse, args.repeat, args.clock, args.json)
        return 0
    if args.drop:
        drop_kept(json.loads(args.drop.read_text())["database_url"])
        return 0
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    small, rest = parts(args.scale)
    with bench_database(os.environ.get("DATABASE_URL")) as database_url:
        setup_django(database_url)
        from django.db import connection

        site = Site(random.Random(args.seed))
        print(f"{connection.vendor}, repeat {args.repeat}; the small site:", flush=True)
        site.grow(small)
        before = {name: measure(urls, args.repeat) for name, urls in site.pages().items()}
        print("the rest of the site:", flush=True)
        site.grow(rest)
        pages = site.pages()
        after = {name: measure(urls, args.repeat, name) for name, urls in pages.items()}
        print(
            f"\nsmall site: {small['players']} players, {small['tournaments']} tournaments, "
            f"{small['leagues']} bot leagues, {site_counts(small)}; full site: {len(site.players)} players, "
            f"{site.tournaments} tournaments ({rest['big']} of {rest['big_size']} players), "
            f"{len(site.leagues)} bot leagues, {total_matches()} matches"
        )
        print(f"{'page':<12} {'ms small':>9} {'ms full':>9} {'queries':>8} {'(small)':>8}  urls (full site)")
        grows = []
        for name, (ms, count) in after.items():
            small_ms, small_count = before.get(name, (float("nan"), -1))
            mark = "  GROWS" if small_count != count else ""
            if mark:
                grows.append(name)
            print(
                f"{name:<12} {small_ms:>9.1f} {ms:>9.1f} {count:>8} {small_count:>8}  "
                f"{' + '.join(pages[name])}{mark}"
            )
        for name, (ms, _) in after.items():
            if args.slowest and ms > 50:
                print(f"{name}: its {args.slowest} slowest queries (ms)")
                for query_ms, sql in SLOWEST[name][: args.slowest]:
                    print(f"  {query_ms:7.1f}  {sql[:300]}")
        slowest = max(after, key=lambda name: after[name][0])
        print(
            f"RESULT slowest={slowest.replace(' ', '_')} slowest_ms={after[slowest][0]:.1f} "
            f"over_100ms={sum(1 for ms, _ in after.values() if ms > 100)} growing={len(grows)}"
        )
        figures = {
            f"{name} {unit}": value
            for name, (ms, count) in after.items()
            for unit, value in (("ms", ms), ("queries", count))
        }
        harness.write_json(
            args.json, "pages", {"repeat": args.repeat, "scale": args.scale}, {"run": [figures]}
        )
    return 0


def site_counts(part: dict) -> str:
    return f"{part['matches']} people's matches"


if __name__ == "__main__":
    raise SystemExit(main())
