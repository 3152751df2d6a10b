"""`manage.py serve`: the web server, one Celery worker and beat together, stopped together.

Ctrl-C (or SIGTERM) stops all three and waits for them, so nothing is left running. When the worker or
beat dies, it is restarted after a backoff (`--restart-delay`, default 1 s or PECKING_ORDER_RESTART_DELAY,
doubled for each restart in a row up to 60 s), each restart printed and counted on `/health/`
(`league/site/restarts.py`); the web server keeps answering meanwhile. When the web server itself dies, the
worker and beat are stopped and the command exits non-zero. One worker process (`--pool solo`), as the
embedded SQLite default wants a single writer per process; it consumes the default queue and the
notifications queue (mail and webhooks).

Quiet by default: the worker and beat log warnings and errors only (no start-up banner), the web server no
access log; `--verbose` (`make run VERBOSE=1`) shows everything. Their output passes through this command;
once the web answers, the worker answers a ping and all three have been silent for a moment, it prints the
URLs and the demo logins (`serve_banner`) last, where they stay on screen.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from league.core.private_files import private_dir, private_embedded_database
from league.site.demo import (
    ADMIN_USERNAME,
    DEMO_PLAYER_USERNAME,
    admin_password_file,
    demo_player_password_file,
)
from league.site.health import check_workers
from league.site.restarts import (
    RESTARTED_PROCESSES,
    STABLE_RUN_SECONDS,
    restart_counts_clear,
    restart_counts_write,
    restart_delay,
)

STOP_GRACE_SECONDS = 10
STARTUP_WAIT_SECONDS = 60
# The banner waits until the three have been silent this long (the worker's first tasks, such as the demo's
# notification mails on the console, print first), at most SETTLE_WAIT_SECONDS.
QUIET_SECONDS = 2.0
SETTLE_WAIT_SECONDS = 30
POLL_SECONDS = 0.1


class OutputRelay:
    """Copies each process's output to ours line by line and remembers when the last line came."""

    def __init__(self) -> None:
        self.last_line_at = time.monotonic()
        self._lock = threading.Lock()

    def follow(self, process: subprocess.Popen) -> None:
        threading.Thread(target=self._copy, args=(process.stdout,), daemon=True).start()

    def _copy(self, pipe) -> None:
        for line in iter(pipe.readline, b""):
            with self._lock:
                sys.stdout.buffer.write(line)
                sys.stdout.buffer.flush()
                self.last_line_at = time.monotonic()

    def say(self, text: str) -> None:
        """Print `text` whole, between two lines of the processes' output."""
        with self._lock:
            sys.stdout.write(text + "\n")
            sys.stdout.flush()

    def wait_for_quiet(self, stopping) -> None:
        deadline = time.monotonic() + SETTLE_WAIT_SECONDS
        while time.monotonic() < deadline and not stopping():
            if time.monotonic() - self.last_line_at >= QUIET_SECONDS:
                return
            time.sleep(0.2)


def _password(path) -> str | None:
    try:
        return path.read_text().strip() or None
    except OSError:
        return None


