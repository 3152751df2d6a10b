#!/usr/bin/env python3
"""Chickie Nuggs starter kit (Python, standard library only): a bot that reads its observation.

It speaks the bot protocol (docs/bot-protocol.md): one JSON message a line on standard input, one answer a
line on standard output, flushed. Play it locally against the built-in bots:

    python -m games play chickie_nuggs --seat "cmd:python3 examples/kits/chickie_nuggs/bot.py" \\
        --seat heuristic

The strategy is a start: it places its best nugget on its tray (`"place:nugget4"` before `"place:nugget1"`),
else steals from the seat with the most cards in hand (`hand_sizes`), else plays at random among the legal
actions. Improve `choose`: everything the seat may know is in the observation (`hand`, `trays`,
`hand_sizes`, `discard`, `log`, ...; see the game's reference on the site).
"""

import json
import random
import sys


def choose(observation, legal_actions, rng):
    """One of `legal_actions`, exactly as given."""
    texts = [action for action in legal_actions if isinstance(action, str)]
    nuggets = [action for action in texts if action.startswith("place:nugget")]
    if nuggets:
        return max(nuggets, key=lambda action: int(action[len("place:nugget") :] or 0))
    steals = [action for action in texts if action.startswith("steal:") and action[6:].isdigit()]
    if steals:
        sizes = observation.get("hand_sizes", [])
        return max(steals, key=lambda action: sizes[int(action[6:])] if int(action[6:]) < len(sizes) else 0)
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
