"""Test program: never reads its input (and never answers)."""

import time

time.sleep(3600)
