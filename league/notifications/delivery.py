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
  `TIMEOUT_SECONDS` and the whole attempt after that much again for the response; at most
  `MAX_RESPONSE_BYTES` of the response are read.

Pure of the database: `post` takes the URL, body and headers and returns an `Attempt`.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from league.core.errors import UserError

TIMEOUT_SECONDS = 5.0
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


class _PinnedHTTP(http.client.HTTPConnection):
    """An HTTP connection to a checked address that names the URL's host in its requests."""

    def __init__(self, host: str, port: int, address: IPAddress, timeout: float):
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((str(self.address), self.port), self.timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """An HTTPS connection to a checked address, verifying the certificate of the URL's host (SNI)."""

    def __init__(self, host: str, port: int, address: IPAddress, timeout: float, context: ssl.SSLContext):
        super().__init__(host, port, timeout=timeout, context=context)
        self.address = address

    def connect(self) -> None:
        raw = socket.create_connection((str(self.address), self.port), self.timeout)
        self.sock = self._context.wrap_socket(raw, server_hostname=self.host)


def post(url: str, body: bytes, headers: dict[str, str], *, timeout: float = TIMEOUT_SECONDS) -> Attempt:
    """POST `body` to `url` once under the rules above; never raises for what the far end does."""
    started = time.monotonic()
    attempt = Attempt()
    try:
        target = check_url(url)
        address = resolve(target)
    except (UserError, Refused) as error:
        attempt.error = str(error)
        attempt.refused = True
        return attempt
    attempt.address = str(address)
    if target.scheme == "https":
        connection: http.client.HTTPConnection = _PinnedHTTPS(
            target.host, target.port, address, timeout, ssl.create_default_context()
        )
    else:
        connection = _PinnedHTTP(target.host, target.port, address, timeout)
    try:
        connection.request("POST", target.path, body=body, headers=headers)
        response = connection.getresponse()
        attempt.status_code = response.status
        if 300 <= response.status < 400:
            attempt.error = (
                f"redirect to {response.getheader('Location', '(no location)')[:200]} not followed"
            )
        read, attempt.truncated = _read_capped(response, connection, started + 2 * timeout)
        attempt.response_bytes = len(read)
        attempt.excerpt = read[:EXCERPT_CHARS].decode("utf-8", "replace")
    except (OSError, http.client.HTTPException) as error:
        attempt.error = f"{type(error).__name__}: {error}"[:500] or type(error).__name__
    finally:
        connection.close()
        attempt.duration_ms = round((time.monotonic() - started) * 1000)
    return attempt


def _read_capped(response: http.client.HTTPResponse, connection, deadline: float) -> tuple[bytes, bool]:
    """At most MAX_RESPONSE_BYTES of the response body, stopping at the deadline; (bytes, cut short)."""
    chunks: list[bytes] = []
    size = 0
    while size <= MAX_RESPONSE_BYTES:
        left = deadline - time.monotonic()
        if left <= 0:
            return b"".join(chunks)[:MAX_RESPONSE_BYTES], True
        if connection.sock is not None:
            connection.sock.settimeout(min(left, connection.timeout))
        chunk = (
            response.read1(min(16 * 1024, MAX_RESPONSE_BYTES + 1 - size))
            if size <= MAX_RESPONSE_BYTES
            else b""
        )
        if not chunk:
            return b"".join(chunks), False
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)[:MAX_RESPONSE_BYTES], True
