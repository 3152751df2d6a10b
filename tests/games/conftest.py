import pytest

from games import registry
from tests.games import toy_game


@pytest.fixture
def toy():
    """The core's test game, registered for the duration of one test."""
    registry.register(toy_game.GAME, toy_game.BOTS)
    yield toy_game.GAME
    registry.unregister(toy_game.SPEC.id)


@pytest.fixture(params=[*registry.game_ids(), toy_game.SPEC.id])
def game(request):
    """Each registered game in turn, and the core's test game: for the contract every game keeps."""
    if request.param == toy_game.SPEC.id:
        registry.register(toy_game.GAME, toy_game.BOTS)
        yield toy_game.GAME
        registry.unregister(toy_game.SPEC.id)
    else:
        yield registry.get_game(request.param)
