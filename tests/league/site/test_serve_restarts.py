"""`manage.py serve` keeps the event going when its worker dies: it restarts it after a backoff, says so,
and counts it on /health/, while the web server answers every request; when the web server itself dies,
`serve` stops the rest and exits non-zero."""

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from league.site.restarts import restart_counts_clear, restart_counts_write, restart_delay
from tests.league.site.test_serve import free_port, group_alive
from tests.league.test_worker import database_url

WAIT_SECONDS = 120


def test_the_backoff_doubles_from_the_base_delay_up_to_a_minute():
    assert [restart_delay(base=1, restarts_in_a_row=n) for n in range(8)] == [1, 2, 4, 8, 16, 32, 60, 60]
    assert [restart_delay(base=0.1, restarts_in_a_row=n) for n in range(3)] == [0.1, 0.2, 0.4]


def test_health_shows_the_restart_count_that_serve_shares(client, db, monkeypatch):
    monkeypatch.setattr("league.site.health.check_workers", lambda: ["celery@w1"])
    restart_counts_clear()
    assert client.get("/health/?format=json").json()["restarts"] is None
    assert "Restarts by" not in client.get("/health/").content.decode()

    restart_counts_write({"worker": 2, "beat": 0})
    try:
        assert client.get("/health/?format=json").json()["restarts"] == {"worker": 2, "beat": 0}
        assert "worker 2, beat 0" in client.get("/health/").content.decode()
    finally:
        restart_counts_clear()


class Serve:
    """`manage.py serve` on a free port with the restart delay injected, in a process group of its own."""

    def __init__(self):
        self.port = free_port()
        environment = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "league.settings.test",
            "DATABASE_URL": database_url(),
            "PECKING_ORDER_TEST_RUN_DIR": str(settings.TEST_RUN_DIR),
            "PECKING_ORDER_RESTART_DELAY": "0.1",
        }
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--port", str(self.port)],
            cwd=settings.BASE_DIR,
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        self.group = os.getpgid(self.process.pid)

    def health(self, timeout: float = 10) -> tuple[int, dict]:
        url = f"http://127.0.0.1:{self.port}/health/?format=json"
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:  # 503 while no worker answers
            return error.code, json.load(error)

    def wait_until_healthy(self) -> dict:
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            try:
                status, health = self.health()
            except OSError:
                time.sleep(0.5)
                continue
            if status == 200:
                return health
            time.sleep(0.5)
        raise AssertionError("serve never became healthy")

    def child(self, marker: str) -> int:
        """The pid of serve's child process whose command line holds `marker`."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
        for pid in children:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            if marker.encode() in command:
                return int(pid)
        raise AssertionError(f"serve has no {marker} process")

    def stop(self) -> str:
        if self.process.poll() is None:
            os.killpg(self.group, signal.SIGINT)
        try:
            output, _ = self.process.communicate(timeout=WAIT_SECONDS)
        finally:
            if group_alive(self.group):
                os.killpg(self.group, signal.SIGKILL)
        return output


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_serve_restarts_a_killed_worker_while_the_web_answers_every_request():
    serve = Serve()
    try:
        health = serve.wait_until_healthy()
        assert health["restarts"] == {"worker": 0, "beat": 0}
        worker = serve.child("worker")
        os.kill(worker, signal.SIGKILL)

        answers = []
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            status, health = serve.health()  # raises if the web does not answer
            answers.append(status)
            if status == 200 and health["restarts"]["worker"] == 1:
                break
            time.sleep(0.2)
        assert health["restarts"] == {"worker": 1, "beat": 0}
        assert health["workers"]["names"]
        assert set(answers) <= {200, 503}
        assert serve.child("worker") != worker
        assert serve.process.poll() is None
    finally:
        output = serve.stop()
    assert "The worker stopped (exit status -9); restarting it in 0.1 s." in output
    assert "Restarted the worker (restart 1 since serve started)." in output
    assert "Stopped the web server, the worker and beat." in output
    assert serve.process.returncode == 0
    assert not Path(settings.SERVE_RESTARTS_FILE).exists()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_serve_exits_non_zero_when_the_web_server_dies():
    serve = Serve()
    try:
        serve.wait_until_healthy()
        os.kill(serve.child("runserver"), signal.SIGKILL)
        serve.process.wait(timeout=WAIT_SECONDS)
    finally:
        output = serve.stop()
    assert serve.process.returncode == 1
    assert "the web server stopped unexpectedly (exit status -9); stopping the worker and beat" in output
    deadline = time.monotonic() + 10
    while group_alive(serve.group) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not group_alive(serve.group), "the worker or beat outlived the web server"


@pytest.mark.parametrize("delay", ["0", "-1", "61", "nan"])
def test_serve_refuses_a_restart_delay_outside_a_minute(delay):
    with pytest.raises(CommandError) as refused:
        call_command("serve", "--restart-delay", delay)
    assert refused.value.returncode == 2
    assert str(refused.value) == (
        f"--restart-delay must be more than 0 and at most 60 seconds, not {float(delay):g}"
    )
