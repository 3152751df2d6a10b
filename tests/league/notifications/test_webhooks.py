"""Outbound webhooks: signed deliveries checked by a real receiving server, retries logged attempt by
attempt, and the request-forgery rules (refused addresses, pinned connection, no redirects, capped reads)."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import socket
import threading
import time
from unittest import mock

import pytest
from django.test import Client

from league.bots.models import BotLeague
from league.bots.services.leagues import league_start
from league.bots.services.work import work_play
from league.core.errors import Forbidden, NotFound, UserError
from league.matches.models import MatchSeat
from league.notifications import delivery, webhooks
from league.notifications.models import Attempt, Delivery, Webhook
from league.tournaments import services as tournament_services
from league.tournaments.services import floor
from tests.factories import StaffFactory, UserFactory
from tests.league.bots.conftest import make_bots, make_league

TOURNAMENT_EVENTS = ["table.ready", "result.recorded", "result.disputed", "tournament.finished"]


def verify(secret: str, headers, body: bytes, now: float | None = None) -> bool:
    """The receiver's check exactly as docs/webhooks.md writes it."""
    timestamp = headers["X-PeckingOrder-Timestamp"]
    expected = (
        "sha256=" + hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    )
    fresh = abs((now or time.time()) - int(timestamp)) <= 300
    return fresh and hmac.compare_digest(expected, headers["X-PeckingOrder-Signature"])


def publish(cup, orga, callbacks):
    with callbacks(execute=True):
        round_row = tournament_services.round_generate(tournament=cup, by=orga)
        return tournament_services.round_publish(round_row=round_row, by=orga)


def hook(cup, orga, url, events=("table.ready",)) -> Webhook:
    return webhooks.webhook_create(by=orga, url=url, events=list(events), tournament=cup)


def test_deliveries_are_signed_and_a_real_receiver_verifies_them(
    eager, allow_loopback, cup, orga, receiver, django_capture_on_commit_callbacks
):
    webhook = hook(cup, orga, receiver.url, TOURNAMENT_EVENTS)
    receiver.check = lambda headers, body: 204 if verify(webhook.secret, headers, body) else 401
    round_row = publish(cup, orga, django_capture_on_commit_callbacks)
    table = round_row.tables.get()
    with django_capture_on_commit_callbacks(execute=True):
        version = tournament_services.table_result(
            table=table, by=orga, expected_version=0, places=[2, 1, 3, 4]
        )
    assert [item["headers"]["X-PeckingOrder-Event"] for item in receiver.received] == [
        "table.ready",
        "result.recorded",
    ]
    first, second = receiver.received
    assert first["path"] == "/hooks/pecking-order"
    assert first["headers"]["Content-Type"] == "application/json"
    assert first["headers"]["Host"] == f"127.0.0.1:{receiver.port}"
    ready, recorded = receiver.bodies()
    deliveries = list(Delivery.objects.order_by("id"))
    assert first["headers"]["X-PeckingOrder-Delivery"] == str(deliveries[0].delivery_id) == ready["delivery"]
    assert ready["event"] == "table.ready"
    assert ready["data"] == {
        "tournament": {
            "id": cup.pk,
            "slug": "club-cup",
            "name": "Club Cup",
            "game": "nacho_pile",
            "status": "running",
            "url": "/tournaments/club-cup/",
        },
        "tables": [
            {
                "id": table.pk,
                "round": 1,
                "number": 1,
                "physical_number": 1,
                "label": "",
                "match": table.match_id,
                "players": [
                    {"seat": n, "id": player.pk, "name": player.name}
                    for n, player in enumerate((user.player for user in _seated(table)), start=1)
                ],
            }
        ],
    }
    result = recorded["data"]["result"]
    assert (result["version"], result["places"], result["scores"], result["void"]) == (
        1,
        [2, 1, 3, 4],
        None,
        False,
    )
    assert recorded["data"]["table"]["id"] == table.pk
    assert [(d.event, d.status) for d in deliveries] == [
        ("table.ready", "delivered"),
        ("result.recorded", "delivered"),
    ]
    assert list(Attempt.objects.order_by("id").values_list("number", "status_code", "error")) == [
        (1, 204, ""),
        (1, 204, ""),
    ]
    assert version.pk == table.pk  # table_result returns the table


