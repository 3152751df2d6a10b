"""`manage.py serve` (what `make run` starts): web, worker and beat come up together;
Ctrl-C stops them all."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from django.conf import settings

from tests.league.test_worker import database_url

WAIT_SECONDS = 90


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_serve_starts_web_worker_and_beat_and_ctrl_c_leaves_no_process():
    port = free_port()
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "league.settings.test",
        "DATABASE_URL": database_url(),
        "PECKING_ORDER_TEST_RUN_DIR": str(settings.TEST_RUN_DIR),
    }
    serve = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port)],
        cwd=settings.BASE_DIR,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    group = os.getpgid(serve.pid)
    try:
        health = None
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline and health is None:
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/health/?format=json", timeout=5
                ) as response:
                    health = json.load(response)
            except OSError:
                time.sleep(0.5)
        assert health is not None and health["ok"] is True
        assert len(health["workers"]["names"]) >= 1

        os.killpg(group, signal.SIGINT)  # what Ctrl-C in the terminal does
        output, _ = serve.communicate(timeout=WAIT_SECONDS)
    finally:
        if group_alive(group):
            os.killpg(group, signal.SIGKILL)
    assert f"Pecking Order is running at http://127.0.0.1:{port}/" in output
    assert "Stopped the web server, the worker and beat." in output
    assert serve.returncode == 0
    deadline = time.monotonic() + 10
    while group_alive(group) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not group_alive(group), "a process of `serve` outlived Ctrl-C"
