#!/usr/bin/env python3
"""Chicken Foot starter kit (Python, standard library only): a bot that reads its observation.

It speaks the bot protocol (docs/bot-protocol.md): one JSON message a line on standard input, one answer a
line on standard output, flushed. Play it locally against the built-in bots:

    python -m games play chicken_foot --seat "cmd:python3 examples/kits/chicken_foot/bot.py" --seat heuristic

The strategy is a start: a play is `"<bone>@<the tile it goes onto>"` (`"8-0@8-8"`), and it plays the bone
with the most pips, since the pips left in hand count against it at the end of a round; a double first, as
it makes the others cover it. Other decisions (drawing, passing) it takes as they come. Improve `choose`:
everything the seat may know is in the observation (`hand`, `open_ends`, `constraint`, `hand_sizes`,
`history`, `scores`, ...; see the game's reference on the site).
"""

import json
import random
import sys


def pips(action):
    """A play's bone as (is a double, its pips), or None for an action that plays no bone."""
    if not isinstance(action, str) or "@" not in action:
        return None
    bone = action.split("@", 1)[0]
    try:
        high, low = (int(half) for half in bone.split("-"))
    except ValueError:
        return None
    return (high == low, high + low)


def choose(observation, legal_actions, rng):
    """One of `legal_actions`, exactly as given."""
    plays = [action for action in legal_actions if pips(action) is not None]
    if not plays:
        return rng.choice(legal_actions)
    return max(plays, key=lambda action: (pips(action), rng.random()))


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            rng = random.Random(message["seed"])  # the same match plays the same way
        elif message["type"] == "act":
            action = choose(message["observation"], message["legal_actions"], rng)
            print(json.dumps({"action": action}), flush=True)  # unflushed, the answer never arrives
        elif message["type"] == "end":
            print("places:", message["outcome"]["places"], file=sys.stderr)  # the log shows standard error
            break


if __name__ == "__main__":
    main()
