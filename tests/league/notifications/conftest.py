"""Notification fixtures: Celery tasks run eagerly (as a worker would, errors kept in the task), a 4-seat
tournament of people with accounts and email addresses, and a real HTTP server that receives webhooks."""

from __future__ import annotations

import contextlib
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from league.celery import app
from league.tournaments import services as tournament_services
from tests.factories import PlayerFactory, StaffFactory, UserFactory

NAMES = ("Ada", "Bea", "Cal", "Dov")


@pytest.fixture
def eager():
    """Tasks run at once in this process, as a worker would run them: retries included, errors not raised."""
    before = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, False
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = before


@pytest.fixture
def orga(db):
    return UserFactory(username="orga", email="orga@example.com")


@pytest.fixture
def people(db):
    """Users ada, bea, cal, dov (with mail addresses) owning the players Ada, Bea, Cal and Dov."""
    users = []
    for name in NAMES:
        user = UserFactory(username=name.lower(), email=f"{name.lower()}@example.com")
        PlayerFactory(name=name, user=user)
        users.append(user)
    return users


@pytest.fixture
def cup(orga, people):
    """'Club Cup', one round of Nacho Pile at one table of 4,
    created by staff and organized by orga, started."""
    staff = StaffFactory(username="staff", email="staff@example.com")
    tournament = tournament_services.tournament_create(
        created_by=staff,
        name="Club Cup",
        game_id="nacho_pile",
        format="swiss",
        table_size=4,
        rounds=1,
        rated=False,
    )
    tournament_services.organizer_add(tournament=tournament, by=staff, username="orga")
    for seed, user in enumerate(people, start=1):
        tournament_services.registration_add(
            tournament=tournament, by=staff, player_id=user.player.pk, seed=seed
        )
    tournament_services.tournament_start(tournament=tournament, by=orga)
    tournament.refresh_from_db()
    return tournament


class Receiver:
    """A webhook receiver on 127.0.0.1: answers each POST with the next of `answers` (status, headers, body;
    the last one repeats) and keeps what it got."""

    def __init__(self):
        self.answers: list[tuple[int, dict[str, str], bytes]] = [(204, {}, b"")]
        self.received: list[dict] = []
        self.check = None  # a callable (headers, body) -> status that overrides the answer's status
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                receiver.received.append({"path": self.path, "headers": dict(self.headers), "body": body})
                index = min(len(receiver.received), len(receiver.answers)) - 1
                status, headers, payload = receiver.answers[index]
                if receiver.check is not None:
                    status = receiver.check(self.headers, body)
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                with contextlib.suppress(OSError):  # the sender stopped reading (the response cap)
                    self.wfile.write(payload)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/hooks/pecking-order"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def bodies(self) -> list[dict]:
        return [json.loads(item["body"]) for item in self.received]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    server = Receiver()
    yield server
    server.close()


@pytest.fixture
def allow_loopback(settings):
    settings.WEBHOOK_ALLOWED_ADDRESSES = ["127.0.0.1/32"]