def _seated(table):
    players = (
        MatchSeat.objects.filter(match_id=table.match_id)
        .order_by("seat")
        .values_list("player__user", flat=True)
    )
    return [UserFactory._meta.model.objects.get(pk=pk) for pk in players]


def test_a_receiver_that_fails_twice_and_then_succeeds_gets_three_logged_attempts(
    eager, allow_loopback, cup, orga, receiver, django_capture_on_commit_callbacks
):
    webhook = hook(cup, orga, receiver.url)
    receiver.answers = [(500, {}, b"boom"), (503, {}, b"busy"), (200, {}, b"ok")]
    publish(cup, orga, django_capture_on_commit_callbacks)
    item = Delivery.objects.get(webhook=webhook)
    assert item.status == "delivered"
    assert list(item.attempts.values_list("number", "status_code", "excerpt")) == [
        (1, 500, "boom"),
        (2, 503, "busy"),
        (3, 200, "ok"),
    ]
    ids = {entry["headers"]["X-PeckingOrder-Delivery"] for entry in receiver.received}
    assert (len(receiver.received), ids) == (3, {str(item.delivery_id)})
    assert len({entry["body"] for entry in receiver.received}) == 1  # the same bytes every time
    assert all(verify(webhook.secret, entry["headers"], entry["body"]) for entry in receiver.received)


def test_a_receiver_that_always_fails_ends_failed_after_the_last_retry(
    eager, allow_loopback, cup, orga, receiver, django_capture_on_commit_callbacks
):
    webhook = hook(cup, orga, receiver.url)
    receiver.answers = [(500, {}, b"")]
    round_row = publish(cup, orga, django_capture_on_commit_callbacks)
    item = Delivery.objects.get(webhook=webhook)
    assert (item.status, item.attempts.count(), round_row.status) == ("failed", 7, "published")


def test_loopback_is_refused_when_not_allow_listed_and_nothing_is_sent(
    eager, cup, orga, receiver, django_capture_on_commit_callbacks
):
    webhook = hook(cup, orga, receiver.url)
    publish(cup, orga, django_capture_on_commit_callbacks)
    item = Delivery.objects.get(webhook=webhook)
    assert item.status == "refused"
    assert list(item.attempts.values_list("status_code", "error")) == [
        (None, "127.0.0.1 resolves to 127.0.0.1, a loopback address: refused")
    ]
    assert receiver.received == []


def answers(*addresses):
    def getaddrinfo(host, port, *args, **kwargs):
        return [
            (
                socket.AF_INET6 if ":" in address else socket.AF_INET,
                socket.SOCK_STREAM,
                6,
                "",
                (address, port) if ":" not in address else (address, port, 0, 0),
            )
            for address in addresses
        ]

    return getaddrinfo


@pytest.mark.parametrize(
    "address, why",
    [
        ("127.0.0.1", "a loopback address"),
        ("10.1.2.3", "a private address"),
        ("192.168.0.10", "a private address"),
        ("169.254.169.254", "a cloud metadata address"),
        ("169.254.10.10", "a link-local address"),
        ("::1", "a loopback address"),
        ("::ffff:127.0.0.1", "a loopback address"),
        ("::ffff:169.254.169.254", "a cloud metadata address"),
        ("fd00:ec2::254", "a cloud metadata address"),
        ("fe80::1", "a link-local address"),
        ("0.0.0.0", "an unspecified address"),
        ("224.0.0.1", "a multicast address"),
        ("100.64.0.1", "not a public address"),
        ("240.0.0.1", "a private address"),  # reserved (Python counts 240/4 as private)
    ],
)
def test_a_name_resolving_to_a_forbidden_address_is_refused_before_connecting(address, why):
    with (
        mock.patch("socket.getaddrinfo", side_effect=answers(address)) as resolve,
        mock.patch("socket.create_connection", side_effect=AssertionError("connected")),
    ):
        attempt = delivery.post("https://hooks.example.com/in", b"{}", {})
    assert (attempt.refused, attempt.status_code) == (True, None)
    shown = str(ipaddress.ip_address(address))  # ::ffff:127.0.0.1 is written ::ffff:7f00:1
    assert attempt.error == f"hooks.example.com resolves to {shown}, {why}: refused"
    assert resolve.call_count == 1