def serve_site_url(host: str, port: int) -> str:
    """The address mails link to when `SITE_URL` is not set: this server's host and port (a server listening
    on every address is reached as localhost)."""
    shown = "localhost" if host in ("0.0.0.0", "::", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"


def serve_banner(
    *, url: str, admin_password: str | None, demo_password: str | None, worker_ready: bool, verbose: bool
) -> str:
    """What `serve` prints once everything runs: where to go, how to log in, how to stop, how to see more."""
    rule = "=" * 72
    lines = [rule, f"Pecking Order is running at {url}  (Ctrl-C stops everything)", ""]
    if admin_password:
        lines.append(f"  Admin:       user '{ADMIN_USERNAME}', password '{admin_password}'  {url}admin/")
    else:
        lines.append("  Admin:       no demo admin yet (make demo creates one)")
    if demo_password:
        lines.append(
            f"  Demo player: user '{DEMO_PLAYER_USERNAME}', password '{demo_password}'  {url}accounts/login/"
        )
    lines += ["", f"  API docs: {url}api/docs/   Health: {url}health/"]
    if not worker_ready:
        lines.append("  The worker has not answered yet: bot matches and ratings wait for it (see /health/).")
    if not verbose:
        lines.append(
            "  Quiet logs (warnings only); make run VERBOSE=1 (serve --verbose) shows every request and task."
        )
    lines.append(rule)
    return "\n".join(lines)


class Supervisor:
    """Restarts the worker and beat when they die, after a backoff, saying so and counting each restart."""

    def __init__(self, *, base_delay: float, relay: OutputRelay, start) -> None:
        self.base_delay = base_delay
        self.relay = relay
        self.start = start
        self.restarts = dict.fromkeys(RESTARTED_PROCESSES, 0)
        self._in_a_row = dict.fromkeys(RESTARTED_PROCESSES, 0)
        self._due: dict[str, float] = {}

    def check(self, processes: dict[str, subprocess.Popen], started_at: dict[str, float]) -> None:
        now = time.monotonic()
        for name in RESTARTED_PROCESSES:
            status = processes[name].poll()
            if status is None:
                continue
            if name not in self._due:
                if now - started_at[name] >= STABLE_RUN_SECONDS:
                    self._in_a_row[name] = 0
                delay = restart_delay(base=self.base_delay, restarts_in_a_row=self._in_a_row[name])
                self._due[name] = now + delay
                self.relay.say(f"The {name} stopped (exit status {status}); restarting it in {delay:g} s.")
            elif now >= self._due.pop(name):
                self._in_a_row[name] += 1
                self.restarts[name] += 1
                self.start(name)
                restart_counts_write(self.restarts)
                self.relay.say(f"Restarted the {name} (restart {self.restarts[name]} since serve started).")


class Command(BaseCommand):
    help = "Run the web server, a Celery worker and Celery beat until Ctrl-C."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument(
            "--verbose",
            action="store_true",
            help="Show the access log and the worker's and beat's info logs.",
        )
        parser.add_argument(
            "--restart-delay",
            type=float,
            default=settings.SERVE_RESTART_DELAY,
            help="Seconds before restarting a worker or beat that died, doubled for each restart in a row "
            "up to 60 (default 1, or PECKING_ORDER_RESTART_DELAY).",
        )

    def handle(
        self, *args, host: str, port: int, verbose: bool = False, restart_delay: float = 1.0, **options
    ):
        if not 1 <= port <= 65535:
            raise CommandError(f"--port must be between 1 and 65535, not {port}", returncode=2)
        if not 0 < restart_delay <= 60:
            raise CommandError(
                f"--restart-delay must be more than 0 and at most 60 seconds, not {restart_delay:g}",
                returncode=2,
            )
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            if probe.connect_ex((host, port)) == 0:
                raise CommandError(
                    f"something already listens on {host}:{port}; stop it or set PORT=<another port>",
                    returncode=2,
                )
        # var/ (database, broker, beat's schedule, demo passwords) and the database are this account's alone,
        # whatever settings module runs this (league.core.private_files).
        private_dir(settings.VAR_DIR)
        private_embedded_database(settings.DATABASES["default"])
        python = sys.executable
        manage = str(settings.BASE_DIR / "manage.py")
        beat_schedule = str(settings.VAR_DIR / "celerybeat-schedule")
        # The worker takes the default queue and the notifications queue (mail and webhooks).
        queues = f"{settings.CELERY_TASK_DEFAULT_QUEUE},{settings.NOTIFICATIONS_QUEUE}"
        level = "info" if verbose else "warning"
        celery = [python, "-m", "celery", "-A", "league"] + ([] if verbose else ["--quiet"])
        commands = {
            "web": [python, manage, "runserver", f"{host}:{port}", "--noreload"],
            "worker": [*celery, "worker", "--pool", "solo", "-l", level, "-n", "worker@%h", "-Q", queues],
            "beat": [*celery, "beat", "-l", level, "-s", beat_schedule],
        }
        environment = {**os.environ, "LOG_LEVEL": level.upper(), "PYTHONUNBUFFERED": "1"}
        environment.setdefault("SITE_URL", serve_site_url(host, port))
        relay = OutputRelay()
        processes: dict[str, subprocess.Popen] = {}
        stopping = False

        def request_stop(signum, frame):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, request_stop)
        signal.signal(signal.SIGTERM, request_stop)

        def start(name: str) -> None:
            processes[name] = subprocess.Popen(
                commands[name],
                cwd=settings.BASE_DIR,
                env=environment,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
            )
            started_at[name] = time.monotonic()
            relay.follow(processes[name])

        started_at: dict[str, float] = {}
        supervisor = Supervisor(base_delay=restart_delay, relay=relay, start=start)
        try:
            restart_counts_write(supervisor.restarts)
            for name in commands:
                start(name)
            url = f"http://{host}:{port}/"
            if self._wait_for(url, processes, lambda: stopping):
                worker_ready = self._wait_for_worker(processes, lambda: stopping)
                relay.wait_for_quiet(lambda: stopping)
                banner = serve_banner(
                    url=url,
                    admin_password=_password(admin_password_file()),
                    demo_password=_password(demo_player_password_file()),
                    worker_ready=worker_ready,
                    verbose=verbose,
                )
                relay.say(self.style.SUCCESS("\n" + banner + "\n"))
            while not stopping:
                web = processes["web"].poll()
                if web is not None:
                    raise CommandError(
                        f"the web server stopped unexpectedly (exit status {web}); "
                        "stopping the worker and beat"
                    )
                supervisor.check(processes, started_at)
                time.sleep(POLL_SECONDS)
        finally:
            self._stop_all(processes)
            restart_counts_clear()
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

    def _wait_for_worker(self, processes: dict, stopping) -> bool:
        """Whether the worker answered a ping before the start-up deadline (beat, which answers none, has
        started by then if its process still runs)."""
        deadline = time.monotonic() + STARTUP_WAIT_SECONDS
        while time.monotonic() < deadline and not stopping():
            if any(process.poll() is not None for process in processes.values()):
                return False
            if check_workers():
                return True
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
