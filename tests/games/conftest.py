import pytest

from games import registry
from tests.games import toy_game


@pytest.fixture
def toy():
    """The core's test game, registered for the duration of one test."""
    registry.register(toy_game.GAME, toy_game.BOTS)
    yield toy_game.GAME
    registry.unregister(toy_game.SPEC.id)
