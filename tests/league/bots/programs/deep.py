"""Test program: answers with JSON nested 100,000 levels deep (enough to crash a recursive parser)."""

import sys

for line in sys.stdin:
    if '"act"' in line:
        print('{"action": ' + "[" * 100_000 + "]" * 100_000 + "}", flush=True)
