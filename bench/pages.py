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

Before/after figures (`bench.compare --before 994028f --repeats 9 --shared -- pages --scale 0.2 --repeat 9
--clock cpu`: 200 players, 40 tournaments (one of 100 players), 4 bot leagues, 20,000 matches; after = the
pages in `league/web`; 2 cores shared with seven other helpers), median ms of CPU before / after (range of the
9 runs' medians), ratio: home 23.3 (15.6-25.9) / 25.5 (17.6-35.5) 1.09; matches 30.2 (25.7-36.2) / 37.7
(28.3-46.0) 1.25; tournament 56.7 / 62.9 1.11; round 56.0 / 52.9 0.95; bots 4.0 / 5.0 1.26; league 89.0 /
86.7 0.97; the others 0.86-1.14. Every page's query count is the same on both sides and every range overlaps;
the pages above 1.10 differ from one such run to the next (an earlier run of 7: matches 1.07, bots 1.03,
round 1.12, ladders 1.18), and profiles of both sides' renders count the same Python calls within 1% (the
tournament page 4% more: its standings rows copied field by field). Nothing is asserted about time.

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
from datetime import timedelta
from pathlib import Path
from unittest import mock

from bench import harness
from bench.scratch import bench_database, drop_kept, kept_database, setup_django

ROOT = Path(__file__).resolve().parent.parent

FULL = {"players": 1000, "tournaments": 200, "big": 3, "big_size": 500, "leagues": 20, "matches": 100_000}
GAME_WEIGHTS = {"nacho_pile": 5, "chicken_foot": 2, "nobody_but_us_chickens": 2, "chickie_nuggs": 1}
BOTS = (
    ("Random", "random", {}),
    ("Careful", "heuristic", {"caution": 1.5}),
    ("Balanced", "heuristic", {"caution": 1.0}),
    ("Daring", "heuristic", {"caution": 0.5}),
    ("Reckless", "heuristic", {"caution": 0.2}),
)
BATCH = 5000
CLOCK = time.perf_counter  # `--clock cpu`: time.process_time, the database server's work left out


def timed(action, *args, **kwargs):
    start = time.perf_counter()
    value = action(*args, **kwargs)
    return time.perf_counter() - start, value