def test_one_forbidden_answer_among_public_ones_refuses_the_name():
    with (
        mock.patch("socket.getaddrinfo", side_effect=answers("93.184.215.14", "127.0.0.1")),
        mock.patch("socket.create_connection", side_effect=AssertionError("connected")),
    ):
        attempt = delivery.post("http://rebind.example/", b"{}", {})
    assert attempt.error == "rebind.example resolves to 127.0.0.1, a loopback address: refused"


def test_the_connection_goes_to_the_checked_address_with_the_name_as_host(allow_loopback, receiver):
    """The name is resolved once (to the allow-listed receiver); the request names the host it was sent to."""
    with mock.patch("socket.getaddrinfo", side_effect=answers("127.0.0.1")) as resolve:
        attempt = delivery.post(
            f"http://hooks.example.com:{receiver.port}/in?x=1", b'{"a":1}', {"X-Test": "1"}
        )
    assert (attempt.status_code, attempt.address) == (204, "127.0.0.1")
    # The name once; then the socket is connected to the checked address itself (no look-up at all).
    assert [call.args[0] for call in resolve.call_args_list] == ["hooks.example.com"]
    (got,) = receiver.received
    assert (got["path"], got["headers"]["Host"], got["body"]) == (
        "/in?x=1",
        f"hooks.example.com:{receiver.port}",
        b'{"a":1}',
    )


def test_a_redirect_is_not_followed(allow_loopback, receiver):
    other = type(receiver)()
    try:
        receiver.answers = [(302, {"Location": other.url}, b"")]
        attempt = delivery.post(receiver.url, b"{}", {})
    finally:
        other.close()
    assert (attempt.ok, attempt.status_code) == (False, 302)
    assert attempt.error == f"redirect to {other.url} not followed"
    assert (len(receiver.received), other.received) == (1, [])


def test_an_oversized_response_is_read_up_to_the_cap(allow_loopback, receiver):
    receiver.answers = [(200, {}, b"x" * (3 * 1024 * 1024))]
    attempt = delivery.post(receiver.url, b"{}", {})
    assert (attempt.status_code, attempt.response_bytes, attempt.truncated) == (200, 65536, True)
    assert attempt.excerpt == "x" * 500


def test_a_receiver_that_does_not_answer_times_out(allow_loopback):
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(1)  # accepts the connection, never answers
    try:
        attempt = delivery.post(f"http://127.0.0.1:{silent.getsockname()[1]}/", b"{}", {}, timeout=0.5)
    finally:
        silent.close()
    assert (attempt.status_code, attempt.error) == (None, "TimeoutError: timed out")


