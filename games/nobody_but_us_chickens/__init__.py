"""Nobody but Us Chickens: the engine (`rules`), its spec (`spec`) and its own bots (`bots`)."""

from games.nobody_but_us_chickens.bots import HeuristicBot
from games.nobody_but_us_chickens.rules import ChickensState, NobodyButUsChickens

GAME = ChickensState.game
BOTS = (HeuristicBot,)

__all__ = ["BOTS", "GAME", "HeuristicBot", "NobodyButUsChickens"]