class Site:
    """The growing site: who organizes, the players so far, and what each page type is shown on."""

    def __init__(self, rng: random.Random):
        from django.contrib.auth import get_user_model

        self.rng = rng
        self.organizer = get_user_model().objects.create_superuser(
            "bench", "bench@example.invalid", "bench-pw-12"
        )
        self.players: list = []
        self.tournaments = 0
        self.leagues: list = []
        self.bots: list = []
        self.matches = 0
        self.clock = 0  # minutes after START of the next people's match
        self.state: dict[tuple[int, int], tuple[float, float, int]] = {}  # (player, pool): mu, sigma, matches

    # ------------------------------------------------------------------------------------------ building
    def add_players(self, count: int) -> None:
        from league.players.services import player_create

        start = len(self.players)
        self.players += [player_create(name=f"Player {start + i:04d}") for i in range(count)]

    def add_matches(self, count: int) -> None:
        """`count` finished, rated people's matches in bulk: seats with places, result version 1, a rating
        history row per seat and each seated player's rating brought up to date."""
        from django.utils import timezone

        from games.registry import get_spec
        from league.matches.models import Match, MatchSeat
        from league.ratings import maths
        from league.ratings.models import Rating, RatingHistory
        from league.ratings.services import people_pool_for_game
        from league.results.models import ResultVersion

        rng, games = self.rng, list(GAME_WEIGHTS)
        specs = {game: get_spec(game) for game in games}
        pools = {game: people_pool_for_game(game) for game in games}
        sizes = {game: specs[game].players_allowed(specs[game].validate_options({})) for game in games}
        start = timezone.now() - timedelta(days=720)
        done = 0
        while done < count:
            batch = min(BATCH, count - done)
            plans = []
            for _ in range(batch):
                game = rng.choices(games, weights=[GAME_WEIGHTS[g] for g in games])[0]
                low, high = sizes[game]
                seated = rng.sample(self.players, rng.randint(max(2, low), min(4, high)))
                self.clock += 7
                plans.append((game, seated, start + timedelta(minutes=self.clock)))
            matches = Match.objects.bulk_create(
                Match(
                    game_id=game,
                    game_version=specs[game].version,
                    options={},
                    status=Match.Status.FINISHED,
                    owner=Match.Owner.CASUAL,
                    rated=True,
                    rating_pool=pools[game],
                    played_at=when,
                    result_version=1,
                    created_by=self.organizer,
                )
                for game, _, when in plans
            )
            seats, versions, history = [], [], []
            for match, (game, seated, when) in zip(matches, plans, strict=True):
                places = list(range(1, len(seated) + 1))
                rng.shuffle(places)
                versions.append(
                    ResultVersion(
                        match=match, version=1, places=places, entered_by=self.organizer, entered_at=when
                    )
                )
                pool_id = pools[game].pk
                for seat, (player, place) in enumerate(zip(seated, places, strict=True)):
                    seats.append(MatchSeat(match=match, seat=seat, player=player, place=place))
                    mu, sigma, played = self.state.get((player.pk, pool_id), (25.0, 25 / 3, 0))
                    after_mu = mu + (len(seated) + 1 - 2 * place) * sigma / 8
                    after_sigma = max(1.0, sigma * 0.97)
                    history.append(
                        RatingHistory(
                            pool_id=pool_id,
                            match=match,
                            player=player,
                            mu_before=mu,
                            sigma_before=sigma,
                            mu_after=after_mu,
                            sigma_after=after_sigma,
                        )
                    )
                    self.state[(player.pk, pool_id)] = (after_mu, after_sigma, played + 1)
            MatchSeat.objects.bulk_create(seats, batch_size=BATCH)
            ResultVersion.objects.bulk_create(versions, batch_size=BATCH)
            RatingHistory.objects.bulk_create(history, batch_size=BATCH)
            done += batch
        Rating.objects.bulk_create(
            (
                Rating(
                    pool_id=pool_id,
                    player_id=player_id,
                    mu=mu,
                    sigma=sigma,
                    conservative=maths.conservative(mu, sigma),
                    matches=played,
                )
                for (player_id, pool_id), (mu, sigma, played) in self.state.items()
            ),
            batch_size=BATCH,
            update_conflicts=True,
            unique_fields=["pool", "player"],
            update_fields=["mu", "sigma", "conservative", "matches"],
        )
        self.matches += count

    def add_tournament(self, size: int, fmt: str = "swiss", rounds_played: int = 1) -> object:
        """A tournament of `size` of the players through the services, `rounds_played` rounds played."""
        from league.tournaments import services
        from league.tournaments.models import Registration, Tournament

        self.tournaments += 1
        seats = 2 if fmt == "single_elimination" else 4
        settings = {"rounds": 3} if fmt == "swiss" else {}
        tournament = services.tournament_create(
            created_by=self.organizer,
            name=f"Bench {self.tournaments:03d} ({size})",
            game_id="nacho_pile",
            format=fmt,
            table_size=seats,
            rated=False,
            **settings,
        )
        Registration.objects.bulk_create(
            Registration(tournament=tournament, player=player, seed=seed)
            for seed, player in enumerate(self.rng.sample(self.players, size), 1)
        )
        services.tournament_start(tournament=tournament, by=self.organizer)
        for _ in range(rounds_played):
            tournament = Tournament.objects.get(pk=tournament.pk)
            round_row = services.round_generate(tournament=tournament, by=self.organizer)
            services.round_publish(round_row=round_row, by=self.organizer)
            for table in round_row.tables.order_by("number"):
                places = list(range(1, len(table.planned_seats) + 1))
                self.rng.shuffle(places)
                services.table_result(table=table, by=self.organizer, expected_version=0, places=places)
            round_row.refresh_from_db()
            if round_row.status != "complete":
                services.round_complete(round_row=round_row, by=self.organizer)
        return Tournament.objects.get(pk=tournament.pk)

    def add_league(self, rounds: int) -> object:
        """A bot league of the bench's built-in bots, played in-process to its end."""
        from league.bots.models import BotLeague
        from league.bots.services.definitions import bot_register
        from league.bots.services.leagues import league_create, league_start
        from league.bots.services.work import work_play

        if not self.bots:
            self.bots = [
                bot_register(
                    name=name,
                    game_id="nacho_pile",
                    kind="builtin",
                    strategy=strategy,
                    params=params,
                    by=self.organizer,
                )
                for name, strategy, params in BOTS
            ]
        league = league_create(
            name=f"Bench league {len(self.leagues) + 1:02d}",
            game_id="nacho_pile",
            bot_ids=[bot.pk for bot in self.bots],
            table_size=3,
            target_kind=BotLeague.Target.ROUNDS,
            target_value=rounds,
            sittings_per_round=2,
            seed=len(self.leagues) + 1,
            by=self.organizer,
        )
        with mock.patch("league.bots.services.leagues.queue_work"):
            league_start(league_id=league.pk)
        work_play(league_id=league.pk, worker="bench")
        self.leagues.append(BotLeague.objects.get(pk=league.pk))
        return self.leagues[-1]

    def grow(self, part: dict) -> None:
        """Add a part of the site; prints what it took."""
        steps = [
            ("players", lambda: self.add_players(part["players"])),
            ("matches", lambda: self.add_matches(part["matches"])),
            ("tournaments", lambda: self.add_tournaments(part)),
            ("leagues", lambda: self.add_leagues(part)),
        ]
        for name, step in steps:
            seconds, _ = timed(step)
            print(f"  built {part[name]:>6} {name:<12} in {seconds:6.1f} s", flush=True)
        seconds, _ = timed(analyze)
        print(f"  analyzed the database  in {seconds:6.1f} s", flush=True)

    def add_tournaments(self, part: dict) -> None:
        for _ in range(part["big"]):
            self.add_tournament(part["big_size"], rounds_played=2)
        for index in range(part["tournaments"] - part["big"]):
            if index % 10 == 0:
                self.add_tournament(8, "single_elimination")
            else:
                self.add_tournament(self.rng.choice((8, 12, 16)), rounds_played=index % 3)

    def add_leagues(self, part: dict) -> None:
        for index in range(part["leagues"]):
            self.add_league(rounds=part["league_rounds"] if index == 0 else 2)
        from league.ratings.services import calibration_refresh

        calibration_refresh(pool_id=self.leagues[0].rating_pool_id)

    # ------------------------------------------------------------------------------------------ the pages
    def pages(self) -> dict[str, list[str]]:
        """Each public page type and the URLs it is made of (the page, then the fragments it loads), on the
        largest object of its kind: the busiest player, the largest tournament, the longest league."""
        from django.db.models import Count

        from league.bots.models import BotLeague, Fixture
        from league.players.models import Player
        from league.tournaments.models import Round, Table, Tournament

        busiest = Player.objects.filter(kind="person").annotate(n=Count("seats")).order_by("-n").first()
        largest = (
            Tournament.objects.filter(format="swiss")
            .annotate(n=Count("registrations"))
            .order_by("-n", "pk")[0]
        )
        cup = Tournament.objects.filter(format="single_elimination").order_by("-pk").first()
        round_row = Round.objects.filter(tournament=largest).order_by("number").first()
        table = Table.objects.filter(round=round_row, match__isnull=False).order_by("number").first()
        league = max(self.leagues, key=lambda one: Fixture.objects.filter(league=one).count())
        replay = Fixture.objects.filter(league=league, done=True).order_by("-position").first().match_id
        bot = self.bots[1]
        ladders = BotLeague.objects.filter(kind="ladder").order_by("pk")
        t_url, c_url, r_url = largest.get_absolute_url(), cup.get_absolute_url(), round_row.get_absolute_url()
        pages = {
            "home": ["/"],
            "players": ["/players/"],
            "player": [f"/players/{busiest.slug}/"],
            "leaderboard": ["/games/nacho_pile/"],
            "matches": ["/matches/"],
            "match": [f"/matches/{table.match_id}/"],
            "tournaments": ["/tournaments/"],
            "tournament": [t_url, f"{t_url}?fragment=live"],
            "bracket": [c_url, f"{c_url}?fragment=live"],
            "round": [r_url, r_url],
            "bots": ["/bots/bots/"],
            "bot": [f"/bots/bots/{bot.pk}/"],
            "bot player": [f"/players/{bot.player.slug}/"],
            "leagues": ["/bots/"],
            "league": [f"/bots/{league.pk}/", f"/bots/{league.pk}/live/"],
            "replay": [f"/bots/matches/{replay}/replay/"],
            "ladders": ["/bots/ladders/"],
            "calibration": [f"/games/pools/{league.rating_pool_id}/calibration/"],
            "log in": ["/accounts/login/"],
            "sign up": ["/accounts/signup/"],
        }
        if ladders:
            pages["ladder"] = [f"/bots/ladders/{ladders[0].pk}/"]
        return pages


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


def analyze() -> None:
    """Table statistics for the query planner, as autovacuum keeps them on a running site. Without them, right
    after the bulk writes, PostgreSQL plans from table sizes alone: a ten-row lookup of a few matches' seats
    became a parallel scan (about 10 ms where it takes 1 ms), which no site that has run a while sees."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def site_counts(part: dict) -> str:
    return f"{part['matches']} people's matches"


def total_matches() -> int:
    from league.matches.models import Match

    return Match.objects.count()


if __name__ == "__main__":
    raise SystemExit(main())
