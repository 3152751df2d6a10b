"""Chickie Nuggs: the engine (`rules`), its sampler (`sampler`), its spec (`spec`) and its own bots (`bots`)."""

from games.chickie_nuggs.bots import HeuristicBot
from games.chickie_nuggs.rules import ChickieNuggs, ChickieNuggsState

GAME = ChickieNuggsState.game
BOTS = (HeuristicBot,)

__all__ = ["BOTS", "GAME", "ChickieNuggs", "ChickieNuggsState", "HeuristicBot"]
