"""One signed POST to a webhook URL, safe against request forgery (docs/webhooks.md, "Safety").

- The URL must be http or https with a host name, no user name or password (`check_url`, also run when
  the webhook is registered).
- At send time the host is resolved once (`socket.getaddrinfo`); every address it resolves to must be a
  public one: loopback, private, shared (CGNAT), link-local, multicast, reserved and unspecified addresses
  are refused, and so are the cloud metadata addresses (169.254.169.254, fd00:ec2::254), whether written as
  IPv4 or as IPv4-mapped or IPv4-compatible IPv6. Addresses in `settings.WEBHOOK_ALLOWED_ADDRESSES`
  (networks, empty by default; tests allow 127.0.0.1) are let through.
- The connection goes to the address that was checked (never a second resolution); the request carries the
  URL's host name (Host header, and the TLS server name for https, whose certificate is verified).
- No redirect is followed (a 3xx is a failed attempt); every socket operation times out after
  `TIMEOUT_SECONDS`; at most `MAX_RESPONSE_BYTES` of the response are read.
- One deadline bounds the whole attempt, from the look-up to the last byte read (`DEADLINE_SECONDS`, or
  `settings.WEBHOOK_DEADLINE_SECONDS`): a watchdog thread shuts the socket down when it passes, so a receiver
  that drips its status line and headers a byte at a time (each `recv` well inside its own timeout) is cut
  off there whatever runs the code (any Celery pool, solo included, or a plain process). A look-up still
  running at the deadline is abandoned in its thread. An attempt cut off before the status line is a
  timeout; one cut off while reading the body of an answer keeps the answer's status, marked truncated.

Pure of the database: `post` takes the URL, body and headers and returns an `Attempt`.
"""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from typing import cast
from urllib.parse import urlsplit

from django.conf import settings

from league.core.errors import UserError

