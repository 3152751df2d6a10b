"""The sandbox's proof: a program run in the sandbox exactly as a bot is, that tries each escape.

Pure Python: no Django. `probe_sandbox(sandbox, targets)` writes the probe program into a folder of its own
(shown to it read-only, as a bot's files are), starts it through `ExternalSeats`' own `ProgramProcess`, reads
its report, and checks from outside what the program cannot see (that it was killed on time, that nothing of
it survived). It returns which protections held (`PROTECTIONS`: name → proven) with a word on each that did
not. A protection is proven only by an attempt that failed: any error of the probe itself proves nothing.

The probe runs the worker's own Python interpreter only if that is a system one; otherwise `/usr/bin/python3`.
A proven sandbox is then asked which runtimes it runs (`probe_runtimes`: python, node, c, with their
versions); a worker takes no seat of a program whose runtime its probe did not find.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from league.programs import seccomp
from league.programs.building import BuildLimits, runtime_version
from league.programs.external import ExternalBotError, Limits, ProgramProcess
from league.programs.runtimes import RUNTIMES
from league.programs.sandbox import Sandbox, SandboxUnavailable, delegated_memory_cgroup, processes_of

# name → what the bot page says it means
PROTECTIONS = {
    "own_user": "Runs as a user of its own, unprivileged, with no capabilities",
    "process_limit": "Cannot start more than a few processes (200 forks fail)",
    "memory_limit": "Memory bounded: per process, and by the process cap for the whole bot",
    "cpu_limit": "CPU-time limit (the system kills a process over it)",
    "time_limit": "Per-move time limit (the sandbox is killed when it runs out)",
    "clean_environment": "No secrets in its environment; the worker's processes are out of sight",
    "no_service_files": "Cannot read the service's files (settings, passwords)",
    "read_only_files": "Cannot write outside a small private /tmp",
    "no_network": "No network at all (its own network namespace)",
    "no_host_sockets": "Cannot reach the machine's unix sockets (PostgreSQL, Redis)",
    "no_leftovers": "Nothing it starts outlives its match",
    "no_file_locks": "Cannot lock, test a lock on or lease a file (flock, fcntl locks and leases): "
    "no signals to another bot through the files they share",
    "no_file_watches": "Cannot watch files (inotify, fanotify, directory notification)",
    "no_io_uring": "Cannot open an io_uring (a path to the kernel around the system-call filter)",
    "no_kernel_sockets": "Cannot open netlink or vsock sockets",
    "memory_budget": "The machine's sandboxes together stay within its memory budget (a seat waits for room)",
}
PROBE_LIMITS = Limits(move_seconds=30, cpu_seconds=1, memory_mb=96, startup_seconds=10)
RUNTIME_PROBE_LIMITS = BuildLimits(cpu_seconds=5, memory_mb=256, wall_seconds=20, output_bytes=64 << 10)
TIME_LIMIT_SECONDS = 0.3
LEFTOVER_SECONDS = 2.0
SYSTEM_PYTHON = "/usr/bin/python3"

# The program: reads its targets from its first input line, tries each escape, prints one JSON line
# (protection -> [held, what it saw]), then waits to be killed. Every attempt that succeeds is a protection
# that failed.
PROGRAM = r"""
import ctypes, errno, fcntl, json, os, resource, signal, socket, struct, sys, time
targets = json.loads(sys.stdin.readline())["targets"]
report = {}
ALLOWED = {"PATH", "LANG", "HOME", "PWD"}
def note(name, held, seen):
    report[name] = [bool(held), str(seen)[:200]]

sys.stderr.write("probe: starting\n")
capabilities = {}
with open("/proc/self/status") as status:
    for line in status:
        if line.startswith("Cap"):
            key, value = line.split(":")
            capabilities[key] = int(value, 16)
uid = os.getuid()
privileged = [key for key, value in capabilities.items() if value]
try:
    os.close(os.open("/dev/tty", os.O_RDWR))
    terminal = True
except OSError:
    terminal = False
note("own_user", uid == targets["uid"] and uid != 0 and os.geteuid() != 0 and not privileged and not terminal,
     f"uid {uid}, capabilities in {privileged or 'none'}, {'a' if terminal else 'no'} terminal")

children, failed = [], 0
for _ in range(200):
    try:
        pid = os.fork()
    except OSError:
        failed += 1
        continue
    if pid == 0:
        time.sleep(60)
        os._exit(0)
    children.append(pid)
for pid in children:
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
note("process_limit", failed > 0 and len(children) < targets["max_processes"],
     f"{len(children)} of 200 forks succeeded")
forks = len(children)

limit = resource.getrlimit(resource.RLIMIT_AS)[0]
try:
    hog = bytearray(limit + (16 << 20))
    held = False
    del hog
