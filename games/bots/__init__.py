"""Bots that play every game through the engine contract alone."""

from games.bots.search import SearchBot
from games.core.bot import RandomBot

GENERIC_BOTS = (RandomBot, SearchBot)
