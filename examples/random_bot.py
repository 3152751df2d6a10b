#!/usr/bin/env python3
"""A complete external bot for Pecking Order: plays uniformly at random among the legal actions.

It speaks the bot protocol (docs/bot-protocol.md): one JSON message a line on stdin, one answer a line on
stdout. Its generator is seeded from the `seed` of the start message, so the same match plays the same way.
Try it by hand:

    printf '%s\n' '{"type":"start","seed":"bot:1:0","seat":0}' \
        '{"type":"act","observation":{},"legal_actions":["draw","stop"]}' | python3 examples/random_bot.py
"""

import json
import random
import sys


def main() -> None:
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            rng = random.Random(message["seed"])
        elif message["type"] == "act":
            action = rng.choice(message["legal_actions"])
            # flush: the worker waits for the line, and a buffered answer would count as a time-out
            print(json.dumps({"action": action}), flush=True)
        elif message["type"] == "end":
            break


if __name__ == "__main__":
    main()
