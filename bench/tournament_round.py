"""Benchmark: every round of a large tournament through the tournament services and pages (ORM seam included).

Run:  .venv/bin/python -m bench.tournament_round [--players 10000] [--rounds 5] [--seed 2026]
      [--de-players 256] [--formats swiss,pods,de] [--repeats 1] [--json PATH]
      (DATABASE_URL=postgres://... to measure PostgreSQL, in a database the bench creates on that server and
      drops at its end; the default is a SQLite file in a temporary folder, removed at the end:
      bench/scratch.py)

For 2-seat Swiss and 4-seat pods, every round (1 to `--rounds`) is generated, published and filled through the
services with seeded random places, then completed. Each round prints one line of seconds:

- `generate`: `round_generate` (loading the history, pairing, saving the draft); `pair`: the pairing alone
  on the loaded history (`seam.generate`, the pure layer with the entrants built from the history);
- `publish`: `round_publish` (one league match per table);
- `results`: every table's result through `table_result` (the service the result page uses), the total;
  `per result`: the median of one call;
- `t-cold`: the tournament page and its fragment right after the round's last result, before the round is
  completed: the first look at a new state, which computes the standings and stores their snapshot
  (`league.tournaments.snapshots`);
- `complete`: `round_complete`, which stores the standings snapshot of the completed round after its commit;
- `standings`: the standings selector on a freshly loaded history (no snapshot);
- `t-page`: the tournament page as a visitor sees it plus every fragment it loads (its live standings
  fragment, `?fragment=live`), the sum, after the round is completed; `r-page`: the round's page plus its
  live refresh (live.js fetches the page again), the sum; with the queries of each in brackets.

Then the medians over the rounds. Then a double elimination of `--de-players` (2-seat, played match by match):
after round 1 is published, each result is entered through `table_result` at the first table still waiting,
one by one, which stores the result and opens the matches it makes ready; printed are the median and p95
seconds of one such call (result stored and next match ready), and the number of results.

With `--repeats N` every part asked for (`--formats`: `swiss`, `pods`, `de`) is played N times on new
tournaments of the same players, the parts in turn (swiss, pods, de, swiss, ...: bench/harness.py
`interleave`, one side `tournament` with every part's figures); the per-round lines are printed for every
repeat, then each figure's median and range over the repeats (the harness's table; `--json PATH` writes every
repeat's figures). Figures only: nothing is asserted about time. The last line is `RESULT key=value ...`, each
figure's median over the repeats.

Figures (PostgreSQL, 10,000 players, 2 shared cores under a load average of 4-6, so single figures vary by
up to 2x; `DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python -m bench.tournament_round
--players 10000 [--rounds 2]`), seconds:

    before (code of ea9f8a9, this bench; stopped after 2 Swiss rounds)
    2-seat Swiss  generate  pair   publish  per result  standings  t-page  r-page
      round 1     12.551    7.087  0.932    0.024       17.481     34.351  7.415
      round 2     18.262   36.535  2.143    0.032        5.762     10.755  5.468

    after (572d1ec..239b7d8: one-pass tie ordering, publish without IN lists, draft tables through
    core.bulk, standings/players/tables 100 a page, a round page loading only its page of tables)
    2-seat Swiss  round 1      5.588    1.746  2.714    0.026        2.221      4.987  0.283
                  round 2      2.322    0.755  0.953    0.022        2.773      5.725  0.175
    4-seat pods   round 1      1.392    0.751  0.365    0.022        1.505      3.638  0.602
                  round 2      2.046    1.044  0.940    0.015        0.789      2.905  1.031
    double elimination, 256 players, 510 results: median 114.5 ms, p95 453.4 ms a result; after the
    bracket flow computes its elimination part once (`--formats de`, beside a test run): median 53.2 ms,
    p95 214.1 ms

The targets' levers, measured the same way on this branch (`scale`), seconds; load average
1.5-4 during these runs (a full test suite ran beside the pods run), so figures vary by up to 2x:

    after (standings snapshot per tournament state, lean histories, pods seat search once per seat-use rows,
    cached brackets; `--rounds 4 --formats swiss`, `--rounds 4 --formats pods`, `--formats de`)
    2-seat Swiss  generate  pair   publish  per result  t-cold  complete  standings  t-page      r-page
      round 1     0.482     0.305  0.554    0.013       0.550   0.662     0.732      0.117 (24)  0.103 (20)
      round 2     0.742     0.441  0.361    0.011       0.794   0.781     1.097      0.115 (24)  0.085 (20)
      round 3     0.862     0.331  0.494    0.011       0.858   1.119     1.414      0.138 (24)  0.084 (20)
      round 4     1.600     1.320  0.371    0.011       1.310   1.159     1.958      0.163 (24)  0.091 (20)
    4-seat pods
      round 1     0.512     0.166  0.443    0.012       0.567   0.541     0.791      0.085 (24)  0.104 (20)
      round 2     0.573     0.488  0.233    0.010       0.714   0.741     1.010      0.135 (24)  0.110 (20)
      round 3     1.719     1.461  0.242    0.008       0.866   0.807     1.108      0.112 (24)  0.103 (20)
      round 4     1.867     1.421  0.241    0.008       0.920   1.300     1.361      0.119 (24)  0.105 (20)
    double elimination, 256 players, 511 results: median 23.8 ms, p95 33.6 ms, max 84.9 ms a result

`t-page` is the page after a round is completed (its standings stored when it completed: `complete`);
`t-cold` the first look after a result, which computes the standings (about a second at 10,000 players).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

from bench import harness
from bench.scratch import bench_database, setup_django

ROOT = Path(__file__).resolve().parent.parent

FORMATS = {"swiss": ("2-seat Swiss", 2), "pods": ("4-seat pods", 4)}
COLUMNS = (
    "generate",
    "pair",
    "publish",
    "results",
    "per result",
    "t-cold",
    "complete",
    "standings",
    "t-page",
    "r-page",
)


def timed(action, **arguments) -> tuple[float, object]:
    start = time.perf_counter()
    value = action(**arguments)
    return time.perf_counter() - start, value


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def page_time(client, urls: list[str]) -> tuple[float, int]:
    """Seconds and queries of getting every url in turn (a page and the fragments it loads)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    total, queries = 0.0, 0
    for url in urls:
        with CaptureQueriesContext(connection) as captured:
            seconds, response = timed(client.get, path=url, HTTP_HOST="localhost")
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}")
        total += seconds
        queries += len(captured)
    return total, queries


