"""Tries each call the sandbox's system-call filter refuses, each one that would succeed here (or fail with
another error than EPERM) if nothing filtered it, and answers one JSON line: call -> "ok" or the errno's
name. Its input: one JSON line {"io_uring_setup": the call's number}."""

import ctypes
import errno
import fcntl
import json
import os
import socket
import struct
import sys

libc = ctypes.CDLL(None, use_errno=True)
LOCK = struct.pack("hhqqi4x", fcntl.F_RDLCK, 0, 0, 0, 0)


def attempt(action) -> str:
    try:
        action()
    except OSError as exc:
        return errno.errorcode.get(exc.errno, str(exc.errno))
    return "ok"


def call(function, *arguments):
    result = function(*arguments)
    if result < 0:
        raise OSError(ctypes.get_errno(), "")
    os.close(result)


message = json.loads(sys.stdin.readline())
shared = os.open(os.path.realpath(sys.executable), os.O_RDONLY)
folder = os.environ.get("HOME", "/tmp")
with open(os.path.join(folder, "own"), "w") as handle:
    handle.write("x")
own = os.open(os.path.join(folder, "own"), os.O_RDONLY)
directory = os.open(folder, os.O_RDONLY)
report = {
    "flock": attempt(lambda: fcntl.flock(shared, fcntl.LOCK_SH | fcntl.LOCK_NB)),
    "F_GETLK": attempt(lambda: fcntl.fcntl(shared, fcntl.F_GETLK, LOCK)),
    "F_SETLK": attempt(lambda: fcntl.fcntl(shared, fcntl.F_SETLK, LOCK)),
    "F_SETLKW": attempt(lambda: fcntl.fcntl(shared, fcntl.F_SETLKW, LOCK)),
    "F_OFD_GETLK": attempt(lambda: fcntl.fcntl(shared, fcntl.F_OFD_GETLK, LOCK)),
    "F_OFD_SETLK": attempt(lambda: fcntl.fcntl(shared, fcntl.F_OFD_SETLK, LOCK)),
    "F_OFD_SETLKW": attempt(lambda: fcntl.fcntl(shared, fcntl.F_OFD_SETLKW, LOCK)),
    "F_SETLEASE": attempt(lambda: fcntl.fcntl(own, fcntl.F_SETLEASE, fcntl.F_RDLCK)),
    "F_GETLEASE": attempt(lambda: fcntl.fcntl(own, fcntl.F_GETLEASE)),
    "F_NOTIFY": attempt(lambda: fcntl.fcntl(directory, fcntl.F_NOTIFY, fcntl.DN_MODIFY)),
    "inotify_init": attempt(lambda: call(libc.inotify_init)),
    "inotify_init1": attempt(lambda: call(libc.inotify_init1, 0)),
    "fanotify_init": attempt(lambda: call(libc.fanotify_init, 0xFFFFFFFF, 0)),  # bad flags: EINVAL unfiltered
    "io_uring_setup": attempt(lambda: call(libc.syscall, message["io_uring_setup"], 0, None)),  # EFAULT
    "socket AF_NETLINK": attempt(lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0).close()),
    "socket AF_VSOCK": attempt(lambda: socket.socket(socket.AF_VSOCK, socket.SOCK_STREAM, 0).close()),
    "fcntl F_GETFL": attempt(lambda: fcntl.fcntl(own, fcntl.F_GETFL)),
    "socket AF_UNIX": attempt(lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).close()),
}
print(json.dumps(report), flush=True)
sys.stdin.read()
