"""Health checks: does the database answer, and is at least one Celery worker alive (it answered a ping, or
its heartbeat is under `ALIVE_SECONDS` old: a worker busy in a long task answers no ping, and is shown
"busy")? And the
sandbox: what each worker proved of it, and whether matches with an external program wait for a worker that
proved it (shown, not counted in `ok`: a service whose workers cannot run external programs still serves
everything else)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from datetime import datetime

from django.db import DatabaseError, connection
from kombu import Connection
from kombu.exceptions import KombuError

from league.bots.sandbox_selectors import SandboxStatus, sandbox_status
from league.celery import app
from league.site.beats import ALIVE_SECONDS, WorkerState, worker_beats
from league.site.restarts import restart_counts

WORKER_PING_TIMEOUT = 1.0


@dataclass(frozen=True)
class Health:
    database: bool
    database_error: str
    workers: list[str]
    sandbox: SandboxStatus | None = None
    # How often `manage.py serve` restarted the worker and beat; None when no `serve` runs this service.
    restarts: dict[str, int] | None = None
    # Workers by their heartbeats: alive (under ALIVE_SECONDS old; busy when in a task) and silent for longer.
    beating: list[WorkerState] = field(default_factory=list)
    silent: list[WorkerState] = field(default_factory=list)

    @property
    def alive(self) -> list[str]:
        """Every worker that answered a ping or beat lately, by name."""
        return sorted(set(self.workers) | {state.worker for state in self.beating})

    @property
    def ok(self) -> bool:
        return self.database and bool(self.alive)

    def as_dict(self) -> dict:
        return {
            "ok": self.ok,
            "database": {"ok": self.database, "vendor": connection.vendor, "error": self.database_error},
            "workers": {
                "ok": bool(self.alive),
                "names": self.alive,
                "busy": [state.as_dict() for state in self.beating if state.busy],
                "silent": [state.as_dict() for state in self.silent],
                "alive_seconds": ALIVE_SECONDS,
            },
            "sandbox": self.sandbox.as_dict() if self.sandbox is not None else None,
            "restarts": self.restarts,
        }


def check_database() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return False, str(exc)
    return True, ""


def broker_connection() -> Connection:
    """A fresh connection to the configured broker, not one from the app's pool."""
    return app.connection_for_write()


def check_workers(timeout: float = WORKER_PING_TIMEOUT) -> list[str]:
    """Names of the workers that answered a broadcast ping within `timeout` seconds."""
    try:
        # A connection of its own, closed on exit: a pooled connection left listening for replies would be
        # inherited by forked processes, and kombu's after-fork cleanup then blocks reading from it (Redis).
        with broker_connection() as connection:
            replies = app.control.ping(timeout=timeout, connection=connection) or []
    except (OSError, KombuError):  # broker unreachable
        return []
    return sorted(name for reply in replies for name in reply)


def health(*, now: datetime | None = None) -> Health:
    """The health report; `now` (the clock the heartbeats are read by) is for tests."""
    database, error = check_database()
    try:
        sandbox = sandbox_status() if database else None
    except DatabaseError:
        sandbox = None
    beating: list[WorkerState] = []
    silent: list[WorkerState] = []
    if database:
        with contextlib.suppress(DatabaseError):
            beating, silent = worker_beats(now=now)
    return Health(
        database=database,
        database_error=error,
        workers=check_workers(),
        sandbox=sandbox,
        restarts=restart_counts(),
        beating=beating,
        silent=silent,
    )