def enter_results(tables, organizer, rng: random.Random) -> list[float]:
    from league.tournaments import services

    calls = []
    for table in tables:
        places = list(range(1, len(table.planned_seats) + 1))
        rng.shuffle(places)
        calls.append(
            timed(services.table_result, table=table, by=organizer, expected_version=0, places=places)[0]
        )
    return calls


def run(key: str, players: list, organizer, rounds: int, rng: random.Random) -> dict[str, float]:
    from django.test import Client

    from league.tournaments import seam, selectors, services
    from league.tournaments.history import load_history
    from league.tournaments.models import Registration, Tournament

    label, seats = FORMATS[key]
    tournament = services.tournament_create(
        created_by=organizer,
        name=f"Bench {label}",
        game_id="nacho_pile",
        format="swiss",
        table_size=seats,
        rounds=rounds,
        rated=False,
    )
    Registration.objects.bulk_create(
        Registration(tournament=tournament, player=player, seed=seed)
        for seed, player in enumerate(players, 1)
    )
    services.tournament_start(tournament=tournament, by=organizer)
    client = Client()
    url = Tournament.objects.get(pk=tournament.pk).get_absolute_url()
    print(f"\n{label}, {len(players)} players, seconds per round (queries in brackets):")
    print(f"{'round':>5} {'tables':>6} " + " ".join(f"{name:>10}" for name in COLUMNS), flush=True)
    lines: list[dict[str, float]] = []
    for number in range(1, rounds + 1):
        row: dict[str, float] = {}
        row["generate"], round_row = timed(services.round_generate, tournament=tournament, by=organizer)
        history = load_history(Tournament.objects.get(pk=tournament.pk))
        row["pair"] = timed(seam.generate, history=history, number=number)[0]
        row["publish"] = timed(services.round_publish, round_row=round_row, by=organizer)[0]
        tables = list(round_row.tables.order_by("number"))
        calls = enter_results(tables, organizer, rng)
        row["results"], row["per result"] = sum(calls), statistics.median(calls)
        row["t-cold"], _ = page_time(client, [url, f"{url}?fragment=live"])  # the first look after a result
        row["complete"] = timed(services.round_complete, round_row=round_row, by=organizer)[0]
        row["standings"] = timed(lambda: selectors.standing_rows_of(load_history(tournament)))[0]
        row["t-page"], t_queries = page_time(client, [url, f"{url}?fragment=live"])
        round_url = round_row.get_absolute_url()
        row["r-page"], r_queries = page_time(client, [round_url, round_url])
        lines.append(row)
        cells = [f"{row[name]:>10.3f}" for name in COLUMNS]
        cells[-2] = f"{row['t-page']:.3f} ({t_queries})".rjust(10)
        cells[-1] = f"{row['r-page']:.3f} ({r_queries})".rjust(10)
        print(f"{number:>5} {len(tables):>6} " + " ".join(cells), flush=True)
    medians = {name: statistics.median(line[name] for line in lines) for name in COLUMNS}
    worst = {name: max(line[name] for line in lines) for name in COLUMNS}
    print(f"{'med':>5} {'':>6} " + " ".join(f"{medians[name]:>10.3f}" for name in COLUMNS))
    print(f"{'max':>5} {'':>6} " + " ".join(f"{worst[name]:>10.3f}" for name in COLUMNS))
    quality = round_row.quality
    print(
        f"  last round's quality: repeat pairs {quality['repeat_pairs']}, max score spread "
        f"{quality['max_score_spread']:g}, seat excess {quality['seat_excess']}, byes {quality['byes']}"
    )
    figures = {}
    for name in (
        "generate",
        "pair",
        "publish",
        "results",
        "t-cold",
        "complete",
        "standings",
        "t-page",
        "r-page",
    ):
        short = name.replace("-", "")
        figures[f"{key}_{short}_max"] = worst[name]
        figures[f"{key}_{short}_med"] = medians[name]
    return figures


