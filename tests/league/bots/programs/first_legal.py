"""Test program: answers the first legal action of every decision."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        print(json.dumps({"action": message["legal_actions"][0]}), flush=True)
