"""Nobody but Us Chickens: the rules and their state (`rules`), its spec (`spec`), its own bots (`bots`) and
its replay view (`view`)."""

from games.nobody_but_us_chickens.bots import HeuristicBot
from games.nobody_but_us_chickens.rules import GAME, NobodyButUsChickensGame, NobodyButUsChickensState

BOTS = (HeuristicBot,)

__all__ = ["BOTS", "GAME", "HeuristicBot", "NobodyButUsChickensGame", "NobodyButUsChickensState"]
