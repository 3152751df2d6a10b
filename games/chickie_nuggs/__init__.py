"""Chickie Nuggs: the rules and their state (`rules`), its sampler (`sampler`), its spec (`spec`), its own
bots (`bots`) and its replay view (`view`)."""

from games.chickie_nuggs.bots import HeuristicBot
from games.chickie_nuggs.rules import GAME, ChickieNuggsGame, ChickieNuggsState

BOTS = (HeuristicBot,)

__all__ = ["BOTS", "GAME", "ChickieNuggsGame", "ChickieNuggsState", "HeuristicBot"]