TIMEOUT_SECONDS = 5.0
DEADLINE_SECONDS = 10.0
MAX_RESPONSE_BYTES = 64 * 1024
EXCERPT_CHARS = 500
MAX_URL_LENGTH = 500
METADATA_ADDRESSES = frozenset(
    {ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254")}
)

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class Refused(Exception):
    """The URL may not be called (a scheme or an address the rules refuse); retrying will not help."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str  # with its query


@dataclass
class Attempt:
    """What one POST did: a status code (any, 3xx included) or an error, how long it took, what it read."""

    status_code: int | None = None
    error: str = ""
    address: str = ""
    duration_ms: int = 0
    response_bytes: int = 0
    truncated: bool = False
    excerpt: str = ""
    refused: bool = False

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


def check_url(url: object) -> Target:
    """The parts of `url`, or UserError (field `url`) if it is not an http(s) URL with a host name."""
    if not isinstance(url, str) or not url.strip():
        raise UserError("enter the URL to send events to (http:// or https://)", field="url")
    url = url.strip()
    if len(url) > MAX_URL_LENGTH:
        raise UserError(f"the URL is longer than {MAX_URL_LENGTH} characters", field="url")
    if any(ord(char) < 33 or ord(char) == 127 for char in url):
        raise UserError("the URL contains spaces or control characters", field="url")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise UserError(f"the URL is not valid: {error}", field="url") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise UserError(
            f"the URL must start with http:// or https://, not {scheme + ':' if scheme else 'no scheme'}",
            field="url",
        )
    if not parts.hostname:
        raise UserError("the URL has no host name", field="url")
    if parts.username is not None or parts.password is not None:
        raise UserError("the URL must not carry a user name or password", field="url")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(scheme, parts.hostname, port or (443 if scheme == "https" else 80), path)


def _plain(address: IPAddress) -> IPAddress:
    """The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or IPv4-compatible (::a.b.c.d) IPv6 one."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return address.ipv4_mapped
        if address.sixtofour is not None:
            return address.sixtofour
        if int(address) >> 32 == 0 and int(address) > 1:  # ::a.b.c.d (deprecated IPv4-compatible)
            return ipaddress.IPv4Address(int(address))
    return address


def allowed_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [
        ipaddress.ip_network(net, strict=False) for net in getattr(settings, "WEBHOOK_ALLOWED_ADDRESSES", ())
    ]


def refusal(address: IPAddress) -> str | None:
    """Why `address` may not be called, or None if it may."""
    if any(address in net for net in allowed_networks()):
        return None
    for candidate in dict.fromkeys((_plain(address), address)):  # the embedded IPv4 address first
        if candidate in METADATA_ADDRESSES:
            return "a cloud metadata address"
        for flag, what in (
            ("is_unspecified", "an unspecified address"),
            ("is_loopback", "a loopback address"),
            ("is_link_local", "a link-local address"),
            ("is_multicast", "a multicast address"),
            ("is_private", "a private address"),
            ("is_reserved", "a reserved address"),
        ):
            if getattr(candidate, flag):
                return what
        if not candidate.is_global:
            return "not a public address"
    return None


def resolve(target: Target) -> IPAddress:
    """The address to connect to: the host resolved once, every answer checked; Refused otherwise."""
    try:
        answers = socket.getaddrinfo(target.host, target.port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise Refused(f"{target.host} does not resolve: {error}") from None
    addresses: list[IPAddress] = []
    for _family, _type, _proto, _name, sockaddr in answers:
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        why = refusal(address)
        if why:
            raise Refused(f"{target.host} resolves to {address}, {why}: refused")
        addresses.append(address)
    if not addresses:
        raise Refused(f"{target.host} does not resolve")
    return addresses[0]


def _resolve_within(target: Target, seconds: float) -> IPAddress:
    """`resolve(target)`, run in a thread so that a look-up slower than `seconds` cannot hold the attempt
    (the thread is left to finish on its own, and TimeoutError raised: a slow name server may be quicker at
    the next attempt, so this is no refusal)."""
    outcome: list[IPAddress | Exception] = []

    def run() -> None:
        try:
            outcome.append(resolve(target))
        except Exception as error:  # handed to the caller, which re-raises it
            outcome.append(error)

    thread = threading.Thread(target=run, name="webhook-resolve", daemon=True)
    thread.start()
    thread.join(max(seconds, 0.0))
    if not outcome:
        raise TimeoutError(f"{target.host} did not resolve within {seconds:g} s")
    if isinstance(outcome[0], Exception):
        raise outcome[0]
    return outcome[0]


class _Watchdog:
    """Ends an attempt at its deadline, whatever it is doing: a timer thread shuts the connection's socket
    down, which makes a blocked connect, send or recv (and a TLS handshake over it) return at once.

    It holds a duplicate of the socket's descriptor (`watch`), so it still reaches the socket after TLS
    wrapping has taken the original over; `stop` cancels the timer and closes the duplicate."""

    def __init__(self, seconds: float):
        self.fired = False
        self._lock = threading.Lock()
        self._socket: socket.socket | None = None
        self._timer = threading.Timer(max(seconds, 0.0), self._fire)
        self._timer.daemon = True

    def start(self) -> None:
        self._timer.start()

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._socket = sock.dup()
            if self.fired:
                self._shut()

    def _fire(self) -> None:
        with self._lock:
            self.fired = True
            self._shut()

    def _shut(self) -> None:
        if self._socket is not None:
            with contextlib.suppress(OSError):  # not connected yet, or closed: nothing is blocked on it
                self._socket.shutdown(socket.SHUT_RDWR)

    def stop(self) -> None:
        self._timer.cancel()
        with self._lock:
            if self._socket is not None:
                self._socket.close()
                self._socket = None


def _open(address: IPAddress, port: int, timeout: float, watchdog: _Watchdog) -> socket.socket:
    """A TCP connection to the checked address itself (no name look-up), watched from before it connects."""
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        watchdog.watch(sock)
        sock.settimeout(timeout)
        sock.connect((str(address), port))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except BaseException:
        sock.close()
        raise
    return sock


class _PinnedHTTP(http.client.HTTPConnection):
    """An HTTP connection to a checked address that names the URL's host in its requests."""

    def __init__(self, host: str, port: int, address: IPAddress, timeout: float, watchdog: _Watchdog):
        super().__init__(host, port, timeout=timeout)
        self.address = address
        self.watchdog = watchdog

    def connect(self) -> None:
        # The timeout is the float given to __init__, never None.
        self.sock = _open(self.address, self.port, cast(float, self.timeout), self.watchdog)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """An HTTPS connection to a checked address, verifying the certificate of the URL's host (SNI)."""

    def __init__(
        self,
        host: str,
        port: int,
        address: IPAddress,
        timeout: float,
        watchdog: _Watchdog,
        context: ssl.SSLContext,
    ):
        super().__init__(host, port, timeout=timeout, context=context)
        self.address = address
        self.watchdog = watchdog

    def connect(self) -> None:
        # The timeout is the float given to __init__, never None.
        raw = _open(self.address, self.port, cast(float, self.timeout), self.watchdog)
        context = self._context  # type: ignore[attr-defined]  # http.client's own; typeshed leaves it out
        self.sock = context.wrap_socket(raw, server_hostname=self.host)


def timed_out(deadline: float) -> str:
    """The error of an attempt cut off by its deadline before the receiver's status line was read."""
    return f"timed out: no answer within the {deadline:g} s deadline"


def post(
    url: str,
    body: bytes,
    headers: dict[str, str],
    *,
    timeout: float = TIMEOUT_SECONDS,
    deadline: float = DEADLINE_SECONDS,
) -> Attempt:
    """POST `body` to `url` once under the rules above, all of it within `deadline` seconds; never raises
    for what the far end does."""
    started = time.monotonic()
    attempt = Attempt()
    try:
        target = check_url(url)
        address = _resolve_within(target, deadline)
    except (UserError, Refused) as error:
        attempt.error = str(error)
        attempt.refused = True
        return attempt
    except TimeoutError:
        attempt.error = timed_out(deadline)
        attempt.duration_ms = round((time.monotonic() - started) * 1000)
        return attempt
    attempt.address = str(address)
    watchdog = _Watchdog(deadline - (time.monotonic() - started))  # the look-up's time counts too
    watchdog.start()
    if target.scheme == "https":
        connection: http.client.HTTPConnection = _PinnedHTTPS(
            target.host, target.port, address, timeout, watchdog, ssl.create_default_context()
        )
    else:
        connection = _PinnedHTTP(target.host, target.port, address, timeout, watchdog)
    try:
        connection.request("POST", target.path, body=body, headers=headers)
        response = connection.getresponse()
        attempt.status_code = response.status
        if 300 <= response.status < 400:
            attempt.error = (
                f"redirect to {response.getheader('Location', '(no location)')[:200]} not followed"
            )
        read, attempt.truncated = _read_capped(response, started + deadline)
        attempt.response_bytes = len(read)
        attempt.excerpt = read[:EXCERPT_CHARS].decode("utf-8", "replace")
    except (OSError, http.client.HTTPException) as error:
        attempt.error = f"{type(error).__name__}: {error}"[:500] or type(error).__name__
    finally:
        watchdog.stop()
        connection.close()
        attempt.duration_ms = round((time.monotonic() - started) * 1000)
    if watchdog.fired:
        if attempt.status_code is None:
            attempt.error = timed_out(deadline)
        else:
            attempt.truncated = True
    return attempt


def _read_capped(response: http.client.HTTPResponse, deadline: float) -> tuple[bytes, bool]:
    """At most MAX_RESPONSE_BYTES of the response body, stopping at the deadline; (bytes, cut short).

    A read blocked at the deadline is ended by the watchdog (an end of file here, marked cut by `post`);
    each read keeps the per-operation timeout, so it never races the watchdog with a timeout of its own."""
    chunks: list[bytes] = []
    size = 0
    while size <= MAX_RESPONSE_BYTES:
        if time.monotonic() >= deadline:
            return b"".join(chunks)[:MAX_RESPONSE_BYTES], True
        chunk = response.read1(min(16 * 1024, MAX_RESPONSE_BYTES + 1 - size))
        if not chunk:
            return b"".join(chunks), False
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)[:MAX_RESPONSE_BYTES], True
