"""The worker's sandbox, from the settings: built once per process, proven by the probe before any use.

`verdict()` runs the probe (`league.programs.probe`) the first time a process needs it (at worker start:
`league.bots.tasks`; or when a shell command first plays a league with external programs) and keeps it for
the process's lifetime (forked pool processes inherit it); the worker stores it in its `WorkerProbe` row.
`sandbox()` is what plays external programs, handed out only to a worker whose probe proved every
protection.
"""

from __future__ import annotations

import socket
from functools import cache
from urllib.parse import urlparse

from django.conf import settings

from league.programs.probe import ProbeResult, ProbeTargets, host_unix_sockets, probe_sandbox
from league.programs.sandbox import Sandbox, SandboxConfig

_verdict: ProbeResult | None = None


def sandbox_config() -> SandboxConfig:
    return SandboxConfig(
        bwrap=settings.SANDBOX_BWRAP,
        users=tuple(settings.SANDBOX_USERS),
        lock_dir=settings.SANDBOX_LOCK_DIR,
        max_processes=settings.SANDBOX_MAX_PROCESSES,
        tmpfs_mb=settings.SANDBOX_TMPFS_MB,
        memory_budget_mb=settings.SANDBOX_MEMORY_BUDGET_MB,
        # Never shown to a program, nor any folder holding one of them (so not the project's root either);
        # a bot may live in a folder of the tree of its own (examples/, tests/league/bots/programs/).
        protected_paths=tuple(
            str(path)
            for path in (
                settings.BASE_DIR / "league",
                settings.VAR_DIR,
                settings.BASE_DIR / ".venv",
                settings.BASE_DIR / ".git",
            )
        ),
    )


@cache
def sandbox() -> Sandbox:
    return Sandbox(sandbox_config())


def program_cache_access() -> tuple[int, int | None]:
    """The mode and group of the program cache's root (`league.programs.program_cache`): 0750 and the slot
    users' group where they share one (.ci/sandbox-users makes it their primary group, the one a sandbox runs
    with); 0750 and this account's own group where there are no slot users (no sandbox reads it); 0751 where
    slot users of groups of their own exist (set up before they shared one): they pass, nobody lists."""
    groups = {user.gid for user in sandbox().slot_users()}
    if len(groups) == 1:
        return 0o750, groups.pop()
    return (0o751 if groups else 0o750), None


def _address(url: str, default_port: int) -> list[tuple[str, int]]:
    parsed = urlparse(url)
    if not parsed.hostname:
        return []
    return [(parsed.hostname, parsed.port or default_port)]


def probe_targets() -> ProbeTargets:
    """What the probe must fail to reach: the service's files and secrets, its database and broker (by
    address, by the usual local ports, and by every unix socket listening on this machine), the Internet."""
    base, var = settings.BASE_DIR, settings.VAR_DIR
    files = [
        base / "league" / "settings" / "base.py",
        base / "manage.py",
        var / "admin-password.txt",
        base,
        var,
        "/root",
        "/home",
        "/etc/shadow",
        "/etc/passwd",
        "/run",
        "/var/run",
    ]
    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("sqlite3"):
        files.append(str(database["NAME"]))
        tcp = []
    else:
        tcp = [(database.get("HOST") or "127.0.0.1", int(database.get("PORT") or 5432))]
    tcp += _address(
        settings.CELERY_BROKER_URL, 6379 if settings.CELERY_BROKER_URL.startswith("redis") else 5672
    )
    tcp += [("127.0.0.1", 5432), ("127.0.0.1", 6379), ("127.0.0.1", 5672), ("::1", 5432), ("1.1.1.1", 53)]
    tcp += [(socket.gethostname(), 8000)]
    unix = sorted(
        {
            *host_unix_sockets(),
            "/var/run/postgresql/.s.PGSQL.5432",
            "/run/postgresql/.s.PGSQL.5432",
            "/tmp/.s.PGSQL.5432",
        }
    )
    return ProbeTargets(
        files=[str(path) for path in files],
        tcp=list(dict.fromkeys(tcp)),
        unix=unix,
        outside=[str(base / "league"), str(var), "/var/tmp"],
    )


def verdict() -> ProbeResult:
    """This process's proof of its sandbox: probed on first use, then kept (`league.bots.services.
    worker_probe_record` stores it). A pool process forked from a worker that probed keeps its parent's
    verdict (same machine, same setup)."""
    global _verdict
    if _verdict is None:
        _verdict = probe_sandbox(sandbox(), probe_targets())
    return _verdict


def proven_runtimes() -> list[str] | None:
    """The runtimes this process's probe found in its sandbox, or None if it has not probed (no filter)."""
    if _verdict is None or _verdict.runtimes is None:
        return None
    return sorted(_verdict.runtimes)


def reprobe() -> ProbeResult:
    """Probe again now (a worker starting)."""
    global _verdict
    _verdict = None
    return verdict()
