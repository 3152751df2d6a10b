#!/usr/bin/env python3
"""Nacho Pile starter kit (Python, standard library only): a bot that reads its observation.

It speaks the bot protocol (docs/bot-protocol.md): one JSON message a line on standard input, one answer a
line on standard output, flushed. Play it locally against the built-in bots:

    python -m games play nacho_pile --seat "cmd:python3 examples/kits/nacho_pile/bot.py" --seat heuristic

The strategy is a start: on its turn it draws until it holds `STOP_AFTER` chips drawn this turn, then stops;
any other decision (where a special goes, which value a Wild takes) it makes at random among the legal
actions. Improve `choose`: everything the seat may know is in the observation (`phase`, `drawn`, `bag`,
every seat's `fronts` and `plates`, ...; see the game's reference on the site).
"""

import json
import random
import sys

STOP_AFTER = 3  # chips drawn this turn before it stops


def choose(observation, legal_actions, rng):
    """One of `legal_actions`, exactly as given."""
    if "draw" in legal_actions and "stop" in legal_actions:
        drawn = observation.get("drawn", [])
        return "stop" if len(drawn) >= STOP_AFTER else "draw"
    return rng.choice(legal_actions)


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
