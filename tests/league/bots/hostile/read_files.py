"""Hostile: reads the service's files and other processes' environments (`files`), and lists `/proc`."""

import os

from common import play


def attack(targets):
    got = {}
    for path in targets["files"]:
        try:
            with open(path, "rb") as handle:
                handle.read(64)
            got[path] = "read"
        except OSError as exc:
            got[path] = type(exc).__name__
    got["processes"] = sorted(int(entry) for entry in os.listdir("/proc") if entry.isdigit())
    return got


play(attack)
