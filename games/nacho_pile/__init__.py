"""Nacho Pile: the rules and their state (`rules`), its spec (`spec`), its own bots (`bots`) and its replay
view (`view`)."""

from games.nacho_pile.bots import HeuristicBot
from games.nacho_pile.rules import GAME, NachoPileGame, NachoPileState

BOTS = (HeuristicBot,)

__all__ = ["BOTS", "GAME", "HeuristicBot", "NachoPileGame", "NachoPileState"]
