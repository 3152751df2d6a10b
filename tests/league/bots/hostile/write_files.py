"""Hostile: writes outside its folder (`paths`), into its own folder, and into its private /tmp."""

import os

from common import play


def attack(targets):
    got = {}
    own = os.path.join(os.path.dirname(os.path.abspath(__file__)), "written-by-a-bot.py")
    for path in [*targets["paths"], own, "/tmp/scratch.txt"]:
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as handle:
                handle.write("import os  # planted by a bot\n")
            got[path] = "written"
        except OSError as exc:
            got[path] = type(exc).__name__
    return got


play(attack)
