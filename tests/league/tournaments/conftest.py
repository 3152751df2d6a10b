"""Tournament fixtures: an organizer (site staff), a stranger,
and helpers running rounds through the services."""

import pytest

from league.players.models import Player
from league.ratings.models import RatingPool
from league.ratings.services import pool_update
from tests.factories import StaffFactory, UserFactory
from tests.factories import tournaments as helpers


@pytest.fixture
def organizer(db):
    return StaffFactory(username="organizer")


@pytest.fixture
def stranger(db):
    return UserFactory(username="stranger")


@pytest.fixture
def make_tournament(organizer):
    def make(count=12, **settings):
        return helpers.make_tournament(organizer, count, **settings)

    return make


@pytest.fixture
def play_round(organizer):
    def play(tournament, places=None, *, complete=True):
        return helpers.play_round(tournament, organizer, places, complete=complete)

    return play


@pytest.fixture
def rate():
    """Bring the game's people pool up to date (the Celery worker's job)."""

    def rate(game_id="nacho_pile"):
        for pool in RatingPool.objects.filter(game_id=game_id, kind="people"):
            pool_update(pool_id=pool.pk)

    return rate


class PlayersByName:
    """Players looked up by name when asked (the tournament helpers create them): `players["Ada"]`."""

    def __getitem__(self, name):
        return Player.objects.get(name=name)

    def name_of(self, player_id):
        return Player.objects.get(pk=player_id).name


@pytest.fixture
def players_by_name(db):
    return PlayersByName()
