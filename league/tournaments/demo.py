"""The demo tournaments of `make run`: a 4-seat Swiss of the demo players in its last round, results still
coming in, and a single-elimination cup half played, so the standings, the tables and the bracket have
something to show. Seeded, unrated (the demo ratings stay those of `demo_data`), idempotent."""

from __future__ import annotations

import random

from django.contrib.auth.models import AbstractBaseUser

from league.players.models import Player
from league.tournaments import services
from league.tournaments.models import Round, Tournament

DEMO_SEED = 6
SWISS_NAME = "Demo Swiss: Nacho Pile pods"
CUP_NAME = "Demo Cup: Chicken Foot"


def _random_places(rng: random.Random, size: int) -> list[int]:
    places = list(range(1, size + 1))
    rng.shuffle(places)
    return places


def _play(round_row: Round, admin: AbstractBaseUser, rng: random.Random, *, tables: int | None = None) -> None:
    for table in round_row.tables.order_by("number").select_related("match")[:tables]:
        size = table.match.seats.count()
        services.table_result(table=table, by=admin, expected_version=0, places=_random_places(rng, size))


def _run(tournament: Tournament, admin: AbstractBaseUser, rng: random.Random, complete_rounds: int) -> None:
    for _ in range(complete_rounds):
        round_row = services.round_generate(tournament=tournament, by=admin)
        services.round_publish(round_row=round_row, by=admin)
        _play(round_row, admin, rng)
        services.round_complete(round_row=round_row, by=admin)
    live = services.round_generate(tournament=tournament, by=admin)
    services.round_publish(round_row=live, by=admin)
    _play(live, admin, rng, tables=live.tables.count() // 2)


def load_tournament_demo(*, admin: AbstractBaseUser) -> list[Tournament]:
    """Create the demo tournaments unless they exist; returns those created."""
    players = list(Player.objects.filter(kind=Player.Kind.PERSON, active=True).order_by("name"))
    if len(players) < 8 or Tournament.objects.filter(name__in=[SWISS_NAME, CUP_NAME]).exists():
        return []
    rng = random.Random(DEMO_SEED)
    swiss = services.tournament_create(created_by=admin, name=SWISS_NAME, game_id="nacho_pile", format="swiss",
                                       table_size=4, rounds=3, rated=False)  # fmt: skip
    cup = services.tournament_create(created_by=admin, name=CUP_NAME, game_id="chicken_foot",
                                     format="single_elimination", table_size=2, third_place=True, rated=False)  # fmt: skip
    for tournament, field in ((swiss, players), (cup, rng.sample(players, 7))):
        services.tournament_open_registration(tournament=tournament, by=admin)
        for player in field:
            services.registration_add(tournament=tournament, by=admin, player_id=player.pk)
        services.tournament_start(tournament=tournament, by=admin)
    _run(swiss, admin, rng, complete_rounds=2)
    _run(cup, admin, rng, complete_rounds=1)
    return [swiss, cup]