except MemoryError:
    held = True
note("memory_limit", held and report["process_limit"][0] and limit == targets["memory"],
     f"{limit >> 20} MiB per process; one allocation past it {'failed' if held else 'succeeded'}; "
     f"{forks + 1} processes at most, so {(forks + 1) * (limit >> 20)} MiB in all")

pid = os.fork()
if pid == 0:
    while True:
        pass
started = time.monotonic()
while time.monotonic() - started < 10:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        break
    time.sleep(0.05)
else:
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    status = 0
note("cpu_limit", os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL),
     f"a spinning process was "
     f"{'killed by ' + signal.Signals(os.WTERMSIG(status)).name if os.WIFSIGNALED(status) else 'not killed'}")

seen = []
for entry in os.listdir("/proc"):
    if entry.isdigit():
        try:
            owner = os.stat(f"/proc/{entry}").st_uid
            with open(f"/proc/{entry}/environ", "rb") as environ:
                names = {item.split(b"=", 1)[0].decode() for item in environ.read().split(b"\0") if item}
        except OSError:
            continue
        if owner != uid or names - ALLOWED:
            seen.append(entry)
visible = sorted(set(os.environ) - ALLOWED)
note("clean_environment", not visible and not seen,
     f"extra variables {visible or 'none'}; "
     f"processes of others or with more in their environment: {seen or 'none'}")

opened = []
for path in targets["files"]:
    try:
        if os.path.isdir(path):
            os.listdir(path)
        else:
            with open(path, "rb") as handle:
                handle.read(1)
        opened.append(path)
    except OSError:
        pass
note("no_service_files", not opened, f"read {len(opened)} of {len(targets['files'])} of the service's paths")

written = []
for path in ["/probe", "/usr/probe", "/etc/probe", "/dev/shm/probe", "/proc/probe",
             targets["folder"] + "/probe", *[folder + "/probe" for folder in targets["outside"]]]:
    try:
        with open(path, "wb") as handle:
            handle.write(b"x")
        written.append(path)
    except OSError:
        pass
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
stored, full = 0, False
try:
    for number in range(targets["tmpfs_mb"] + 4):
        with open(f"/tmp/fill-{number}", "wb") as handle:
            handle.write(b"x" * (1 << 20))
        stored += 1
except OSError as exc:
    full = exc.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT)
note("read_only_files", not written and full and stored <= targets["tmpfs_mb"],
     f"wrote {len(written)} files outside /tmp; /tmp took {stored} MiB")
for number in range(stored + 1):
    try:
        os.unlink(f"/tmp/fill-{number}")
    except OSError:
        pass

reached = []
with open("/proc/net/dev") as devices:  # not if_nameindex(): that asks over netlink, which the filter refuses
    interfaces = sorted(line.split(":")[0].strip() for line in devices if ":" in line)
for host, port in targets["tcp"]:
    for family in (socket.AF_INET, socket.AF_INET6):
        try:
            with socket.socket(family, socket.SOCK_STREAM) as connection:
                connection.settimeout(1)
                connection.connect((host, port))
            reached.append(f"{host}:{port}")
        except OSError:
            pass
try:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        udp.sendto(b"x", ("8.8.8.8", 53))
    reached.append("udp 8.8.8.8:53")
except OSError:
    pass
note("no_network", not reached and interfaces in ([], ["lo"]),
     f"reached {reached or 'nothing'}; interfaces {interfaces}")

reached = []
for path in targets["unix"]:
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(1)
            connection.connect("\0" + path[1:] if path.startswith("@") else path)
        reached.append(path)
    except OSError:
        pass
note("no_host_sockets", not reached, f"reached {len(reached)} of {len(targets['unix'])} unix sockets")

with open("/proc/self/status") as status:
    filtered = [line.split()[1] for line in status if line.startswith("Seccomp:")] == ["2"]
libc = ctypes.CDLL(None, use_errno=True)
# 'EPERM' when the filter refused the call, else what happened: each call is one that would succeed here (or
# fail otherwise than EPERM) if nothing filtered it.
def refused(attempt):
    try:
        attempt()
    except OSError as exc:
        return errno.errorcode.get(exc.errno, str(exc.errno))
    return "succeeded"
def listed(seen):
    return ", ".join(f"{name} {what}" for name, what in seen.items())
def call(function, *arguments):
    result = function(*arguments)
    if result < 0:
        raise OSError(ctypes.get_errno(), "")
    os.close(result)
    return result
shared = os.open(os.path.realpath(sys.executable), os.O_RDONLY)
with open("/tmp/own", "w") as handle:
    handle.write("x")
