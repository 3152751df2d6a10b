"""Real Celery workers for the bot-league tests: started as processes, stopped (or killed) by the test."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.db import connection

WAIT_SECONDS = 180


def database_url() -> str:
    """The URL of the test database, so that worker processes work on the same data."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    credentials = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{credentials}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def purge_queues() -> int:
    """Drop every task waiting in this run's queues, so a worker started by a test sees only that test's
    tasks: tests that run callbacks on commit without a worker leave tasks behind (a notification for
    a table of an earlier test, whose ids the flushed database may reuse). How many were dropped."""
    from league.celery import app

    return app.control.purge()


def wait_until(condition, what: str, seconds: float = WAIT_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting: {what}")
        time.sleep(0.1)


class Worker:
    """One `celery worker` with `processes` processes, knowing the test-only bots."""

    def __init__(self, name: str, processes: int):
        purge_queues()
        environment = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "league.settings.test",
            "DATABASE_URL": database_url(),
            "PECKING_ORDER_TEST_RUN_DIR": str(settings.TEST_RUN_DIR),  # the test's own broker folder
        }
        # One process: the solo pool (the filesystem broker of the embedded default only works with it).
        pool = (
            ["--pool", "solo"] if processes == 1 else ["--pool", "prefork", "--concurrency", str(processes)]
        )
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "league",
            "worker",
            *pool,
            "-I",
            "tests.league.bots.faulty_bots",
            "-n",
            f"{name}-{os.getpid()}@%h",
            "-l",
            "warning",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
        self.process = subprocess.Popen(
            command, cwd=settings.BASE_DIR, env=environment, start_new_session=True
        )

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process.wait()

    def kill(self) -> None:
        """SIGKILL the worker and its children at once: nothing gets to clean up."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