class Dripper:
    """A receiver on 127.0.0.1 that reads each request, then answers one byte every `interval` seconds: a
    status line and a header of `length` bytes in all (the rest of the answer after them), as a receiver that
    wants to hold a delivery would. With `tls_stall` it reads a TLS client hello and never answers; with
    `body` it sends its status line and headers at once and drips a body of `length` bytes. `cut` counts the
    connections the sender closed before the answer was out, `sent` the bytes sent on each."""

    ANSWER_END = b"\r\nContent-Length: 0\r\n\r\n"

    def __init__(self, interval: float = 0.2, length: int = 60, tls_stall: bool = False, body: bool = False):
        self.interval, self.length, self.tls_stall, self.body = interval, length, tls_stall, body
        self.cut, self.sent = 0, []
        self.ended = threading.Condition()
        self.done = threading.Event()
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(4)
        self.listener.settimeout(0.1)
        self.port = self.listener.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while not self.done.is_set():
            try:
                conn, _ = self.listener.accept()
            except TimeoutError:
                continue
            with conn:
                sent, cut = self._answer(conn)
            with self.ended:
                self.sent.append(sent)
                self.cut += cut
                self.ended.notify_all()

    def _closed_by_sender(self, conn) -> bool:
        """Wait one interval; True if the sender closed the connection meanwhile."""
        conn.settimeout(self.interval)
        try:
            return conn.recv(4096) == b""
        except TimeoutError:
            return False
        except OSError:
            return True

    def _answer(self, conn) -> tuple[int, bool]:
        if self.tls_stall:
            while not self.done.is_set():
                if self._closed_by_sender(conn):
                    return 0, True
            return 0, False
        conn.recv(65536)
        if self.body:
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % self.length)
            head = b""
        else:
            head = b"HTTP/1.1 200 OK\r\nX-Drip: "
        answer = head + b"x" * (self.length - len(head))
        for sent, byte in enumerate(answer):
            if self._closed_by_sender(conn):
                return sent, True
            try:
                conn.sendall(bytes([byte]))
            except OSError:
                return sent, True
        if not self.body:
            conn.sendall(self.ANSWER_END)
        return len(answer), False

    def wait_for(self, connections: int) -> None:
        """Until `connections` connections have ended (at most 30 s)."""
        with self.ended:
            self.ended.wait_for(lambda: len(self.sent) >= connections, timeout=30)

    def close(self):
        self.done.set()
        self.thread.join(5)
        self.listener.close()


@pytest.fixture
def dripper():
    server = Dripper()
    yield server
    server.close()


def test_a_receiver_dripping_its_headers_is_cut_off_at_the_deadline_and_stored_as_timed_out(
    settings, allow_loopback, cup, orga, dripper
):
    """A byte every 0.2 s keeps every recv well inside its 5 s timeout; the 0.5 s deadline of the whole
    attempt still ends it, and the delivery is stored as timed out, then failed at its last try."""
    settings.WEBHOOK_DEADLINE_SECONDS = 0.5
    webhook = hook(cup, orga, f"http://127.0.0.1:{dripper.port}/in")
    (pk,) = webhooks.deliveries_create(event="table.ready", key="k", data={}, tournament_id=cup.pk)
    assert webhooks.delivery_attempt(delivery_pk=pk, final=False) == "pending"
    assert webhooks.delivery_attempt(delivery_pk=pk, final=True) == "failed"
    item = Delivery.objects.get(pk=pk)
    assert (item.webhook, item.status) == (webhook, "failed")
    timed_out = "timed out: no answer within the 0.5 s deadline"
    assert list(
        item.attempts.values_list("number", "status_code", "error", "address", "response_bytes", "truncated")
    ) == [(1, None, timed_out, "127.0.0.1", 0, False), (2, None, timed_out, "127.0.0.1", 0, False)]
    dripper.wait_for(2)
    # Both connections were shut before their 60 bytes of status line and header were out.
    assert (dripper.cut, len(dripper.sent)) == (2, 2) and max(dripper.sent) < dripper.length


def test_an_answer_whose_body_drips_keeps_its_status_and_is_marked_cut_at_the_deadline(allow_loopback):
    """The receiver said 200 at once: the delivery counts, and what was read of the body is kept."""
    slow_body = Dripper(body=True)
    try:
        attempt = delivery.post(f"http://127.0.0.1:{slow_body.port}/in", b"{}", {}, deadline=0.5)
        slow_body.wait_for(1)
    finally:
        slow_body.close()
    assert (attempt.ok, attempt.status_code, attempt.error, attempt.truncated) == (True, 200, "", True)
    assert attempt.excerpt == "x" * attempt.response_bytes and attempt.response_bytes < slow_body.length
    # The sender shut the connection before the body was out (a byte may have been in flight).
    assert slow_body.cut == 1 and attempt.response_bytes <= slow_body.sent[0] < slow_body.length


