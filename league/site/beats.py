"""Workers' heartbeats, which `/health/` reads: a worker busy in a long task is alive, not missing.

A Celery worker of `make run` runs one task at a time in its only process (`--pool solo`), so it answers no
ping while it plays a league's batch. Each worker therefore starts a timer thread (`Heartbeat`) when it is
ready; the thread writes the worker's `WorkerBeat` row every `BEAT_EVERY_SECONDS`, during tasks too, with the
task the worker is in (`task_prerun` / `task_postrun`). A worker is alive while its beat is under
`ALIVE_SECONDS` old (`worker_beats`): `/health/` says "busy" for one in a task (and answers 200), and fails
only when no worker answered a ping and none beat within `ALIVE_SECONDS`. A worker that stops deletes its row.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from celery.signals import task_postrun, task_prerun, worker_ready, worker_shutdown
from django.db import DatabaseError, connection
from django.utils import timezone

from league.site.models import WorkerBeat

logger = logging.getLogger(__name__)

BEAT_EVERY_SECONDS = 10.0
ALIVE_SECONDS = 60


def beat_write(*, worker: str, task: str, since: datetime | None, now: datetime | None = None) -> None:
    """Write `worker`'s heartbeat: now, in `task` since `since` (blank and None: idle)."""
    WorkerBeat.objects.update_or_create(
        worker=worker,
        defaults={
            "beat_at": now or timezone.now(),
            "task": task[:200],
            "task_since": since if task else None,
        },
    )


def beat_clear(*, worker: str) -> None:
    """A worker that stops removes its heartbeat (it is not missing: it is gone)."""
    WorkerBeat.objects.filter(worker=worker).delete()


@dataclass(frozen=True)
class WorkerState:
    """A worker as its heartbeat shows it: its name, the task it is in ("" when idle) and since when, and how
    many seconds ago it beat."""

    worker: str
    task: str
    task_since: datetime | None
    beat_seconds_ago: float

    @property
    def busy(self) -> bool:
        return bool(self.task)

    def as_dict(self) -> dict:
        return {
            "name": self.worker,
            "task": self.task,
            "since": self.task_since.isoformat() if self.task_since else None,
            "beat_seconds_ago": round(self.beat_seconds_ago, 1),
        }


def worker_beats(*, now: datetime | None = None) -> tuple[list[WorkerState], list[WorkerState]]:
    """The workers that beat within `ALIVE_SECONDS` of `now`, and those silent for longer (by name)."""
    now = now or timezone.now()
    alive: list[WorkerState] = []
    silent: list[WorkerState] = []
    for row in WorkerBeat.objects.order_by("worker"):
        ago = (now - row.beat_at).total_seconds()
        state = WorkerState(row.worker, row.task, row.task_since, ago)
        (alive if ago < ALIVE_SECONDS else silent).append(state)
    return alive, silent


class Heartbeat:
    """A daemon thread that calls `write(task, since)` every `every` seconds until `stop()`, with the task
    set by `task_begin` / `task_end`; it writes at once when started and when a task begins or ends."""

    def __init__(self, write: Callable[[str, datetime | None], object], *, every: float = BEAT_EVERY_SECONDS):
        self._write = write
        self.every = every
        self._task = ""
        self._since: datetime | None = None
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="heartbeat", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def task_begin(self, name: str, *, now: datetime | None = None) -> None:
        with self._lock:
            self._task, self._since = name, now or timezone.now()
        self._wake.set()

    def task_end(self) -> None:
        with self._lock:
            self._task, self._since = "", None
        self._wake.set()

    def stop(self) -> None:
        self._stopped.set()
        self._wake.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def _run(self) -> None:
        try:
            while not self._stopped.is_set():
                with self._lock:
                    task, since = self._task, self._since
                try:
                    self._write(task, since)
                except DatabaseError:  # the database is away for a moment: the next beat tries again
                    logger.warning("could not write the worker's heartbeat", exc_info=True)
                self._wake.wait(self.every)
                self._wake.clear()
        finally:
            connection.close()  # this thread's own connection


_heartbeat: Heartbeat | None = None
_worker = ""


def _node(sender: object) -> str:
    return getattr(sender, "hostname", None) or f"{socket.gethostname()}:{os.getpid()}"


@worker_ready.connect
def heartbeat_start(sender: object = None, **kwargs: object) -> None:
    """Start this worker's heartbeat thread once it is ready to take tasks."""
    global _heartbeat, _worker
    if _heartbeat is not None:
        return
    _worker = _node(sender)
    _heartbeat = Heartbeat(lambda task, since: beat_write(worker=_worker, task=task, since=since))
    _heartbeat.start()


@worker_shutdown.connect
def heartbeat_stop(sender: object = None, **kwargs: object) -> None:
    global _heartbeat
    if _heartbeat is None:
        return
    _heartbeat.stop()
    _heartbeat = None
    try:
        beat_clear(worker=_worker)
    except DatabaseError:
        logger.warning("could not remove the worker's heartbeat", exc_info=True)


@task_prerun.connect
def heartbeat_task_begin(sender: object = None, **kwargs: object) -> None:
    if _heartbeat is not None:
        _heartbeat.task_begin(getattr(sender, "name", "") or "a task")


@task_postrun.connect
def heartbeat_task_end(sender: object = None, **kwargs: object) -> None:
    if _heartbeat is not None:
        _heartbeat.task_end()
