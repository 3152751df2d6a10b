"""Test program: tries to hold two gigabytes before answering."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        hoard = bytearray(2 * 1024 * 1024 * 1024)
        print(json.dumps({"action": message["legal_actions"][len(hoard) % 1]}), flush=True)