def test_a_receiver_that_stalls_the_tls_handshake_is_cut_off_at_the_deadline(allow_loopback):
    stall = Dripper(tls_stall=True)
    try:
        attempt = delivery.post(f"https://127.0.0.1:{stall.port}/in", b"{}", {}, deadline=0.5)
        stall.wait_for(1)
    finally:
        stall.close()
    assert (attempt.status_code, attempt.refused, attempt.error) == (
        None,
        False,
        "timed out: no answer within the 0.5 s deadline",
    )
    assert (stall.cut, stall.sent) == (1, [0])


def test_a_look_up_slower_than_the_deadline_is_a_timed_out_attempt_not_a_refusal():
    release = threading.Event()

    def slow(*args, **kwargs):
        release.wait(30)
        return answers("93.184.215.14")(*args, **kwargs)

    try:
        with mock.patch("socket.getaddrinfo", side_effect=slow):
            attempt = delivery.post("https://slow-dns.example/in", b"{}", {}, deadline=0.3)
    finally:
        release.set()
    assert (attempt.status_code, attempt.refused, attempt.address, attempt.error) == (
        None,
        False,
        "",
        "timed out: no answer within the 0.3 s deadline",
    )


@pytest.mark.parametrize(
    "url, message",
    [
        ("file:///etc/passwd", "the URL must start with http:// or https://, not file:"),
        ("gopher://127.0.0.1:6379/_FLUSHALL", "the URL must start with http:// or https://, not gopher:"),
        ("javascript:alert(1)", "the URL must start with http:// or https://, not javascript:"),
        ("ftp://example.com/x", "the URL must start with http:// or https://, not ftp:"),
        ("//example.com/x", "the URL must start with http:// or https://, not no scheme"),
        ("http:///nohost", "the URL has no host name"),
        ("https://user:pw@example.com/", "the URL must not carry a user name or password"),
        ("https://example.com:99999/", "the URL is not valid: Port out of range 0-65535"),
        ("https://exa mple.com/", "the URL contains spaces or control characters"),
        ("", "enter the URL to send events to (http:// or https://)"),
    ],
)
def test_registration_refuses_what_is_not_an_http_url(cup, orga, url, message):
    with pytest.raises(UserError) as refused:
        hook(cup, orga, url)
    assert (refused.value.message, refused.value.field) == (message, "url")
    assert not Webhook.objects.exists()


def test_registration_checks_the_events_for_its_scope(cup, orga):
    with pytest.raises(UserError) as refused:
        hook(cup, orga, "https://example.com/", ["league.round_rated"])
    assert refused.value.message == (
        "unknown event 'league.round_rated' here: choose among table.ready, result.recorded, "
        "result.disputed, judge.called, tournament.finished"
    )


def test_a_non_organizer_cannot_register_for_a_tournament_nor_a_non_staff_for_a_league(cup, people):
    with pytest.raises(Forbidden) as refused:
        hook(cup, people[0], "https://example.com/")
    assert (
        refused.value.message == "only the tournament's organizers (and site staff) can register its webhooks"
    )
    with mock.patch.object(BotLeague, "pk", 1), pytest.raises(Forbidden) as refused:
        webhooks.webhook_create(
            by=people[0],
            url="https://example.com/",
            events=["league.round_rated"],
            league=BotLeague(name="L"),
        )
    assert refused.value.message == "only site staff can register a bot league's webhooks"
    assert not Webhook.objects.exists()


