"""Shared by the hostile test programs: play the first legal action of every decision, and at the first one
run the program's attack and report what it got, as one line `REPORT {...}` on standard error (which the
worker keeps for staff). The attack's targets come as the program's one argument, a JSON object."""

import json
import sys


def targets() -> dict:
    return json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}


def play(attack) -> None:
    attacked = False
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] != "act":
            continue
        if not attacked:
            attacked = True
            sys.stderr.write("REPORT " + json.dumps(attack(targets()), sort_keys=True) + "\n")
            sys.stderr.flush()
        print(json.dumps({"action": message["legal_actions"][0]}), flush=True)
