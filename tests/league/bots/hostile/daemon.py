"""Hostile: leaves a daemon behind (setsid and a double fork) that would outlive the match."""

import os
import time

from common import play


def attack(targets):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.closerange(0, 3)
            time.sleep(3600)  # the daemon: still here after the match?
        os._exit(0)
    os.wait()
    return {"daemon": "started"}


play(attack)