def double_elimination(players: list, organizer, rng: random.Random) -> dict[str, float]:
    from league.matches.models import Match
    from league.tournaments import services
    from league.tournaments.models import Registration, Table

    tournament = services.tournament_create(
        created_by=organizer,
        name="Bench double elimination",
        game_id="nacho_pile",
        format="double_elimination",
        table_size=2,
        rated=False,
    )
    Registration.objects.bulk_create(
        Registration(tournament=tournament, player=player, seed=seed)
        for seed, player in enumerate(players, 1)
    )
    services.tournament_start(tournament=tournament, by=organizer)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    waiting = (
        Table.objects.filter(round__tournament=tournament, match__status=Match.Status.SCHEDULED)
        .exclude(closed_as=Table.Closed.RESET)
        .order_by("round__number", "number")
    )
    calls = []
    while (table := waiting.first()) is not None:
        places = [1, 2]
        rng.shuffle(places)
        calls.append(
            timed(services.table_result, table=table, by=organizer, expected_version=0, places=places)[0]
        )
    tournament.refresh_from_db()
    print(
        f"\nDouble elimination, {len(players)} players, match by match ({len(calls)} results, "
        f"tournament {tournament.status}):"
    )
    print(
        f"  one result stored and the next match ready: median {statistics.median(calls) * 1000:.1f} ms, "
        f"p95 {p95(calls) * 1000:.1f} ms, max {max(calls) * 1000:.1f} ms"
    )
    return {"de_result_med": statistics.median(calls), "de_result_p95": p95(calls)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.tournament_round", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--de-players", type=int, default=256)
    parser.add_argument("--formats", default="swiss,pods,de", help="which parts to run, comma-separated")
    parser.add_argument("--repeats", type=int, default=1, help="times each part is played, parts in turn")
    harness.add_json_option(parser)
    args = parser.parse_args(argv)
    if args.players < 8 or args.rounds < 1 or args.de_players < 4 or args.repeats < 1:
        parser.error(
            "--players at least 8, --rounds at least 1, --de-players at least 4, --repeats at least 1"
        )
    parts = args.formats.split(",")
    if not parts or any(part not in (*FORMATS, "de") for part in parts):
        parser.error("--formats takes swiss, pods and de, comma-separated")
    with bench_database(os.environ.get("DATABASE_URL")) as database_url:
        setup_django(database_url)
        runs = measure(args)
    settings = {key: value for key, value in vars(args).items() if key != "json"}
    harness.write_json(args.json, "tournament_round", settings, runs)
    return 0


def measure(args: argparse.Namespace) -> dict[str, list[dict[str, float]]]:
    from django.contrib.auth import get_user_model

    from league.core.names import name_key
    from league.players.models import Player

    organizer = get_user_model().objects.create_superuser("bench", "bench@example.invalid", "bench-pass-123")
    count = max(args.players, args.de_players)
    Player.objects.bulk_create(
        Player(name=f"Bench {i:05d}", name_key=name_key(f"Bench {i:05d}"), slug=f"bench-{i:05d}")
        for i in range(count)
    )
    players = list(Player.objects.order_by("id"))
    rng = random.Random(args.seed)
    parts = args.formats.split(",")

    def repeat() -> dict[str, float]:
        """Every part asked for, in turn, on new tournaments: their figures."""
        figures: dict[str, float] = {}
        for key in FORMATS:
            if key in parts:
                figures.update(run(key, players[: args.players], organizer, args.rounds, rng))
        if "de" in parts:
            figures.update(double_elimination(players[: args.de_players], organizer, rng))
        return figures

    runs = harness.interleave({"tournament": repeat}, args.repeats)
    print(f"\nmedians [min – max] of {args.repeats} repeats, seconds:")
    print("\n".join(harness.table(runs)))
    medians = {key: found.median for side in harness.summarize(runs).values() for key, found in side.items()}
    print("RESULT " + " ".join(f"{key}={value:.4f}" for key, value in medians.items()))
    return runs


if __name__ == "__main__":
    sys.exit(main())
