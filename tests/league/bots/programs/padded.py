"""Test program: answers the first legal action of every decision in a line of exactly SIZE bytes (newline
excluded; the answer padded with a "padding" field): `padded.py SIZE`. With `padded.py SIZE endless` it
writes SIZE bytes of an answer without its newline, then waits."""

import json
import sys
import time

size = int(sys.argv[1])
endless = sys.argv[2:] == ["endless"]
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        answer = json.dumps({"action": message["legal_actions"][0], "padding": ""})
        answer = answer[:-2] + "x" * (size - len(answer)) + answer[-2:]
        if endless:
            sys.stdout.write(answer)
            sys.stdout.flush()
            time.sleep(60)
        print(answer, flush=True)
