"""Nobody but Us Chickens: the engine (`rules`), its spec (`spec`) and its own bots (`bots`)."""

from games.nobody_but_us_chickens.rules import ChickensState, NobodyButUsChickens

GAME = ChickensState.game
BOTS = ()

__all__ = ["BOTS", "GAME", "NobodyButUsChickens"]
