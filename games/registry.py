"""The registry of games and bots.

Each game package `games.<id>` exposes `GAME` (a `Game`) and `BOTS` (its own bot classes), and its module
`games.<id>.spec` exposes `SPEC` (the `GameSpec`), so that a catalogue of games (the league's) can be read
without loading the engines. Generic bots (playing every game) live in `games.bots`. Bot names are unique per
game: `bot_class("heuristic", "nacho_pile")`. A game's replay view is `table(state)` in the `view` module of
its package (`table_view(game_id)`), its search policy the `EVALUATOR` of its `search` module
(`evaluator(game_id)`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import Any

from games.core.bot import Bot
from games.core.errors import UnknownBot, UnknownGame
from games.core.evaluator import Evaluator
from games.core.spec import GameSpec
from games.core.state import Game, State

GAME_PACKAGES = (
    "games.nacho_pile",
    "games.nobody_but_us_chickens",
    "games.chicken_foot",
    "games.chickie_nuggs",
)


@cache
def _load() -> tuple[dict[str, Game], dict[str, dict[str, type[Bot]]]]:
    games: dict[str, Game] = {}
    bots: dict[str, dict[str, type[Bot]]] = {}
    for package in GAME_PACKAGES:
        module = importlib.import_module(package)
        game: Game = module.GAME
        games[game.spec.id] = game
        table = _generic_table(game.spec.id)
        for bot in module.BOTS:
            if bot.name in table:
                raise RuntimeError(f"bot name {bot.name!r} registered twice for {game.spec.id}")
            table[bot.name] = bot
        bots[game.spec.id] = table
    return games, bots


def _generic_table(game_id: str) -> dict[str, type[Bot]]:
    """The generic bots for one game: a generic bot may offer each game its own variant (`for_game`: the
    search bot's tuned defaults)."""
    from games.bots import GENERIC_BOTS

    return {bot.name: bot.for_game(game_id) if hasattr(bot, "for_game") else bot for bot in GENERIC_BOTS}


@cache
def _load_specs() -> dict[str, GameSpec]:
    specs: dict[str, GameSpec] = {}
    for package in GAME_PACKAGES:
        module = importlib.import_module(f"{package}.spec")
        specs[module.SPEC.id] = module.SPEC
    return specs


def all_specs() -> list[GameSpec]:
    """The spec of every registered game, without loading engines."""
    return list(_load_specs().values())


def get_spec(game_id: str) -> GameSpec:
    specs = _load_specs()
    try:
        return specs[game_id]
    except KeyError:
        raise UnknownGame(f"unknown game {game_id!r} (known: {', '.join(specs)})") from None


def game_ids() -> list[str]:
    return list(_load()[0])


def all_games() -> list[Game]:
    return list(_load()[0].values())


def get_game(game_id: str) -> Game:
    games = _load()[0]
    try:
        return games[game_id]
    except KeyError:
        raise UnknownGame(f"unknown game {game_id!r} (known: {', '.join(games)})") from None


def bots_for(game_id: str) -> dict[str, type[Bot]]:
    """Every bot that plays `game_id`, by name."""
    get_game(game_id)
    return dict(_load()[1][game_id])


def bot_class(name: str, game_id: str) -> type[Bot]:
    table = bots_for(game_id)
    try:
        return table[name]
    except KeyError:
        raise UnknownBot(f"unknown bot {name!r} for {game_id} (known: {', '.join(table)})") from None


def _game_module(game_id: str, name: str) -> Any:
    """The game's module `name` (`view`, `render`, `search`), or None when its package has none."""
    package = type(get_game(game_id)).__module__.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"{package}.{name}":
            return None
        raise


def table_view(game_id: str) -> Callable[[State], dict[str, Any]] | None:
    """`table(state)` of the game's `view` module (the plain data a replay draws), or None without one."""
    module = _game_module(game_id, "view")
    if module is None:
        return None
    table: Callable[[State], dict[str, Any]] = module.table
    return table


def milestone_text(game_id: str) -> Callable[[State], str | None] | None:
    """`milestone(state)` of the game's `render` module (what the CLI prints after an event), or None."""
    module = _game_module(game_id, "render")
    milestone: Callable[[State], str | None] | None = getattr(module, "milestone", None)
    return milestone


@cache
def _evaluators() -> dict[str, Evaluator[Any]]:
    return {}


def evaluator(game_id: str) -> Evaluator[Any]:
    """The search policy of the game: `EVALUATOR` of its `search` module, or the generic `Evaluator` for a
    game without one."""
    made = _evaluators().get(game_id)
    if made is None:
        module = _game_module(game_id, "search")
        made = _evaluators()[game_id] = module.EVALUATOR if module is not None else Evaluator()
    return made


def register(game: Game, bots: tuple[type[Bot], ...] = ()) -> None:
    """Add a game that is not one of GAME_PACKAGES (a plug-in, or a test's own game), or register a known
    game again with more bots (the generic ones, with that game's variants, are always offered)."""
    games, tables = _load()
    games[game.spec.id] = game
    tables[game.spec.id] = {**_generic_table(game.spec.id), **{bot.name: bot for bot in bots}}
    _load_specs()[game.spec.id] = game.spec
    _evaluators().pop(game.spec.id, None)


def unregister(game_id: str) -> None:
    _evaluators().pop(game_id, None)
    games, tables = _load()
    games.pop(game_id, None)
    tables.pop(game_id, None)
    _load_specs().pop(game_id, None)


def reference(game_id: str) -> Any:
    """The game's reference for bot authors (`games.core.reference.Reference`): `REFERENCE` of its `reference`
    module, or None for a game without one."""
    module = _game_module(game_id, "reference")
    return None if module is None else module.REFERENCE
