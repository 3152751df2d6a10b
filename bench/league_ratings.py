"""Benchmark: 100,000 four-seat results in one rating pool; the leaderboard at that size.

Run:  .venv/bin/python -m bench.league_ratings [--matches 100000] [--players 2000] [--repeats 3] [--json PATH]
      (DATABASE_URL=postgres://... to measure PostgreSQL, in a database the bench creates on that server and
      drops at its end; the default is a SQLite file in a temporary folder, removed at the end:
      bench/scratch.py)

Each repeat measures, in turn (bench/harness.py `interleave`, one side `pool`):
- a from-scratch replay of the pool (the work of `ratings_recompute --write`): ratings applied per second;
- one new result at the end of the pool (result_submit + pool_update): seconds per result;
- a correction of the pool's middle match (replays half the pool);
- the leaderboard page (first page and a deep page): seconds per request and SQL queries per request (the
  queries counted on a request of their own, just before the timed one).
Prints the medians over the repeats on the lines below, then every figure's median and range (the harness's
table); `--json PATH` writes every repeat's figures.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench import harness
from bench.scratch import bench_database, setup_django

ROOT = Path(__file__).resolve().parent.parent


def load(matches: int, players: int, seed: int) -> int:
    """Bulk-load players, finished four-seat matches with one result version each; return the pool id."""
    from league.matches.models import Match, MatchOwner, MatchSeat
    from league.players.models import Player
    from league.ratings.services import people_pool_for_game
    from league.results.models import ResultVersion
    from league.results.services import competition_places

    rng = random.Random(seed)
    pool = people_pool_for_game("nacho_pile")
    Player.objects.bulk_create(
        Player(name=f"Bench {i:05d}", name_key=f"bench {i:05d}", slug=f"bench-{i:05d}")
        for i in range(players)
    )
    player_ids = list(Player.objects.values_list("id", flat=True))
    start = datetime(2020, 1, 1, tzinfo=UTC)
    batch = 5000
    for offset in range(0, matches, batch):
        count = min(batch, matches - offset)
        rows = Match.objects.bulk_create(
            Match(
                game_id="nacho_pile",
                game_version=1,
                options={},
                status=Match.Status.FINISHED,
                owner=MatchOwner.CASUAL,
                rated=True,
                rating_pool=pool,
                played_at=start + timedelta(minutes=offset + i),
                result_version=1,
            )
            for i in range(count)
        )
        seats, versions = [], []
        for match in rows:
            table = rng.sample(player_ids, 4)
            places = [rng.randint(1, 4) for _ in table]
            places = competition_places(places)
            seats += [
                MatchSeat(match=match, seat=s, player_id=pid, place=places[s]) for s, pid in enumerate(table)
            ]
            versions.append(ResultVersion(match=match, version=1, places=places))
        MatchSeat.objects.bulk_create(seats)
        ResultVersion.objects.bulk_create(versions)
    return pool.pk


def timed(action) -> tuple[float, Any]:
    started = time.perf_counter()
    result = action()
    return time.perf_counter() - started, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.league_ratings",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    harness.add_json_option(parser)
    args = parser.parse_args(argv)
    if args.matches < 2 or args.players < 4 or args.repeats < 1:
        parser.error("need at least 2 matches, 4 players and 1 repeat")
    with bench_database(os.environ.get("DATABASE_URL")) as database_url:
        setup_django(database_url)
        runs = measure(args)
    settings = {key: value for key, value in vars(args).items() if key != "json"}
    harness.write_json(args.json, "league_ratings", settings, runs)
    return 0


PAGES = (
    ("first page", "first_page", "/games/nacho_pile/"),
    ("page 20", "page20", "/games/nacho_pile/?page=20&sort=player"),
)


def measure(args: argparse.Namespace) -> dict[str, list[dict[str, float]]]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from league.matches.models import Match
    from league.ratings.models import RatingPool
    from league.ratings.services import pool_differences, pool_rebuild, pool_update
    from league.results.services import match_create, result_submit

    print(f"command: .venv/bin/python {' '.join(sys.argv)}")
    print(f"database: {connection.vendor}; {args.matches} four-seat matches, {args.players} players")
    started = time.perf_counter()
    pool_id = load(args.matches, args.players, args.seed)
    print(f"bulk load: {time.perf_counter() - started:.1f} s")

    pool = RatingPool.objects.get(pk=pool_id)
    table = list(Match.objects.filter(rating_pool=pool).values_list("id", flat=True)[:1])
    seated = list(Match.objects.get(pk=table[0]).seats.values_list("player_id", flat=True))
    middle_id = (
        Match.objects.filter(rating_pool=pool)
        .order_by("played_at", "id")
        .values_list("id", flat=True)[args.matches // 2]
    )
    client = Client(HTTP_HOST="localhost")

    def new_result():
        match = match_create(game_id="nacho_pile", player_ids=seated)
        result_submit(match_id=match.pk, expected_version=0, places=[1, 2, 2, 4], entered_by=None)
        return pool_update(pool_id=pool_id)

    def correct_middle():
        version = Match.objects.get(pk=middle_id).result_version
        result_submit(
            match_id=middle_id,
            expected_version=version,
            places=[4, 3, 2, 1] if version % 2 else [1, 2, 3, 4],
            entered_by=None,
            reason="bench",
        )
        return pool_update(pool_id=pool_id)

    def repeat() -> dict[str, float]:
        rebuild, applied = timed(lambda: pool_rebuild(pool_id=pool_id))
        append, _ = timed(new_result)
        correction, replayed = timed(correct_middle)
        figures = {
            "replay_s": rebuild,
            "replayed_matches": float(applied),
            "replay_matches_per_s": applied / rebuild,
            "replay_ratings_per_s": 4 * (applied / rebuild),
            "append_ms": append * 1000,
            "correction_s": correction,
            "correction_replayed": float(replayed),
        }
        for _, key, url in PAGES:
            with CaptureQueriesContext(connection) as captured:
                assert client.get(url).status_code == 200
            figures[f"{key}_queries"] = float(len(captured))  # before the next request clears the log
            page, response = timed(lambda url=url: client.get(url))
            assert response.status_code == 200
            figures[f"{key}_ms"] = page * 1000
        return figures

    runs = harness.interleave({"pool": repeat}, args.repeats)
    found = harness.summarize(runs)["pool"]
    rebuild, applied = found["replay_s"].median, found["replayed_matches"].median
    print(
        f"from-scratch replay: median {rebuild:.2f} s for {applied:.0f} matches = "
        f"{found['replay_matches_per_s'].median:,.0f} matches/s "
        f"({found['replay_ratings_per_s'].median:,.0f} player ratings/s)"
    )
    print(
        f"one new result at the end of the pool (submit + update): median {found['append_ms'].median:.1f} ms"
    )
    print(
        f"correction of the middle match: median {found['correction_s'].median:.2f} s "
        f"(replays {found['correction_replayed'].median:.0f} matches)"
    )
    for label, key, url in PAGES:
        print(
            f"leaderboard {label} ({url}): median {found[f'{key}_ms'].median:.1f} ms, "
            f"{found[f'{key}_queries'].median:.0f} queries"
        )
    differences = pool_differences(pool)
    print(f"recompute check: {'equal' if not differences else f'{len(differences)} differences'}")
    print(f"medians [min – max] of {args.repeats} repeats:")
    print("\n".join(harness.table(runs)))
    return runs


if __name__ == "__main__":
    sys.exit(main())
