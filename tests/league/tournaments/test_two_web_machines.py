"""Adding web machines (docs/production.md): two gunicorn processes on two ports share one PostgreSQL and one
Redis; requests alternate between them, and a result entered through one shows on the next look through the
other, the shared renderings (`league.web.tournaments.shared`) included.

Redis: `TEST_REDIS_URL` (default `redis://127.0.0.1:6379/9`), a database of this test's own: it is emptied at
the start (the test database's ids start again on every run, and so would the shared pages' versions)."""

import http.client
import json
import os
import socket
import subprocess
import sys
import time

import pytest
import redis
from django.conf import settings
from rest_framework.authtoken.models import Token

from league.tournaments import services
from tests.factories import tournaments as helpers
from tests.league.bots.workers import database_url

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/9")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def request(port: int, method: str, path: str, body: dict | None = None, headers: dict | None = None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        data = json.dumps(body).encode() if body is not None else None
        sent = {"Content-Type": "application/json", **(headers or {})} if data else dict(headers or {})
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


@pytest.fixture
def two_web_processes(transactional_db):
    redis.Redis.from_url(REDIS_URL).flushdb()
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "league.settings.local",
        "DATABASE_URL": database_url(),
        "CACHE_URL": REDIS_URL,
        "CELERY_BROKER_URL": "memory://localhost/",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "WARNING",
    }
    ports = [free_port(), free_port()]
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "league.wsgi", "--workers", "1", "-b", f"127.0.0.1:{port}"],
            cwd=settings.BASE_DIR,
            env=environment,
            stderr=subprocess.DEVNULL,
        )
        for port in ports
    ]
    try:
        for port in ports:
            deadline = time.monotonic() + 60
            while True:
                try:
                    request(port, "GET", "/tournaments/")
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)
        yield ports
    finally:
        for process in processes:
            process.terminate()
            process.wait(30)


@pytest.mark.postgres
def test_a_result_entered_through_one_web_process_shows_on_the_next_look_through_the_other(
    two_web_processes, organizer
):
    first, second = two_web_processes
    tournament = helpers.make_tournament(organizer, 4, table_size=2, rounds=2, rated=False)[0]
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    tables = list(round_row.tables.order_by("number"))
    round_url = round_row.get_absolute_url()
    token = Token.objects.create(user=organizer).key
    # Both processes store the page of this state in the one Redis: the second serves the first's copy.
    status, headers, page = request(first, "GET", round_url)
    assert status == 200
    assert request(second, "GET", round_url)[2] == page
    etag, previous = headers["ETag"], page
    assert request(second, "GET", round_url, headers={"If-None-Match": etag})[0] == 304
    for number, (enter, look) in enumerate([(first, second), (second, first)]):
        status, _, _ = request(
            enter,
            "POST",
            f"/api/tournament-tables/{tables[number].pk}/result/",
            {"expected_version": 0, "places": [1, 2]},
            {"Authorization": f"Token {token}"},
        )
        assert status == 201
        status, headers, page = request(look, "GET", round_url, headers={"If-None-Match": etag})
        assert status == 200 and headers["ETag"] != etag
        assert page != previous and page.count(b'<span class="badge finished">done</span>') == number + 1
        etag, previous = headers["ETag"], page
        assert request(enter, "GET", round_url)[2] == page  # the other process serves the same new state
