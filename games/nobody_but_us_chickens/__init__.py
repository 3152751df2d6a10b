"""Nobody but Us Chickens: the rules and their state (`rules`), its spec (`spec`) and its own bots (`bots`)."""

from games.nobody_but_us_chickens.bots import HeuristicBot
from games.nobody_but_us_chickens.rules import GAME, NobodyButUsChickensGame, NobodyButUsChickensState

BOTS = (HeuristicBot,)

__all__ = ["BOTS", "GAME", "HeuristicBot", "NobodyButUsChickensGame", "NobodyButUsChickensState"]
