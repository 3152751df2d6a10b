"""The sandbox every external program runs in: bubblewrap, a user of its own, resource limits.

Pure Python: no Django (the worker builds the `SandboxConfig` from its settings,
`league.programs.sandboxing`). Nothing here is assumed to work: `league.programs.probe` runs a program
inside the sandbox that tries each escape, and a worker whose probe fails takes no external seats.

A program runs as

    bwrap --unshare-user --unshare-pid --unshare-net --unshare-ipc --unshare-uts --unshare-cgroup-try
          --disable-userns --die-with-parent --new-session
          --proc /proc --dev /dev (read-only) --ro-bind <each system path> --ro-bind <the bot's folders>
          --tmpfs /tmp (tmpfs_mb) --remount-ro / --clearenv PATH LANG HOME=/tmp --chdir /tmp
          --seccomp FD -- COMMAND

started by the worker as a **slot user**: one dedicated unprivileged account per program running at once
(`po-sandbox-0`, `po-sandbox-1`, ...), claimed with a lock file, so that `RLIMIT_NPROC` (which root ignores)
caps the processes of the whole sandbox, bubblewrap's two included. The worker switches to the slot user
(it needs root, or `CAP_SETUID` and `CAP_SETGID`), and bubblewrap then builds the namespaces unprivileged,
in a user namespace of that user: nothing in the sandbox runs as root or holds a capability.

What it sees of the machine: the system paths, read-only (by default `/usr` and the links `/bin`, `/lib`,
... into it, and a few files of `/etc` the dynamic loader needs); the folder of each file the command names
(and each folder it names) outside those, read-only: the bot's own files; for an uploaded program, its one
unpacked folder of the workers' cache at `/bot` (read-only, its working folder), and nothing else of the
cache; a private `/tmp` of `tmpfs_mb`.
Not the project tree, not `/run` (so no unix socket of PostgreSQL or Redis), not `/home`, not the worker's
processes (its own pid namespace and `/proc`), no network (its own network namespace, loopback down).

Limits, set before bubblewrap starts and inherited by every process in the sandbox: `RLIMIT_NPROC`
(`max_processes`, counted per slot user), `RLIMIT_AS` (the bot's memory per process: the sandbox as a whole
can hold at most `max_processes` times that), `RLIMIT_CPU` (the bot's CPU seconds per process),
`RLIMIT_FSIZE` (files it writes: 1 MiB each), `RLIMIT_NOFILE`, no core dumps, no locked memory, no
message queues. A system-call filter (`league.programs.seccomp`, installed by bubblewrap just before the
command starts) refuses the locks, leases, watches and sockets by which two sandboxes of one match could
signal each other through the files they share.

Memory per machine: a seat's cap is what its sandbox can hold (`max_processes` times the bot's memory per
process); the caps of the seats running at once on one machine, in every worker process sharing `lock_dir`,
never exceed `memory_budget_mb`. A seat claims its cap before it claims a slot user, and waits for room: the
budget is a file in `lock_dir` whose bytes stand for megabytes, and a seat holds its megabytes as
open-file-description locks on them (`F_OFD_SETLK`), which the kernel drops when the seat's file closes or
its process dies, so a crashed worker frees its room.

When the program ends or is stopped, the whole sandbox goes: killing bubblewrap's outer process kills its
pid namespace (`--die-with-parent`), and the slot is then swept (every process of the slot user killed, and
reaped: the worker is a child subreaper while it runs sandboxes) before another program may use it.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import pwd
import resource
import signal
import struct
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import cast

from games.core.protocol import PipedProcess
from league.programs import seccomp

SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"
PROGRAM_MOUNT = "/bot"  # where an uploaded program's own files are shown (league.programs.archives)
SANDBOX_HOME = "/tmp"
# Paths the sandbox shows read-only where they exist (links are recreated as links): the system's programs
# and libraries, and what the dynamic loader and the C library read from /etc. Nothing else of /etc.
SYSTEM_PATHS = (
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc/alternatives",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
)
FILE_SIZE_LIMIT = 1 << 20
SWEEP_SECONDS = 5.0
KILL = "/usr/bin/kill"
CAP_SETGID, CAP_SETUID = 6, 7
PR_SET_CHILD_SUBREAPER = 36
MEMORY_BUDGET_FILE = "memory-budget.lock"
# struct flock: l_type, l_whence, l_start, l_len, l_pid (0 for open-file-description locks), 32 bytes.
FLOCK = struct.Struct("hhqqi4x")


class SandboxUnavailable(Exception):
    """The worker cannot run a program in the sandbox (no bubblewrap, no free slot user, ...): the match
    is not played here, and no seat forfeits for it."""


@dataclass(frozen=True)
class SandboxConfig:
    """Where bubblewrap is, which slot users there are, and the sandbox's own limits.

    `users` are the slot users' names; `lock_dir` holds one lock file per slot (shared by every worker
    process of the machine); `protected_paths` are never shown to a program (the project tree, the
    service's data), even if a command names a file inside them.
    """

    bwrap: str = "/usr/bin/bwrap"
    users: tuple[str, ...] = ()
    lock_dir: str = "/tmp/pecking-order-sandbox"
    max_processes: int = 8
    tmpfs_mb: int = 16
    open_files: int = 64
    system_paths: tuple[str, ...] = SYSTEM_PATHS
    protected_paths: tuple[str, ...] = ()
    slot_wait_seconds: float = 60.0
    memory_budget_mb: int = 16384

    def seat_memory_mb(self, memory_mb: int) -> int:
        """A seat's memory cap: what its sandbox can hold, `max_processes` processes of `memory_mb` each."""
        return self.max_processes * memory_mb

    @property
    def tmpfs_bytes(self) -> int:
        return self.tmpfs_mb << 20


@dataclass(frozen=True)
class SlotUser:
    name: str
    uid: int
    gid: int


@dataclass(frozen=True)
class ProgramLimits:
    """What one program may use: CPU seconds and address space per process (see the module docstring)."""

    cpu_seconds: int
    memory_mb: int


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _capabilities() -> int:
    """This process's effective capabilities, as a bit mask."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("CapEff:"):
                    return int(line.split()[1], 16)
    except OSError:
        pass
    return 0


@dataclass
class Sandbox:
    """Runs programs under `config`: builds the bubblewrap command, claims and sweeps slot users."""

    config: SandboxConfig
    _users: list[SlotUser] | None = field(default=None, repr=False)

    def slot_users(self) -> list[SlotUser]:
        """The configured slot users that exist here and are unprivileged (never root, never the worker)."""
        if self._users is None:
            users = []
            for name in self.config.users:
                try:
                    entry = pwd.getpwnam(name)
                except KeyError:
                    continue
                if entry.pw_uid != 0 and entry.pw_gid != 0 and entry.pw_uid != os.getuid():
                    users.append(SlotUser(name, entry.pw_uid, entry.pw_gid))
            self._users = users
        return self._users

    def problems(self) -> list[str]:
        """Why this worker cannot start a sandbox at all (empty when it can try)."""
        found = []
        if not os.access(self.config.bwrap, os.X_OK):
            found.append(f"bubblewrap ({self.config.bwrap}) is not installed (apt-get install bubblewrap)")
        if not self.slot_users():
            found.append(
                "none of the slot users exists or is unprivileged: "
                + (", ".join(self.config.users) or "none configured")
                + " (create them with .ci/sandbox-users)"
            )
        needed = (1 << CAP_SETUID) | (1 << CAP_SETGID)
        if os.geteuid() != 0 and _capabilities() & needed != needed:
            found.append(
                "the worker may not switch to the slot users (it needs root, or CAP_SETUID and CAP_SETGID)"
            )
        if not os.access(KILL, os.X_OK):
            found.append(f"{KILL} (procps) is missing")
        try:
            seccomp.architecture()
        except seccomp.SeccompUnavailable as exc:
            found.append(str(exc))
        for protected in self.config.protected_paths:
            for system in self.config.system_paths:
                if _inside(os.path.realpath(protected), os.path.realpath(system)):
                    found.append(f"the service's files are inside {system}, which the sandbox shows")
        return found

    # --- what the program sees -------------------------------------------------------------------------

    def bot_folders(self, command: Sequence[str]) -> list[str]:
        """The folders shown to the program, read-only: the folder of each file the command names and each
        folder it names, outside the system paths. Raises SandboxRefused for one inside the service's files
        or one holding them."""
        systems = [os.path.realpath(path) for path in self.config.system_paths if os.path.lexists(path)]
        protected = [os.path.realpath(path) for path in self.config.protected_paths]
        folders: list[str] = []
        for part in command:
            if not part.startswith("/") or not os.path.exists(part):
                continue
            real = os.path.realpath(part)
            folder = real if os.path.isdir(real) else os.path.dirname(real)
            if any(_inside(real, system) for system in systems):
                continue
            for guarded in protected:
                if _inside(folder, guarded) or _inside(guarded, folder):
                    raise SandboxRefused(
                        f"{part} is in a folder that holds or is part of the service's own files; "
                        "put the bot in a folder of its own"
                    )
            if folder not in folders:
                folders.append(folder)
        return folders

    def program_folder(self, folder: str) -> str:
        """An uploaded program's own folder (in the workers' cache, `league.programs.program_cache`), to be
        shown at `PROGRAM_MOUNT` alone: refused if it holds any of the service's files."""
        real = os.path.realpath(folder)
        if not os.path.isdir(real):
            raise SandboxRefused(f"the program's folder {folder} does not exist")
        for guarded in self.config.protected_paths:
            if _inside(os.path.realpath(guarded), real):
                raise SandboxRefused(f"the program's folder {folder} holds the service's own files")
        return real

    def command(
        self,
        command: Sequence[str],
        folders: Sequence[str],
        program_dir: str | None = None,
        *,
        seccomp_fd: int,
    ) -> list[str]:
        """The bubblewrap command line that runs `command` (already resolved) with `folders` shown, and an
        uploaded program's folder (`program_dir`) at `PROGRAM_MOUNT`, read-only, as its working folder;
        bubblewrap reads the system-call filter from `seccomp_fd`."""
        argv = [
            self.config.bwrap,
            "--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--disable-userns",
            "--die-with-parent", "--new-session",
            "--proc", "/proc",
            "--dev", "/dev",
        ]  # fmt: skip  # a table: each bubblewrap option beside its arguments
        for path in self.config.system_paths:
            if os.path.islink(path):
                argv += ["--symlink", os.readlink(path), path]
            elif os.path.exists(path):
                argv += ["--ro-bind", path, path]
        argv += ["--size", str(self.config.tmpfs_bytes), "--tmpfs", SANDBOX_HOME]
        for folder in folders:
            argv += ["--ro-bind", folder, folder]
        if program_dir is not None:
            argv += ["--ro-bind", program_dir, PROGRAM_MOUNT]
        argv += [
            "--remount-ro", "/dev",
            "--remount-ro", "/",
            "--clearenv",
            "--setenv", "PATH", SAFE_PATH,
            "--setenv", "LANG", "C.UTF-8",
            "--setenv", "HOME", SANDBOX_HOME,
            "--chdir", SANDBOX_HOME if program_dir is None else PROGRAM_MOUNT,
            "--seccomp", str(seccomp_fd),
            "--", *command,
        ]  # fmt: skip  # a table: each bubblewrap option beside its arguments
        return argv

    def preexec(self, limits: ProgramLimits) -> Callable[[], None]:
        """The child-side setup between fork and exec (after the switch to the slot user): the limits."""
        cpu = max(1, int(limits.cpu_seconds))
        memory = int(limits.memory_mb) << 20
        processes = self.config.max_processes
        files = self.config.open_files

        def apply() -> None:
            resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
            resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_LIMIT, FILE_SIZE_LIMIT))
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            resource.setrlimit(resource.RLIMIT_MEMLOCK, (0, 0))
            resource.setrlimit(resource.RLIMIT_MSGQUEUE, (0, 0))

        return apply

    def popen(
        self, command: Sequence[str], limits: ProgramLimits, user: SlotUser, program_dir: str | None = None
    ) -> PipedProcess:
        """Start `command` in the sandbox as `user`, its standard streams piped to the worker; an uploaded
        program's folder (`program_dir`) is shown at `PROGRAM_MOUNT`."""
        folders = self.bot_folders(command)
        if program_dir is not None:
            program_dir = self.program_folder(program_dir)
        try:
            filter_fd = _seccomp_pipe()
        except seccomp.SeccompUnavailable as exc:
            raise SandboxUnavailable(str(exc)) from None
        try:
            # Its three standard streams are pipes, so none of them is None.
            return cast(
                PipedProcess,
                subprocess.Popen(
                    self.command(command, folders, program_dir, seccomp_fd=filter_fd),
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    cwd="/",
                    env={"PATH": SAFE_PATH},
                    close_fds=True,
                    pass_fds=(filter_fd,),
                    start_new_session=True,
                    user=user.uid,
                    group=user.gid,
                    extra_groups=[],
                    preexec_fn=self.preexec(limits),
                ),
            )
        except OSError as exc:
            raise SandboxUnavailable(f"could not start bubblewrap: {exc.strerror or exc}") from None
        finally:
            os.close(filter_fd)

    # --- memory ------------------------------------------------------------------------------------------

    def _budget_file(self) -> int:
        return os.open(
            os.path.join(self._lock_dir(), MEMORY_BUDGET_FILE), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600
        )

    def memory_room(self) -> int:
        """The megabytes of the machine's budget no running seat holds now."""
        budget = self.config.memory_budget_mb
        handle = self._budget_file()
        try:
            held, position = 0, 0
            while position < budget:
                found = _held_range(handle, position, budget - position)
                if found is None:
                    break
                start, end = found
                held += min(end, budget) - max(start, position)
                position = end
            return budget - held
        finally:
            os.close(handle)

    def memory_free_now(self, megabytes: int) -> bool:
        """Whether `megabytes` of the budget could be held right now (held and released at once)."""
        handle = self._budget_file()
        try:
            return _claim(handle, megabytes, self.config.memory_budget_mb)
        finally:
            os.close(handle)

    @contextlib.contextmanager
    def memory(self, memory_mb: int) -> Iterator[int]:
        """Hold the memory cap of a seat whose processes have `memory_mb` each (`seat_memory_mb`) within the
        machine's budget while it runs, waiting up to `slot_wait_seconds` for room; yields the cap."""
        cap = self.config.seat_memory_mb(memory_mb)
        budget = self.config.memory_budget_mb
        if cap > budget:
            raise SandboxUnavailable(
                f"a seat of {memory_mb} MB per process can hold {cap} MB, more than this machine's "
                f"memory budget for sandboxes ({budget} MB, SANDBOX_MEMORY_BUDGET_MB)"
            )
        deadline = time.monotonic() + self.config.slot_wait_seconds
        handle = self._budget_file()
        try:
            while not _claim(handle, cap, budget):
                _lock_range(handle, 0, budget, fcntl.F_UNLCK)
                if time.monotonic() > deadline:
                    raise SandboxUnavailable(
                        f"no room for a seat of {cap} MB in this machine's memory budget for sandboxes "
                        f"({budget} MB, SANDBOX_MEMORY_BUDGET_MB): the seats running hold the rest"
                    )
                time.sleep(0.02)
            yield cap
        finally:
            os.close(handle)  # drops every lock of this open file description

    # --- slots -------------------------------------------------------------------------------------------

    def _lock_dir(self) -> str:
        path = self.config.lock_dir
        with contextlib.suppress(FileExistsError):
            os.mkdir(path, 0o700)
        info = os.lstat(path)
        if info.st_uid != os.geteuid() or info.st_mode & 0o022 or not os.path.isdir(path):
            raise SandboxUnavailable(f"the slot lock folder {path} is not this worker's own")
        return path

    @contextlib.contextmanager
    def slot(self) -> Iterator[SlotUser]:
        """Claim a free slot user for one program (waiting up to `slot_wait_seconds`), swept before and
        after: no process of it survives the program."""
        users = self.slot_users()
        if not users:
            raise SandboxUnavailable("no slot user exists")
        folder = self._lock_dir()
        deadline = time.monotonic() + self.config.slot_wait_seconds
        start = os.getpid() % len(users)  # processes of one machine start their search at different slots
        while True:
            for offset in range(len(users)):
                user = users[(start + offset) % len(users)]
                lock = os.open(os.path.join(folder, f"{user.name}.lock"), os.O_RDWR | os.O_CREAT, 0o600)
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    os.close(lock)
                    continue
                _adopt_orphans()
                try:
                    self.sweep(user)
                    yield user
                    return
                finally:
                    try:
                        self.sweep(user)
                    finally:
                        os.close(lock)  # releases the lock
                        _stop_adopting({slot.uid for slot in users})
            if time.monotonic() > deadline:
                raise SandboxUnavailable(
                    f"all {len(users)} slot users are busy: add slot users (SANDBOX_SLOTS)"
                )
            time.sleep(0.02)

    def sweep(self, user: SlotUser) -> None:
        """Kill every process of `user` and wait until none is left (reaping those that were ours)."""
        deadline = time.monotonic() + SWEEP_SECONDS
        killed_at = None
        while True:
            left = processes_of(user.uid)
            if not left:
                return
            for pid, state, parent in left:
                if parent == os.getpid() and state == "Z":
                    with contextlib.suppress(ChildProcessError):
                        os.waitpid(pid, 0)
            alive = any(state != "Z" for _, state, _ in left)
            if alive and (killed_at is None or time.monotonic() - killed_at > 0.1):
                # kill(-1) as the slot user: the kernel signals every process of that user at once, so
                # nothing forks its way out between a scan and a kill.
                subprocess.run(
                    [KILL, "-KILL", "-1"],
                    user=user.uid,
                    group=user.gid,
                    extra_groups=[],
                    env={"PATH": SAFE_PATH},
                    cwd="/",
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    check=False,
                )
                killed_at = time.monotonic()
            if time.monotonic() > deadline:
                raise SandboxUnavailable(f"processes of {user.name} survive being killed: {len(left)} left")
            time.sleep(0.002)


