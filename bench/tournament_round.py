"""Benchmark: a round of a 1,000-player tournament through the tournament services (ORM seam included).

Run:  .venv/bin/python bench/tournament_round.py [--players 1000] [--repeats 3] [--seed 2026]
      (DATABASE_URL=postgres://... to measure PostgreSQL, in a database the bench creates on that server and drops
      at its end; the default is a SQLite file in a temporary folder, removed at the end: bench/scratch.py)

For 2-seat Swiss and 4-seat pods: rounds 1-4 are generated, published and filled through the services with
seeded random places, then round 5 is generated `--repeats` times (discarding the draft in between). Prints
the median seconds of generating round 5 (loading the history, pairing, saving the draft), of publishing
it (one league match per table), of the standings selector and of the tournament page, and the queries of
the page. The pure pairing alone is timed by bench/pairing_round5.py.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.scratch import bench_database, setup_django  # noqa: E402

FORMATS = {"2-seat Swiss": 2, "4-seat pods": 4}


def timed(action) -> tuple[float, object]:
    start = time.perf_counter()
    value = action()
    return time.perf_counter() - start, value


def run(label: str, seats: int, players: list, organizer, repeats: int, rng: random.Random) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from league.tournaments import seam, selectors, services
    from league.tournaments.models import Registration, Tournament

    tournament = services.tournament_create(created_by=organizer, name=f"Bench {label}", game_id="nacho_pile",
                                            format="swiss", table_size=seats, rounds=6, rated=False)  # fmt: skip
    Registration.objects.bulk_create(
        Registration(tournament=tournament, player=player, seed=seed) for seed, player in enumerate(players, 1)
    )
    services.tournament_start(tournament=tournament, by=organizer)
    for number in range(1, 5):
        round_row = services.round_generate(tournament=tournament, by=organizer)
        services.round_publish(round_row=round_row, by=organizer)
        for table in round_row.tables.select_related("match"):
            places = list(range(1, len(table.planned_seats) + 1))
            rng.shuffle(places)
            services.table_result(table=table, by=organizer, expected_version=0, places=places)
        services.round_complete(round_row=round_row, by=organizer)
        print(f"{label}: round {number} played ({round_row.tables.count()} tables)", flush=True)
    generate, publish = [], []
    for _ in range(repeats):
        seconds, round_row = timed(lambda: services.round_generate(tournament=tournament, by=organizer))
        generate.append(seconds)
        services.round_discard(round_row=round_row, by=organizer)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    quality = round_row.quality
    publish.append(timed(lambda: services.round_publish(round_row=round_row, by=organizer))[0])
    standings = [timed(lambda: selectors.standings(seam.load_history(tournament)))[0] for _ in range(repeats)]
    client = Client()
    url = Tournament.objects.get(pk=tournament.pk).get_absolute_url()
    page = []
    for _ in range(repeats):
        with CaptureQueriesContext(connection) as queries:
            seconds, response = timed(lambda: client.get(url, HTTP_HOST="localhost"))
            assert response.status_code == 200, response.status_code
            page.append(seconds)
    print(f"{label}, round 5 of {len(players)} players:")
    print(f"  generate (load, pair, save draft): median {statistics.median(generate):.3f} s over {repeats}")
    print(f"  publish ({round_row.tables.count()} matches): {publish[0]:.3f} s")
    print(f"  standings selector: median {statistics.median(standings):.3f} s")
    print(f"  tournament page: median {statistics.median(page):.3f} s, {len(queries)} queries")
    print(f"  quality: repeat pairs {quality['repeat_pairs']}, max score spread {quality['max_score_spread']:g}, "
          f"seat excess {quality['seat_excess']}, byes {quality['byes']}")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if args.players < 8 or args.repeats < 1:
        parser.error("--players at least 8 and --repeats at least 1")
    with bench_database(os.environ.get("DATABASE_URL")) as database_url:
        setup_django(database_url)
        measure(args)
    return 0


def measure(args: argparse.Namespace) -> None:
    from django.contrib.auth import get_user_model

    from league.players.models import Player

    organizer = get_user_model().objects.create_superuser("bench", "bench@example.invalid", "bench-pass-123")
    Player.objects.bulk_create(Player(name=f"Bench {i:05d}", name_key=f"bench {i:05d}", slug=f"bench-{i:05d}") for i in range(args.players))
    players = list(Player.objects.order_by("id"))
    rng = random.Random(args.seed)
    for label, seats in FORMATS.items():
        run(label, seats, players, organizer, args.repeats, rng)


if __name__ == "__main__":
    sys.exit(main())