own = os.open("/tmp/own", os.O_RDONLY)
lock = struct.pack("hhqqi4x", fcntl.F_RDLCK, 0, 0, 0, 0)
attempts = {
    "flock": lambda: fcntl.flock(shared, fcntl.LOCK_SH | fcntl.LOCK_NB),
    "F_SETLK": lambda: fcntl.fcntl(shared, fcntl.F_SETLK, lock),
    "F_SETLKW": lambda: fcntl.fcntl(shared, fcntl.F_SETLKW, lock),
    "F_GETLK": lambda: fcntl.fcntl(shared, fcntl.F_GETLK, lock),
    "F_OFD_SETLK": lambda: fcntl.fcntl(shared, fcntl.F_OFD_SETLK, lock),
    "F_OFD_SETLKW": lambda: fcntl.fcntl(shared, fcntl.F_OFD_SETLKW, lock),
    "F_OFD_GETLK": lambda: fcntl.fcntl(shared, fcntl.F_OFD_GETLK, lock),
    "F_SETLEASE": lambda: fcntl.fcntl(own, fcntl.F_SETLEASE, fcntl.F_RDLCK),
    "F_GETLEASE": lambda: fcntl.fcntl(own, fcntl.F_GETLEASE),
}
seen = {name: refused(attempt) for name, attempt in attempts.items()}
note("no_file_locks", filtered and set(seen.values()) == {"EPERM"}, listed(seen))
tmp = os.open("/tmp", os.O_RDONLY)
seen = {
    "inotify_init": refused(lambda: call(libc.inotify_init)),
    "inotify_init1": refused(lambda: call(libc.inotify_init1, 0)),
    "fanotify_init": refused(lambda: call(libc.fanotify_init, 0xFFFFFFFF, 0)),  # bad flags: EINVAL unfiltered
    "F_NOTIFY": refused(lambda: fcntl.fcntl(tmp, fcntl.F_NOTIFY, fcntl.DN_MODIFY)),
}
note("no_file_watches", filtered and set(seen.values()) == {"EPERM"}, listed(seen))
seen = {"io_uring_setup": refused(lambda: call(libc.syscall, targets["io_uring_setup"], 0, None))}
note("no_io_uring", filtered and set(seen.values()) == {"EPERM"}, listed(seen))
seen = {
    "AF_NETLINK": refused(lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0).close()),
    "AF_VSOCK": refused(lambda: socket.socket(socket.AF_VSOCK, socket.SOCK_STREAM, 0).close()),
}
note("no_kernel_sockets", filtered and set(seen.values()) == {"EPERM"}, listed(seen))

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(3600)
    os._exit(0)
os.wait()
sys.stderr.write("probe: done\n")
sys.stdout.write(json.dumps(report) + "\n")
sys.stdout.flush()
time.sleep(3600)
"""


@dataclass(frozen=True)
class ProbeTargets:
    """What the probe tries to reach: the service's files (`files`: read), sockets of the machine (`tcp`:
    (host, port); `unix`: paths, `@name` for abstract ones), folders it tries to write into (`outside`)."""

    files: Sequence[str] = ()
    tcp: Sequence[tuple[str, int]] = ()
    unix: Sequence[str] = ()
    outside: Sequence[str] = ()


@dataclass
class ProbeResult:
    """Which protections held (`proven`, by name of `PROTECTIONS`), a word on each (`detail`), and when."""

    proven: dict[str, bool]
    detail: dict[str, str] = field(default_factory=dict)
    checked_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    # Runtime → its version, for each runtime the sandbox ran (`probe_runtimes`); None: not probed (every
    # runtime taken to be there).
    runtimes: dict[str, str] | None = None

    @property
    def isolated(self) -> bool:
        return all(self.proven.get(name, False) for name in PROTECTIONS)


def failed_probe(why: str) -> ProbeResult:
    return ProbeResult(
        proven=dict.fromkeys(PROTECTIONS, False), detail=dict.fromkeys(PROTECTIONS, why), runtimes={}
    )


def probe_runtimes(sandbox: Sandbox) -> dict[str, str]:
    """The runtimes the sandbox runs (`league.programs.runtimes`), each with its version: its version command
    run there as a bot is (Node under its raised address-space cap), those that answer. A C program's
    executable needs only the C library; the compiler is the check's, so `c` is there where `cc` is."""
    found = {}
    for runtime in RUNTIMES:
        try:
            version = runtime_version(sandbox, runtime, RUNTIME_PROBE_LIMITS)
        except SandboxUnavailable:
            version = ""
        if version:
            found[runtime] = version
    return found


