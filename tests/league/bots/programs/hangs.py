"""Test program: reads its messages and never answers."""

import sys
import time

for _line in sys.stdin:
    time.sleep(3600)
