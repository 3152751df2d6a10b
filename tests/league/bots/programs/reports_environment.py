"""Test program: answers its first decision with a report of its environment and network, then the action."""

import json
import os
import socket
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        try:
            socket.create_connection(("127.0.0.1", 5432), timeout=2).close()
            network = "reachable"
        except OSError:
            network = "unreachable"
        report = {"variables": sorted(os.environ), "network": network}
        sys.stderr.write(json.dumps(report) + "\n")
        sys.stderr.flush()
        print(json.dumps({"action": message["legal_actions"][0]}), flush=True)
