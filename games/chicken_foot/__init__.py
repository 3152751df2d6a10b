"""Chicken Foot dominoes: the rules and their state (`rules`), its sampler (`sampler`), its spec (`spec`), its
own bots (`bots`) and its replay view (`view`)."""

from games.chicken_foot.bots import BOTS, GreedyBot, HeuristicBot
from games.chicken_foot.rules import GAME, ChickenFootGame, ChickenFootState

__all__ = ["BOTS", "GAME", "ChickenFootGame", "ChickenFootState", "GreedyBot", "HeuristicBot"]
