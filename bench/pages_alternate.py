"""Before/after for bench/pages.py on one database: build the site once, then render its pages from two
checkouts in turn (before, after, before, after, ...) and compare each page type's medians.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/pages_alternate.py \\
        --before /work/main --after . [--repeats 7] [--repeat 15] [--scale 0.2]

The site is bench/pages.py's (`Site`, grown by its small part and then the rest, as bench/pages.py does) on a
scratch database (bench/scratch.py), dropped at the end. Each run is a fresh interpreter in the checkout's own
folder (its code first on sys.path) that renders every page type `--repeat` times (bench/pages.py's `measure`)
and prints `RESULT page=ms ...`. Both checkouts must share the database schema. Printed: per page type the
median and range of each side's run medians, and the ratio of the medians (after / before).

`--clock cpu` times the rendering process's own CPU time (the database server's work left out): on a
machine shared by many processes the wall clock's medians vary by several times from run to run.
`--build-only PAGES_JSON` builds the site and keeps its database (renamed `..._kept`, printed; drop it by
hand), `--reuse DATABASE_URL PAGES_JSON` compares on such a site without building one.

Figures only: nothing is asserted about time.

Figures (PostgreSQL, `--scale 0.2`: 200 players, 40 tournaments (one of 200 players), 4 bot leagues,
20,000 matches; before = 994028f, after = the pages in `league/web`; `--repeats 7 --repeat 7 --clock cpu`;
2 cores shared with seven other helpers), median ms of CPU (range of the 7 runs' medians), after / before:
home 26.4 (16.5-30.4) / 24.3 (15.1-30.2) 0.92; player 54.4 / 51.0 0.94; matches 37.4 / 38.3 1.02;
tournament 60.2 (46.5-69.3) / 66.2 (43.0-80.2) 1.10; bracket 57.3 (45.4-71.1) / 63.7 (35.3-74.8) 1.11;
round 46.2 (39.3-55.9) / 48.9 (30.5-71.2) 1.06; bot 17.7 (13.2-25.0) / 21.8 (12.4-23.4) 1.23 (its code
unchanged); league 89.8 / 83.7 0.93; the other pages 0.85-1.12. The runs' ranges overlap on every page;
with the wall clock under a load average of 15 the same pages' ratios ran from 0.24 to 1.42.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.scratch import _execute, bench_database  # noqa: E402

MEASURE = """
import json, sys
sys.path.insert(0, ".")
from bench.scratch import setup_django
setup_django(sys.argv[1])
import bench.pages
from bench.pages import measure
pages = json.loads(open(sys.argv[2]).read())
repeat = int(sys.argv[3])
if sys.argv[4] == "cpu":  # this process's CPU time instead of the wall clock's
    import time, types
    bench.pages.time = types.SimpleNamespace(perf_counter=time.process_time)
figures = {name.replace(" ", "_"): measure(urls, repeat)[0] for name, urls in pages.items()}
print("RESULT " + " ".join(f"{name}={ms:.2f}" for name, ms in figures.items()))
"""


def build(database_url: str, scale: float, seed: int) -> dict[str, list[str]]:
    """bench/pages.py's site at `scale`, built as its main() builds it; the URLs of each page type."""
    from bench.pages import FULL, Site
    from bench.scratch import setup_django

    setup_django(database_url)
    full = {key: max(1, round(value * scale)) for key, value in FULL.items()}
    full["big_size"] = min(full["big_size"], full["players"])
    small = {key: max(1, value // 10) for key, value in full.items()}
    small["big"], small["big_size"], small["league_rounds"] = 0, 0, 4
    rest = {key: full[key] - small[key] for key in full}
    rest["big_size"], rest["league_rounds"] = full["big_size"], 40
    site = Site(random.Random(seed))
    site.grow(small)
    site.grow(rest)
    from django.db import connections

    connections.close_all()
    return site.pages()


def run(checkout: Path, database_url: str, pages_file: str, repeat: int, clock: str) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(checkout), DATABASE_URL=database_url)
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, database_url, pages_file, str(repeat), clock],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise SystemExit(f"{checkout}: {done.stderr[-3000:]}")
    line = [one for one in done.stdout.splitlines() if one.startswith("RESULT ")][-1]
    return {key: float(value) for key, value in (item.split("=") for item in line.split()[1:])}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="a checkout (a folder) of the revision before")
    parser.add_argument("--after", type=Path, help="a checkout (a folder) of the revision after")
    parser.add_argument("--repeats", type=int, default=7, help="runs of each checkout, alternating")
    parser.add_argument("--repeat", type=int, default=15, help="renders of each page type in one run")
    parser.add_argument("--scale", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--clock", choices=("wall", "cpu"), default="wall", help="cpu: the rendering process's CPU time only"
    )
    parser.add_argument(
        "--reuse", nargs=2, metavar=("DATABASE_URL", "PAGES_JSON"), help="a site built before"
    )
    parser.add_argument(
        "--build-only", metavar="PAGES_JSON", help="build, keep the database, write its pages"
    )
    args = parser.parse_args()
    if args.build_only:
        with bench_database(os.environ.get("DATABASE_URL")) as database_url:
            Path(args.build_only).write_text(json.dumps(build(database_url, args.scale, args.seed)))
            name = database_url.rpartition("/")[2]
            keep = name + "_kept"
            _execute(
                database_url,
                f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'",
            )
            _execute(database_url, f"ALTER DATABASE {name} RENAME TO {keep}")
            print(f"kept: {database_url.rpartition('/')[0]}/{keep}")
        return 0
    if not (args.before and args.after):
        parser.error("--before and --after name the two checkouts")
    if args.reuse:
        compare(args, args.reuse[0], json.loads(Path(args.reuse[1]).read_text()))
        return 0
    with bench_database(os.environ.get("DATABASE_URL")) as database_url:
        compare(args, database_url, build(database_url, args.scale, args.seed))
    return 0


def compare(args: argparse.Namespace, database_url: str, pages: dict[str, list[str]]) -> None:
    """Run both checkouts in turn on `database_url`; print each page type's medians, ranges and ratio."""
    runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    with tempfile.NamedTemporaryFile("w", suffix=".json") as pages_file:
        pages_file.write(json.dumps(pages))
        pages_file.flush()
        for index in range(args.repeats):
            for side in ("before", "after"):
                figures = run(
                    getattr(args, side).resolve(), database_url, pages_file.name, args.repeat, args.clock
                )
                runs[side].append(figures)
                print(f"run {index + 1} {side}: {figures}", flush=True)
    print(f"\n{'page':<12} {'before ms (range)':>24} {'after ms (range)':>24} {'ratio':>6}")
    worst = 0.0
    for name in runs["before"][0]:
        before = [one[name] for one in runs["before"]]
        after = [one[name] for one in runs["after"]]
        ratio = statistics.median(after) / statistics.median(before)
        worst = max(worst, ratio)
        print(
            f"{name:<12} {statistics.median(before):>8.1f} ({min(before):.1f}-{max(before):.1f})"
            f"{'':>4} {statistics.median(after):>8.1f} ({min(after):.1f}-{max(after):.1f}){'':>4}"
            f" {ratio:>6.3f}"
        )
    print(f"RESULT worst_ratio={worst:.3f}")


if __name__ == "__main__":
    raise SystemExit(main())
