"""Test program: answers with a line that is not JSON."""

import sys

for line in sys.stdin:
    if '"act"' in line:
        print("I fold!", flush=True)
