"""Test-only bots for Nacho Pile, added to the registry on import (also by the test workers, via `-I`).

`raises` always raises, `illegal` answers an action that is never legal, `sleepy` plays at random after a
pause (so that a test can kill a worker in the middle of a batch).
"""

import time

from games import registry
from games.core.bot import Bot, RandomBot
from games.core.spec import Option
from games.nacho_pile import BOTS, GAME


class RaisingBot(Bot):
    name = "raises"
    summary = "raises at its first decision"

    def act(self, observation, legal_actions):
        raise RuntimeError("the bot fell over")


class IllegalBot(Bot):
    name = "illegal"
    summary = "answers an action that is never legal"

    def act(self, observation, legal_actions):
        return "fly away"


class SleepyBot(RandomBot):
    name = "sleepy"
    summary = "plays at random after a pause"
    params = (Option("seconds", "float", 0.01, min=0, max=5),)

    def act(self, observation, legal_actions):
        time.sleep(self.config["seconds"])
        return super().act(observation, legal_actions)


if "sleepy" not in registry.bots_for(GAME.spec.id):
    registry.register(GAME, (*BOTS, RaisingBot, IllegalBot, SleepyBot))
