"""Hostile: starts 200 children that stay alive."""

import os
import time

from common import play


def attack(targets):
    started, refused = 0, 0
    for _ in range(200):
        try:
            pid = os.fork()
        except OSError:
            refused += 1
            continue
        if pid == 0:
            os.closerange(0, 3)
            time.sleep(3600)
            os._exit(0)
        started += 1
    return {"started": started, "refused": refused}


play(attack)
