"""`manage.py serve`: the web server, one Celery worker and beat together, stopped together.

Ctrl-C (or SIGTERM) stops all three and waits for them, so nothing is left running. If one of them dies,
the others are stopped too and the command exits non-zero. One worker process (`--pool solo`), as the
embedded SQLite default wants a single writer per process; it consumes the default queue and the
notifications queue (mail and webhooks).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

STOP_GRACE_SECONDS = 10
STARTUP_WAIT_SECONDS = 60


class Command(BaseCommand):
    help = "Run the web server, a Celery worker and Celery beat until Ctrl-C."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))

    def handle(self, *args, host: str, port: int, **options):
        if not 1 <= port <= 65535:
            raise CommandError(f"--port must be between 1 and 65535, not {port}", returncode=2)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            if probe.connect_ex((host, port)) == 0:
                raise CommandError(
                    f"something already listens on {host}:{port}; stop it or set PORT=<another port>", returncode=2
                )
        python = sys.executable
        manage = str(settings.BASE_DIR / "manage.py")
        beat_schedule = str(settings.VAR_DIR / "celerybeat-schedule")
        # The worker takes the default queue and the notifications queue (mail and webhooks).
        queues = f"{settings.CELERY_TASK_DEFAULT_QUEUE},{settings.NOTIFICATIONS_QUEUE}"
        commands = {
            "web": [python, manage, "runserver", f"{host}:{port}", "--noreload"],
            "worker": [python, "-m", "celery", "-A", "league", "worker", "--pool", "solo", "-l", "info", "-n", "worker@%h",
                       "-Q", queues],
            "beat": [python, "-m", "celery", "-A", "league", "beat", "-l", "info", "-s", beat_schedule],
        }
        processes: dict[str, subprocess.Popen] = {}
        stopping = False

        def request_stop(signum, frame):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, request_stop)
        signal.signal(signal.SIGTERM, request_stop)
        try:
            for name, command in commands.items():
                processes[name] = subprocess.Popen(command, cwd=settings.BASE_DIR)
            url = f"http://{host}:{port}/"
            if self._wait_for(url, processes, lambda: stopping):
                self.stdout.write(self.style.SUCCESS(f"\nPecking Order is running at {url}  (Ctrl-C stops everything)"))
                self.stdout.write(f"Admin: {url}admin/   API docs: {url}api/docs/   Health: {url}health/\n")
            while not stopping:
                dead = [name for name, process in processes.items() if process.poll() is not None]
                if dead:
                    raise CommandError(f"{', '.join(dead)} stopped unexpectedly; stopping the rest")
                time.sleep(0.5)
        finally:
            self._stop_all(processes)
        self.stdout.write("Stopped the web server, the worker and beat.")

    def _wait_for(self, url: str, processes: dict, stopping) -> bool:
        deadline = time.monotonic() + STARTUP_WAIT_SECONDS
        while time.monotonic() < deadline and not stopping():
            if any(process.poll() is not None for process in processes.values()):
                return False
            try:
                with urllib.request.urlopen(url, timeout=2):
                    return True
            except OSError:
                time.sleep(0.3)
        return False

    def _stop_all(self, processes: dict[str, subprocess.Popen]) -> None:
        for process in processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE_SECONDS
        for process in processes.values():
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
