"""The demo tournaments of `make run`: a 4-seat Swiss of the demo players in its last round, results still
coming in, a single-elimination cup half played (its bracket opening each match as results come in), so
the standings, the tables and the bracket have something to show, and an open day open for sign-up with its
check-in window open (a cap with places left, a few players registered by hand, some checked in; it starts in
two hours, on the Berlin clock).
Seeded, unrated (the demo ratings stay those of `demo_data`), idempotent: each is made once, when missing."""

from __future__ import annotations

import random
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from league.players.models import Player
from league.tournaments import services
from league.tournaments.models import Round, Tournament

DEMO_SEED = 6
SWISS_NAME = "Demo Swiss: Nacho Pile pods"
CUP_NAME = "Demo Cup: Chicken Foot"
OPEN_NAME = "Demo Open Day: Chickie Nuggs"
OPEN_ZONE = "Europe/Berlin"


def _random_places(rng: random.Random, size: int) -> list[int]:
    places = list(range(1, size + 1))
    rng.shuffle(places)
    return places


def _play(round_row: Round, admin: User, rng: random.Random, *, tables: int | None = None) -> None:
    for table in round_row.tables.order_by("number").select_related("match")[:tables]:
        size = table.published_match.seats.count()
        services.table_result(table=table, by=admin, expected_version=0, places=_random_places(rng, size))


def _run(tournament: Tournament, admin: User, rng: random.Random, complete_rounds: int) -> None:
    for _ in range(complete_rounds):
        round_row = services.round_generate(tournament=tournament, by=admin)
        services.round_publish(round_row=round_row, by=admin)
        _play(round_row, admin, rng)
        services.round_complete(round_row=round_row, by=admin)
    live = services.round_generate(tournament=tournament, by=admin)
    services.round_publish(round_row=live, by=admin)
    _play(live, admin, rng, tables=live.tables.count() // 2)


def _run_bracket(tournament: Tournament, admin: User, rng: random.Random) -> None:
    """Round 1 played in full; the bracket opens round 2 by itself, and half of it is played."""
    first = services.round_generate(tournament=tournament, by=admin)
    services.round_publish(round_row=first, by=admin)
    _play(first, admin, rng)
    second = tournament.round_set.get(number=2)
    _play(second, admin, rng, tables=second.tables.count() // 2)


def load_tournament_demo(*, admin: User) -> list[Tournament]:
    """Create the demo tournaments that do not exist yet; returns those created."""
    players = list(Player.objects.filter(kind=Player.Kind.PERSON, active=True).order_by("name"))
    if len(players) < 8:
        return []
    existing = set(
        Tournament.objects.filter(name__in=[SWISS_NAME, CUP_NAME, OPEN_NAME]).values_list("name", flat=True)
    )
    created = []
    if not existing & {SWISS_NAME, CUP_NAME}:
        created += _live_demo(admin, players)
    if OPEN_NAME not in existing:
        created.append(_open_day(admin, players))
    return created


def _live_demo(admin: User, players: list[Player]) -> list[Tournament]:
    rng = random.Random(DEMO_SEED)
    swiss = services.tournament_create(
        created_by=admin,
        name=SWISS_NAME,
        game_id="nacho_pile",
        format="swiss",
        table_size=4,
        rounds=3,
        rated=False,
    )
    cup = services.tournament_create(
        created_by=admin,
        name=CUP_NAME,
        game_id="chicken_foot",
        format="single_elimination",
        table_size=2,
        third_place=True,
        rated=False,
    )
    for tournament, field in ((swiss, players), (cup, rng.sample(players, 7))):
        services.tournament_open_registration(tournament=tournament, by=admin)
        for player in field:
            services.registration_add(tournament=tournament, by=admin, player_id=player.pk)
        services.tournament_start(tournament=tournament, by=admin)
    _run(swiss, admin, rng, complete_rounds=2)
    _run_bracket(cup, admin, rng)
    return [swiss, cup]


def _open_day(admin: User, players: list[Player]) -> Tournament:
    """Open for sign-up (12 places, a waitlist), check-in open since one to two hours, the start in two hours
    and three rounds planned an hour apart; five players registered by hand, three of them checked in."""
    start = (timezone.now() + timedelta(hours=2)).replace(minute=0, second=0, microsecond=0)
    tournament = services.tournament_create(
        created_by=admin,
        name=OPEN_NAME,
        game_id="chickie_nuggs",
        format="swiss",
        table_size=4,
        rounds=3,
        rated=False,
    )
    services.signup_configure(tournament=tournament, by=admin, self_signup=True, capacity=12, waitlist=True)
    services.tournament_schedule(
        tournament=tournament,
        by=admin,
        time_zone=OPEN_ZONE,
        starts_at=start,
        checkin_opens_at=start - timedelta(hours=3),
        round_times=[start + timedelta(hours=number) for number in range(3)],
    )
    services.tournament_open_registration(tournament=tournament, by=admin)
    for number, player in enumerate(players[:5]):
        services.registration_add(tournament=tournament, by=admin, player_id=player.pk)
        if number < 3:
            services.registration_check_in(tournament=tournament, by=admin, player_id=player.pk)
    return tournament
