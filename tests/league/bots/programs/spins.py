"""Test program: burns CPU forever instead of answering."""

import sys

for _line in sys.stdin:
    while True:
        pass
