"""The other seat of a covert pair: it reads the word the sender holds as locks on 32 shared files, by every
way a lock shows (a conflicting flock, F_GETLK, F_OFD_GETLK). Its input: one JSON line {"files": [32 paths]};
it answers one JSON line: per way, the word it read (null when no bit could be read) and the errors seen."""

import errno
import fcntl
import json
import os
import struct
import sys

WRITE_LOCK = struct.pack("hhqqi4x", fcntl.F_WRLCK, 0, 0, 0, 0)


def flock_bit(handle):
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return 1
    fcntl.flock(handle, fcntl.LOCK_UN)
    return 0


def getlk_bit(command):
    def read(handle):
        answer = fcntl.fcntl(handle, command, WRITE_LOCK)
        return int(struct.unpack("hhqqi4x", answer)[0] != fcntl.F_UNLCK)

    return read


message = json.loads(sys.stdin.readline())
report = {}
for name, read in (
    ("flock", flock_bit),
    ("F_GETLK", getlk_bit(fcntl.F_GETLK)),
    ("F_OFD_GETLK", getlk_bit(fcntl.F_OFD_GETLK)),
):
    word, errors = 0, []
    for bit, path in enumerate(message["files"]):
        handle = os.open(path, os.O_RDONLY)
        try:
            word |= read(handle) << bit
        except OSError as exc:
            errors.append(errno.errorcode.get(exc.errno, str(exc.errno)))
        finally:
            os.close(handle)
    report[name] = {"word": None if errors else word, "errors": sorted(set(errors))}
print(json.dumps(report), flush=True)
sys.stdin.read()
