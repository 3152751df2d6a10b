#!/usr/bin/env python3
"""Nobody but Us Chickens starter kit (Python, standard library only): a bot that reads its observation.

It speaks the bot protocol (docs/bot-protocol.md): one JSON message a line on standard input, one answer a
line on standard output, flushed. Play it locally against the built-in bots:

    python -m games play nobody_but_us_chickens \\
        --seat "cmd:python3 examples/kits/nobody_but_us_chickens/bot.py" --seat heuristic --seat random

The strategy is a start: it plays the card it holds most copies of (`hand` in the observation), keeping its
rarer cards for later, with ties broken by `PREFERENCE`. Improve `choose`: everything the seat may know is in
the observation (`coop`, `claimed`, every seat's `hands`, the night's `log`, `totals`, ...; see the game's
reference on the site).
"""

import json
import random
import sys

PREFERENCE = ["healthy", "sickly", "plump", "rat", "dog", "fox", "prize"]  # first: played first on a tie


def choose(observation, legal_actions, rng):
    """One of `legal_actions`, exactly as given."""
    hand = observation.get("hand", [])

    def score(action):
        copies = hand.count(action) if isinstance(action, str) else 0
        rank = PREFERENCE.index(action) if action in PREFERENCE else len(PREFERENCE)
        return (copies, -rank, rng.random())

    return max(legal_actions, key=score)


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
