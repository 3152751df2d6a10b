"""The sandbox's system-call filter: a seccomp BPF program, assembled here, that bubblewrap installs
(`--seccomp FD`) just before it starts the bot's program, for that process and everything it starts.

Pure Python: no Django, no libseccomp. The sandboxes of one match share the system's files read-only (the
same inodes under `/usr`), and several kernel objects hang off an inode whatever the mount: a lock on it, a
watch on it, a lease. One seat holding a lock on `/usr/lib/os-release` and another testing it is a covert
channel between the two programs of a table, bits at the speed of a system call. The filter refuses
(`EPERM`) what builds such a channel, and leaves the rest of the system alone:

- `flock`, and `fcntl` with a lock, lease or notification command (`F_GETLK`, `F_SETLK`, `F_SETLKW`, their
  `F_OFD_` and 64-bit forms, `F_SETLEASE`, `F_GETLEASE`, `F_NOTIFY`): locks and leases on a shared inode;
- `inotify_init`, `inotify_init1`, `fanotify_init`: watches, which see another sandbox open or read a file;
- `io_uring_setup`: its own path to the kernel, around this filter;
- `socket` (and `socketpair`) of `AF_NETLINK` (the kernel's messages about the machine) and `AF_VSOCK`.

The architecture is checked first: a system call made through another calling convention (32-bit `int 0x80` on
x86-64, which numbers calls differently, or x32) kills the process, so no call slips past the table by number.
"""

from __future__ import annotations

import errno
import platform
import struct
from collections.abc import Iterable
from dataclasses import dataclass

# struct sock_filter: u16 code, u8 jt, u8 jf, u32 k (native byte order, as the kernel reads it).
INSTRUCTION = struct.Struct("=HBBI")
LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS: A = 32-bit word of seccomp_data at k
JEQ = 0x15  # BPF_JMP | BPF_JEQ | BPF_K: A == k ? jt : jf
JGE = 0x35  # BPF_JMP | BPF_JGE | BPF_K: A >= k ? jt : jf
RET = 0x06  # BPF_RET | BPF_K
RET_KILL_PROCESS = 0x80000000
RET_ERRNO = 0x00050000
RET_ALLOW = 0x7FFF0000
# struct seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6] (the low half first: both
# architectures here are little-endian, and the arguments checked are ints).
OFFSET_NR = 0
OFFSET_ARCH = 4
OFFSET_ARGS = 16
X32_SYSCALL_BIT = 0x40000000
MAX_JUMP = 255

AF_NETLINK = 16
AF_VSOCK = 40
# fcntl commands: locks (and their 64-bit and open-file-description forms), leases, directory notification.
F_GETLK, F_SETLK, F_SETLKW = 5, 6, 7
F_GETLK64, F_SETLK64, F_SETLKW64 = 12, 13, 14
F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW = 36, 37, 38
F_SETLEASE, F_GETLEASE, F_NOTIFY = 1024, 1025, 1026
REFUSED_FCNTL = (
    F_GETLK,
    F_SETLK,
    F_SETLKW,
    F_GETLK64,
    F_SETLK64,
    F_SETLKW64,
    F_OFD_GETLK,
    F_OFD_SETLK,
    F_OFD_SETLKW,
    F_SETLEASE,
    F_GETLEASE,
    F_NOTIFY,
)
REFUSED_FAMILIES = (AF_NETLINK, AF_VSOCK)
# The calls refused outright, by name; fcntl and socket are refused for the arguments above only.
REFUSED_CALLS = ("flock", "inotify_init", "inotify_init1", "fanotify_init", "io_uring_setup")


@dataclass(frozen=True)
class Architecture:
    """One calling convention: its audit number (seccomp_data.arch) and its system call numbers."""

    name: str
    audit: int
    calls: dict[str, int]
    x32_bit: bool = False


ARCHITECTURES = {
    "x86_64": Architecture(
        name="x86_64",
        audit=0xC000003E,  # AUDIT_ARCH_X86_64
        calls={
            "fcntl": 72,
            "flock": 73,
            "socket": 41,
            "socketpair": 53,
            "inotify_init": 253,
            "inotify_init1": 294,
            "fanotify_init": 300,
            "io_uring_setup": 425,
        },
        x32_bit=True,
    ),
    "aarch64": Architecture(
        name="aarch64",
        audit=0xC00000B7,  # AUDIT_ARCH_AARCH64
        calls={
            "fcntl": 25,
            "flock": 32,
            "socket": 198,
            "socketpair": 199,
            "inotify_init1": 26,
            "fanotify_init": 262,
            "io_uring_setup": 425,
        },
    ),
}


class SeccompUnavailable(Exception):
    """No filter is known for this machine's architecture."""


def architecture(machine: str | None = None) -> Architecture:
    """The calling convention of `machine` (by default this one), or SeccompUnavailable."""
    machine = machine or platform.machine()
    found = ARCHITECTURES.get({"amd64": "x86_64", "arm64": "aarch64"}.get(machine, machine))
    if found is None:
        raise SeccompUnavailable(f"no system-call filter is known for the {machine} architecture")
    return found


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> tuple[int, int, int, int]:
    return (code, jt, jf, k)


def _refuse_argument(call: int, offset: int, values: Iterable[int]) -> list[tuple[int, int, int, int]]:
    """A block entered with A = the call's number: when it is `call`, refuse it for any of `values` of the
    32-bit argument at `offset`, else allow it; when it is another call, fall through past the block."""
    body = [_op(LD_W_ABS, offset)]
    for value in values:
        body += [_op(JEQ, value, 0, 1), _op(RET, RET_ERRNO | errno.EPERM)]
    body.append(_op(RET, RET_ALLOW))
    if len(body) > MAX_JUMP:
        raise ValueError("a block of the filter is longer than a jump can skip")
    return [_op(JEQ, call, 0, len(body)), *body]


def instructions(arch: Architecture) -> list[tuple[int, int, int, int]]:
    """The filter as (code, jt, jf, k) instructions."""
    denied = _op(RET, RET_ERRNO | errno.EPERM)
    program = [
        _op(LD_W_ABS, OFFSET_ARCH),
        _op(JEQ, arch.audit, 1, 0),
        _op(RET, RET_KILL_PROCESS),
        _op(LD_W_ABS, OFFSET_NR),
    ]
    if arch.x32_bit:
        program += [_op(JGE, X32_SYSCALL_BIT, 0, 1), _op(RET, RET_KILL_PROCESS)]
    for name in REFUSED_CALLS:
        if name in arch.calls:
            program += [_op(JEQ, arch.calls[name], 0, 1), denied]
    program += _refuse_argument(arch.calls["fcntl"], OFFSET_ARGS + 8, REFUSED_FCNTL)
    for name in ("socket", "socketpair"):
        program += _refuse_argument(arch.calls[name], OFFSET_ARGS, REFUSED_FAMILIES)
    program.append(_op(RET, RET_ALLOW))
    return program


def program(machine: str | None = None) -> bytes:
    """The filter for `machine` (by default this one), as the bytes bubblewrap's `--seccomp FD` reads."""
    return b"".join(INSTRUCTION.pack(*instruction) for instruction in instructions(architecture(machine)))
