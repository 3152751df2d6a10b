"""The league's view of the game catalogue in `games.registry`: never a hard-coded list of games."""

from __future__ import annotations

from games import registry
from games.core.errors import UnknownGame
from games.core.spec import GameSpec
from league.core.errors import ErrorCode, UserError


def game_specs() -> list[GameSpec]:
    """Every registered game, in the registry's order."""
    return registry.all_specs()


def game_spec(game_id: str, *, field: str = "game") -> GameSpec:
    """The spec of `game_id`, or a UserError naming the known games."""
    try:
        return registry.get_spec(game_id)
    except UnknownGame as exc:
        raise UserError(str(exc), field=field, code=ErrorCode.UNKNOWN_GAME) from None


def game_name(game_id: str) -> str:
    """The display name of `game_id`, or the id itself for a game no longer registered."""
    try:
        return registry.get_spec(game_id).name
    except UnknownGame:
        return game_id


def game_choices() -> list[tuple[str, str]]:
    return [(spec.id, spec.name) for spec in game_specs()]
