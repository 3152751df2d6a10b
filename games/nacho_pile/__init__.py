"""Nacho Pile: the engine (rules in `games.nacho_pile.engine`), its spec and its bots."""

from games.nacho_pile.bots import HeuristicBot
from games.nacho_pile.engine import GAME, NachoPileGame, NachoPileState

BOTS = (HeuristicBot,)

__all__ = ["BOTS", "GAME", "NachoPileGame", "NachoPileState"]
