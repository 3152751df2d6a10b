#!/usr/bin/env python3
"""An uploadable bot in several files: `main.py` speaks the bot protocol (docs/bot-protocol.md), `strategy.py`
chooses. Package and upload it (docs/bot-leagues.md, "Uploading a bot"):

    tar -czf packaged_bot.tar.gz -C examples/packaged_bot bot.toml main.py strategy.py

What it prints on standard error is in its log, which only you (and staff) read: the last 8 KB per match.
"""

import json
import random
import sys

from strategy import choose  # the sandbox runs it from /bot, its own folder: sibling modules import as usual


def log(*words) -> None:
    print(*words, file=sys.stderr, flush=True)


def main() -> None:
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            rng = random.Random(message["seed"])  # the same seed, the same match
            log("seat", message["seat"], "of", message["num_players"], "in", message["game"])
        elif message["type"] == "act":
            action = choose(message["legal_actions"], rng)
            log("chose", json.dumps(action), "of", len(message["legal_actions"]))
            print(json.dumps({"action": action}), flush=True)  # flush, or the answer counts as a time-out
        elif message["type"] == "end":
            log("outcome", json.dumps(message["outcome"]))
            break


if __name__ == "__main__":
    main()
