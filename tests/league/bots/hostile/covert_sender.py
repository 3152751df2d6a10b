"""One seat of a covert pair: it sends a 32-bit word to another sandbox of its match by holding locks on files
both see (the shared read-only /usr): a lock on file i is bit i. Its input: one JSON line {"word": N, "files":
[32 paths]}; it answers one JSON line with what each way of locking gave (errno names, "held" when it got the
lock), then keeps its locks until its input closes."""

import errno
import fcntl
import json
import os
import struct
import sys

LOCK = struct.pack("hhqqi4x", fcntl.F_RDLCK, 0, 0, 0, 0)


def attempt(action, *arguments) -> str:
    try:
        action(*arguments)
    except OSError as exc:
        return errno.errorcode.get(exc.errno, str(exc.errno))
    return "held"


message = json.loads(sys.stdin.readline())
seen = {"flock": [], "F_SETLK": [], "F_OFD_SETLK": []}
handles = []
for bit, path in enumerate(message["files"]):
    if not message["word"] >> bit & 1:
        continue
    handle = os.open(path, os.O_RDONLY)
    handles.append(handle)
    seen["flock"].append(attempt(fcntl.flock, handle, fcntl.LOCK_SH | fcntl.LOCK_NB))
    seen["F_SETLK"].append(attempt(fcntl.fcntl, handle, fcntl.F_SETLK, LOCK))
    # another open file description of the same file: its own OFD lock
    other = os.open(path, os.O_RDONLY)
    handles.append(other)
    seen["F_OFD_SETLK"].append(attempt(fcntl.fcntl, other, fcntl.F_OFD_SETLK, LOCK))
print(json.dumps(seen), flush=True)
sys.stdin.read()
