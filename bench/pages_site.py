"""The site bench/pages.py measures: people's matches, ratings and their histories written in bulk,
tournaments through the tournament services, bot leagues through the league services and an in-process
worker; each part grown in turn (`Site.grow`), then `Site.pages` names the URLs of each page type."""

from __future__ import annotations

import random
import time
from datetime import timedelta
from unittest import mock

GAME_WEIGHTS = {"nacho_pile": 5, "chicken_foot": 2, "nobody_but_us_chickens": 2, "chickie_nuggs": 1}
BOTS = (
    ("Random", "random", {}),
    ("Careful", "heuristic", {"caution": 1.5}),
    ("Balanced", "heuristic", {"caution": 1.0}),
    ("Daring", "heuristic", {"caution": 0.5}),
    ("Reckless", "heuristic", {"caution": 0.2}),
)
BATCH = 5000


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


def analyze() -> None:
    """Table statistics for the query planner, as autovacuum keeps them on a running site. Without them, right
    after the bulk writes, PostgreSQL plans from table sizes alone: a ten-row lookup of a few matches' seats
    became a parallel scan (about 10 ms where it takes 1 ms), which no site that has run a while sees."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def total_matches() -> int:
    from league.matches.models import Match

    return Match.objects.count()
