"""Test program: answers with JSON nested 30,000 levels deep (enough to crash a recursive parser; under the
answers' cap of 64 KiB)."""

import sys

for line in sys.stdin:
    if '"act"' in line:
        print('{"action": ' + "[" * 30_000 + "]" * 30_000 + "}", flush=True)