def test_the_page_registers_shows_the_secret_to_its_owner_only_and_hides_deliveries_from_others(
    cup, orga, people
):
    client = Client()
    client.force_login(orga)
    response = client.post(
        "/webhooks/", {"scope": f"t:{cup.pk}", "url": "https://example.com/in", "events": ["table.ready"]}
    )
    webhook = Webhook.objects.get()
    assert (response.status_code, response["Location"]) == (302, f"/webhooks/{webhook.pk}/")
    assert (webhook.owner, webhook.events, webhook.url) == (orga, ["table.ready"], "https://example.com/in")
    page = client.get(f"/webhooks/{webhook.pk}/").content.decode()
    assert f'<code id="secret" class="secret">{webhook.secret}</code>' in page
    assert webhook.secret.startswith("whsec_") and len(webhook.secret) == 54

    other = Client()
    other.force_login(people[0])
    assert other.get(f"/webhooks/{webhook.pk}/").status_code == 404
    assert other.post(f"/webhooks/{webhook.pk}/delete/").status_code == 404
    assert webhook.secret not in other.get("/webhooks/").content.decode()
    with pytest.raises(NotFound):
        webhooks.owned_webhook(by=people[0], webhook_id=webhook.pk)
    assert (
        Client().get(f"/webhooks/{webhook.pk}/")["Location"]
        == f"/accounts/login/?next=/webhooks/{webhook.pk}/"
    )

    attack = other.post(
        "/webhooks/", {"scope": f"t:{cup.pk}", "url": "https://evil.example/", "events": ["table.ready"]}
    )
    assert attack.status_code == 403
    assert (
        "only the tournament&#x27;s organizers (and site staff) can register its webhooks"
        in attack.content.decode()
    )
    refused = client.post(
        "/webhooks/", {"scope": f"t:{cup.pk}", "url": "file:///etc/passwd", "events": ["table.ready"]}
    )
    assert refused.status_code == 400
    assert "the URL must start with http:// or https://, not file:" in refused.content.decode()
    assert Webhook.objects.count() == 1
    assert client.post(f"/webhooks/{webhook.pk}/delete/").status_code == 302
    assert not Webhook.objects.exists()


def test_a_delivery_body_is_json_with_its_event_and_id(
    eager, allow_loopback, cup, orga, receiver, django_capture_on_commit_callbacks
):
    hook(cup, orga, receiver.url)
    publish(cup, orga, django_capture_on_commit_callbacks)
    body = receiver.received[0]["body"]
    assert json.loads(body)["event"] == "table.ready"
    assert set(json.loads(body)) == {"event", "delivery", "created_at", "data"}


def test_a_bot_league_sends_each_round_once_it_is_played_and_rated(
    db, eager, allow_loopback, receiver, django_capture_on_commit_callbacks
):
    staff = StaffFactory(username="staffer")
    league = make_league(staff, make_bots(staff))
    webhook = webhooks.webhook_create(
        by=staff, url=receiver.url, events=["league.round_rated"], league=league
    )
    with (
        mock.patch("league.bots.services.leagues.queue_work"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        league_start(league_id=league.pk)
        work_play(league_id=league.pk, worker="test")
    bodies = receiver.bodies()
    assert [(body["event"], body["data"]["round"]) for body in bodies] == [
        ("league.round_rated", n) for n in (1, 2, 3)
    ]
    last = bodies[-1]["data"]
    assert last["league"] == {
        "id": league.pk,
        "name": league.name,
        "game": league.game_id,
        "status": "finished",
        "url": f"/bots/{league.pk}/",
    }
    assert sorted(row["matches"] for row in last["standings"]) == [6] * 6  # its last round finished it
    assert Delivery.objects.filter(webhook=webhook, status="delivered").count() == 3


def test_a_judge_call_is_delivered_as_judge_called(
    eager, allow_loopback, cup, orga, people, receiver, django_capture_on_commit_callbacks
):
    hook(cup, orga, receiver.url, events=("judge.called",))
    round_row = publish(cup, orga, django_capture_on_commit_callbacks)
    table = round_row.tables.get()
    ada = people[0]
    with django_capture_on_commit_callbacks(execute=True):
        call = floor.judge_call_open(table=table, by=ada)
    [body] = receiver.bodies()
    assert body["event"] == "judge.called"
    assert body["data"]["call"] == {
        "id": call.pk,
        "caller": {"id": call.caller_id, "name": "Ada"},
        "opened_at": call.opened_at.isoformat(),
    }
    assert (body["data"]["tournament"]["slug"], body["data"]["table"]["number"]) == ("club-cup", 1)