class SandboxRefused(Exception):
    """The program cannot run in the sandbox as registered (its files lie among the service's own)."""


def processes_of(uid: int) -> list[tuple[int, str, int]]:
    """(pid, state, parent pid) of every process whose owner is `uid`, zombies included."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            if entry.stat(follow_symlinks=False).st_uid != uid:
                continue
            with open(f"/proc/{entry.name}/stat", encoding="utf-8", errors="replace") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
        found.append((int(entry.name), fields[0], int(fields[1])))
    return found


_adopting = {"pid": 0, "sandboxes": 0}


def _set_subreaper(on: bool) -> None:
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0)


def _adopt_orphans() -> None:
    """While this process runs sandboxes, it adopts their orphans: bubblewrap's outer process exits before its
    pid 1, which would otherwise go to the machine's init and count against the slot user's process limit
    until init reaps it (here: seconds). A long-lived process that runs no sandbox stops adopting
    (`_stop_adopting`), so that orphans of other descendants (a killed pool process's sandboxes) go to init,
    which reaps them, rather than to a parent that never would. A forked child starts over."""
    if _adopting["pid"] != os.getpid():
        _adopting.update(pid=os.getpid(), sandboxes=0)
    if _adopting["sandboxes"] == 0:
        _set_subreaper(True)
    _adopting["sandboxes"] += 1


def _stop_adopting(uids: set[int]) -> None:
    """The end of one sandbox: with none left running here, reap the slot users' zombies that are ours and
    stop adopting orphans."""
    _adopting["sandboxes"] -= 1
    if _adopting["sandboxes"] > 0:
        return
    _set_subreaper(False)
    for uid in uids:
        for pid, state, parent in processes_of(uid):
            if state == "Z" and parent == os.getpid():
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, 0)


def _seccomp_pipe() -> int:
    """A pipe's read end holding the system-call filter, for bubblewrap's `--seccomp` to read to its end."""
    filter_program = seccomp.program()
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, filter_program)  # a few hundred bytes: far below a pipe's buffer
    finally:
        os.close(write_end)
    return read_end


def _lock_range(handle: int, start: int, length: int, kind: int) -> bool:
    """Set (`F_WRLCK`) or drop (`F_UNLCK`) this open file description's lock on [start, start + length),
    without waiting: False when another holds part of it."""
    try:
        fcntl.fcntl(handle, fcntl.F_OFD_SETLK, FLOCK.pack(kind, os.SEEK_SET, start, length, 0))
    except (BlockingIOError, PermissionError):
        return False
    return True


def _any_held(handle: int, start: int, length: int) -> tuple[int, int] | None:
    """A range another open file description holds within [start, start + length) (the kernel names one,
    not necessarily the lowest), or None."""
    answer = fcntl.fcntl(handle, fcntl.F_OFD_GETLK, FLOCK.pack(fcntl.F_WRLCK, os.SEEK_SET, start, length, 0))
    kind, _, held_start, held_length, _ = FLOCK.unpack(answer)
    if kind == fcntl.F_UNLCK:
        return None
    return held_start, held_start + held_length if held_length else 1 << 62


def _held_range(handle: int, start: int, length: int) -> tuple[int, int] | None:
    """The lowest range another open file description holds within [start, start + length), or None."""
    found = _any_held(handle, start, length)
    while found is not None and found[0] > start:
        lower = _any_held(handle, start, found[0] - start)
        if lower is None:
            break
        found = lower
    return found


def _claim(handle: int, megabytes: int, budget: int) -> bool:
    """Lock `megabytes` free bytes of the first `budget` of the budget file, wherever they are free (the
    holes between other seats' ranges): True when all are held, False when there is not that much room."""
    position, needed = 0, megabytes
    while needed > 0 and position < budget:
        length = min(needed, budget - position)
        found = _held_range(handle, position, length)
        if found is None:
            if _lock_range(handle, position, length, fcntl.F_WRLCK):
                needed -= length
                position += length
            continue  # taken in between: look again
        start, end = found
        if start > position:
            if _lock_range(handle, position, start - position, fcntl.F_WRLCK):
                needed -= start - position
                position = start
            continue
        position = end
    return needed == 0


def delegated_memory_cgroup(proc: str = "/proc/self/cgroup", root: str = "/sys/fs/cgroup") -> str:
    """What this machine offers to bound a sandbox's memory as a whole: a word on the cgroup v2 delegated to
    this process with the memory controller, or on why there is none. The workers do not use one yet (the
    bound is the process cap times the memory per process); they would only ever use their own subtree."""
    try:
        with open(proc, encoding="utf-8") as lines:
            entries = [line.strip() for line in lines if line.strip()]
    except OSError:
        return "no cgroup information"
    unified = [entry[3:] for entry in entries if entry.startswith("0::")]
    if len(entries) != 1 or not unified:
        return "no cgroup v2 of its own (a cgroup v1 or hybrid hierarchy)"
    own = os.path.join(root, unified[0].lstrip("/"))
    try:
        with open(os.path.join(own, "cgroup.controllers"), encoding="utf-8") as controllers:
            available = controllers.read().split()
    except OSError:
        return f"its cgroup {unified[0]} cannot be read"
    if unified[0] == "/" or not os.access(own, os.W_OK) or "memory" not in available:
        return f"its cgroup {unified[0]} is not delegated to it with the memory controller"
    return f"its cgroup {unified[0]} is delegated with the memory controller (not used yet)"


def kill_sandbox(process: PipedProcess) -> None:
    """Kill bubblewrap's outer process (and with it, its pid namespace) and wait for it."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    process.wait()
