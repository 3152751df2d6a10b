"""Hostile: allocates past the memory bound across several children (up to `children` of them), each taking
chunks of 4 MiB until it is refused and holding what it got; reports what each held, in MiB."""

import os
import resource
import time

from common import play

CHUNK = 4 << 20


def attack(targets):
    readers, refused = [], 0
    for _ in range(targets["children"]):
        reader, writer = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            refused += 1
            os.close(reader)
            os.close(writer)
            break
        if pid == 0:
            os.close(reader)
            held, failed = [], False
            try:
                while len(held) * CHUNK < targets["try_mb"] << 20:
                    held.append(bytearray(CHUNK))
            except MemoryError:
                failed = True
            os.write(writer, f"{len(held) * 4} {int(failed)}\n".encode())
            os.close(writer)
            time.sleep(3600)  # keep holding it
            os._exit(0)
        os.close(writer)
        readers.append(reader)
    held = []
    for reader in readers:
        with os.fdopen(reader) as answer:
            mib, failed = answer.read().split()
            held.append([int(mib), failed == "1"])
    return {
        "children": len(readers),
        "refused_forks": refused,
        "held_mb": held,
        "limit_mb": resource.getrlimit(resource.RLIMIT_AS)[0] >> 20,
    }


play(attack)