def host_unix_sockets(limit: int = 200) -> list[str]:
    """The unix sockets listening on this machine (its network namespace), from /proc/net/unix."""
    found = []
    with contextlib.suppress(OSError), open("/proc/net/unix", encoding="utf-8", errors="replace") as table:
        next(table, None)
        for line in table:
            fields = line.split()
            if len(fields) >= 8 and fields[3] == "00010000":  # listening
                found.append(fields[7])
    return sorted(set(found))[:limit]


def probe_python() -> str:
    """A Python interpreter the sandbox shows: the worker's own if it is a system one, else the system's."""
    own = os.path.realpath(sys.executable)
    return own if own.startswith("/usr/") else SYSTEM_PYTHON


def probe_sandbox(sandbox: Sandbox, targets: ProbeTargets) -> ProbeResult:
    """Run the probe program in `sandbox` and check each protection (see the module docstring)."""
    problems = sandbox.problems()
    if problems:
        return failed_probe("; ".join(problems))
    folder = tempfile.mkdtemp(prefix="pecking-probe-")
    try:
        os.chmod(folder, 0o755)
        script = os.path.join(folder, "probe.py")
        with open(script, "w", encoding="utf-8") as handle:
            handle.write(PROGRAM)
        os.chmod(script, 0o644)
        result = _run(sandbox, targets, folder, script)
        result.runtimes = probe_runtimes(sandbox) if result.isolated else {}
        return result
    except SandboxUnavailable as exc:
        return failed_probe(str(exc))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _run(sandbox: Sandbox, targets: ProbeTargets, folder: str, script: str) -> ProbeResult:
    config = sandbox.config
    process = ProgramProcess([probe_python(), script], PROBE_LIMITS, sandbox)
    try:
        arguments = {
            "files": list(targets.files),
            "tcp": [list(pair) for pair in targets.tcp],
            "unix": list(targets.unix),
            "outside": list(targets.outside),
            "folder": folder,
            "uid": process.user.uid,
            "max_processes": config.max_processes,
            "memory": PROBE_LIMITS.memory_mb << 20,
            "tmpfs_mb": config.tmpfs_mb,
            "io_uring_setup": seccomp.architecture().calls["io_uring_setup"],
        }
        try:
            process.send({"type": "probe", "targets": arguments})
            report = json.loads(process.read_line(PROBE_LIMITS.startup_seconds + 20))
        except (ExternalBotError, ValueError) as exc:
            return failed_probe(
                f"the probe program gave no report: {exc}; it printed {process.output_text()!r}"
            )
        proven = {name: bool(report.get(name, [False])[0]) for name in PROTECTIONS}
        detail = {name: str(report.get(name, [False, "no report"])[1]) for name in PROTECTIONS}
        try:
            process.read_line(TIME_LIMIT_SECONDS)
            proven["time_limit"], detail["time_limit"] = False, "answered when it should have been waiting"
        except ExternalBotError as exc:
            dead = process.process.poll() is not None
            proven["time_limit"] = exc.forfeit_reason == "timeout" and dead
            detail["time_limit"] = f"{exc}: {'gone' if dead else 'still running'}"
        detail["memory_limit"] += f"; for the whole bot: {delegated_memory_cgroup()}"
        proven["memory_budget"], detail["memory_budget"] = _memory_budget(sandbox)
        process.kill()
        left = _leftovers(process.user.uid)
        proven["no_leftovers"] = not left
        detail["no_leftovers"] = f"{len(left)} of its processes left once its sandbox was killed"
        return ProbeResult(proven=proven, detail=detail)
    finally:
        process.close()


def _memory_budget(sandbox: Sandbox) -> tuple[bool, str]:
    """Checked from outside while the probe's seat runs and holds its cap: every process of the machine sees
    that cap taken from the budget, and a claim of more than the rest is not granted."""
    budget = sandbox.config.memory_budget_mb
    cap = sandbox.config.seat_memory_mb(PROBE_LIMITS.memory_mb)
    room = sandbox.memory_room()
    too_much = budget - cap + 1
    granted = sandbox.memory_free_now(too_much)
    return room <= budget - cap and not granted, (
        f"{budget} MB for the machine's sandboxes; the probe's seat holds {cap} MB, {room} MB are free; "
        f"a claim of {too_much} MB at the same time was {'granted' if granted else 'not granted'}"
    )


def _leftovers(uid: int) -> list[int]:
    """The processes of `uid` still alive `LEFTOVER_SECONDS` after its sandbox was killed (zombies that are
    ours reaped on the way): the sandbox's pid namespace should have taken every one with it."""
    deadline = time.monotonic() + LEFTOVER_SECONDS
    while True:
        left = []
        for pid, state, parent in processes_of(uid):
            if state == "Z" and parent == os.getpid():
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, 0)
            elif state != "Z":
                left.append(pid)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.01)
