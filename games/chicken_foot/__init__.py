"""Chicken Foot dominoes: the engine (rules in `games.chicken_foot.engine`), its spec and its bots."""

from games.chicken_foot.bots import BOTS, GreedyBot, HeuristicBot
from games.chicken_foot.engine import GAME, ChickenFootGame, ChickenFootState

__all__ = ["BOTS", "GAME", "ChickenFootGame", "ChickenFootState", "GreedyBot", "HeuristicBot"]
