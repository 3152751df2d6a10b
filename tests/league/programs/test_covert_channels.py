"""Two sandboxes of one match cannot signal each other, in the real sandbox: a covert pair (one seat holds
locks on files of the shared /usr, the other tests them) gets nothing across, each call of the system-call
filter is refused with EPERM, and the machine's memory budget keeps two seats whose caps exceed it from
running at once. The same programs outside the sandbox do get the word across and the calls through:
the attacks are real."""

import dataclasses
import json
import os
import stat
import subprocess
import threading
import time
from pathlib import Path

import pytest

from league.programs import seccomp
from league.programs.external import Limits, ProgramProcess
from league.programs.sandbox import Sandbox, SandboxUnavailable
from league.programs.sandboxing import sandbox, sandbox_config

HOSTILE = Path(__file__).parents[1] / "bots" / "hostile"
PYTHON = "/usr/bin/python3"
LIMITS = Limits(move_seconds=20, cpu_seconds=10, memory_mb=96, startup_seconds=10)
WORD = 0xC0FFEE42
REFUSED = {
    "flock",
    "F_GETLK",
    "F_SETLK",
    "F_SETLKW",
    "F_OFD_GETLK",
    "F_OFD_SETLK",
    "F_OFD_SETLKW",
    "F_SETLEASE",
    "F_GETLEASE",
    "F_NOTIFY",
    "inotify_init",
    "inotify_init1",
    "fanotify_init",
    "io_uring_setup",
    "socket AF_NETLINK",
    "socket AF_VSOCK",
}

pytestmark = pytest.mark.sandbox


def shared_files() -> list[str]:
    """32 files of /usr that every slot user may read: the same inodes in every sandbox."""
    found = []
    for entry in sorted(os.scandir("/usr/bin"), key=lambda entry: entry.name):
        info = entry.stat(follow_symlinks=False)
        if stat.S_ISREG(info.st_mode) and info.st_mode & 0o004:
            found.append(entry.path)
    assert len(found) >= 32
    return found[:32]


def program(name: str, box: Sandbox = None, limits: Limits = LIMITS) -> ProgramProcess:
    return ProgramProcess([PYTHON, str(HOSTILE / f"{name}.py")], limits, box or sandbox())


def answer(process: ProgramProcess, message: dict) -> dict:
    process.send(message)
    return json.loads(process.read_line(30))


def test_a_covert_pair_gets_nothing_across_the_receiving_seat_reads_nothing():
    files = shared_files()
    sender = program("covert_sender")
    try:
        sent = answer(sender, {"word": WORD, "files": files})
        bits = bin(WORD).count("1")
        assert sent == {name: ["EPERM"] * bits for name in ("flock", "F_SETLK", "F_OFD_SETLK")}
        receiver = program("covert_receiver")
        try:
            read = answer(receiver, {"files": files})
        finally:
            receiver.close()
    finally:
        sender.close()
    assert read == {
        "flock": {"word": None, "errors": ["EPERM"]},
        "F_GETLK": {"word": None, "errors": ["EPERM"]},
        "F_OFD_GETLK": {"word": None, "errors": ["EPERM"]},
    }


def unsandboxed(name: str) -> subprocess.Popen:
    return subprocess.Popen(
        [PYTHON, str(HOSTILE / f"{name}.py")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={"PATH": "/usr/bin:/bin", "HOME": os.environ.get("TMPDIR", "/tmp")},
    )


def ask(process: subprocess.Popen, message: dict) -> dict:
    process.stdin.write(json.dumps(message).encode() + b"\n")
    process.stdin.flush()
    return json.loads(process.stdout.readline())


def test_outside_the_sandbox_the_same_pair_gets_the_word_across():
    files = shared_files()
    sender = unsandboxed("covert_sender")
    receiver = unsandboxed("covert_receiver")
    try:
        bits = bin(WORD).count("1")
        assert ask(sender, {"word": WORD, "files": files}) == {
            "flock": ["held"] * bits,
            "F_SETLK": ["held"] * bits,
            "F_OFD_SETLK": ["held"] * bits,
        }
        read = ask(receiver, {"files": files})
        assert read == {name: {"word": WORD, "errors": []} for name in ("flock", "F_GETLK", "F_OFD_GETLK")}
    finally:
        for process in (sender, receiver):
            process.kill()
            process.wait()


def test_each_call_of_the_filter_is_refused_with_eperm_and_the_ordinary_ones_work():
    calls = program("kernel_calls")
    try:
        report = answer(calls, {"io_uring_setup": seccomp.architecture().calls["io_uring_setup"]})
    finally:
        calls.close()
    assert report == {**dict.fromkeys(REFUSED, "EPERM"), "fcntl F_GETFL": "ok", "socket AF_UNIX": "ok"}


def test_outside_the_sandbox_none_of_those_calls_fails_with_eperm(tmp_path):
    calls = subprocess.Popen(
        [PYTHON, str(HOSTILE / "kernel_calls.py")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    try:
        report = ask(calls, {"io_uring_setup": seccomp.architecture().calls["io_uring_setup"]})
    finally:
        calls.kill()
        calls.wait()
    assert set(report) == REFUSED | {"fcntl F_GETFL", "socket AF_UNIX"}
    assert [name for name, seen in report.items() if seen == "EPERM"] == []


def budgeted(megabytes: int, wait: float) -> Sandbox:
    return Sandbox(dataclasses.replace(sandbox_config(), memory_budget_mb=megabytes, slot_wait_seconds=wait))


def test_two_seats_whose_caps_exceed_the_budget_do_not_run_at_once():
    cap = sandbox_config().seat_memory_mb(LIMITS.memory_mb)
    box = budgeted(cap + cap // 2, wait=0.0)
    first = program("kernel_calls", box)
    try:
        with pytest.raises(SandboxUnavailable) as full:
            program("kernel_calls", box)
        assert str(full.value) == (
            f"no room for a seat of {cap} MB in this machine's memory budget for sandboxes "
            f"({cap + cap // 2} MB, SANDBOX_MEMORY_BUDGET_MB): the seats running hold the rest"
        )
    finally:
        first.close()
    second = program("kernel_calls", box)
    second.close()


def test_a_seat_waits_for_room_and_starts_when_the_running_one_ends():
    cap = sandbox_config().seat_memory_mb(LIMITS.memory_mb)
    box = budgeted(cap + cap // 2, wait=120.0)
    events = []
    first = program("kernel_calls", box)

    def start_second():
        second = program("kernel_calls", box)
        events.append("second started")
        second.close()

    waiting = threading.Thread(target=start_second)
    waiting.start()
    time.sleep(1.0)  # room for the second seat to start, were the budget not holding it back
    events.append("first ends")
    first.close()
    waiting.join(120)
    assert events == ["first ends", "second started"]
