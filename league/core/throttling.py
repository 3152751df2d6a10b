"""Who a request comes from, and the lockout of repeated failed logins (pages and the admin alike).

django-axes records every failed login and locks a (user name, client address) pair after
`AXES_FAILURE_LIMIT` failures within `AXES_COOLOFF_TIME`, so that nobody can lock an organizer out from
elsewhere; `LoginLockoutHandler` adds a looser limit per client address (`LOGIN_ADDRESS_FAILURE_LIMIT`
failures, whatever the user names; sized for a venue), against one machine trying many names. The API's
throttles (`league.api.throttling`) use the same `client_address`.

`take` and `used_up` count uses of anything (a client address, an email address, a private link) in a
sliding hour, in the default cache. `declared_venue` says whether a client address is a venue's that an
organizer declared for today and site staff approved (the checks in `VENUE_CHECKS`, where the tournaments app
registers its rule): a hundred phones share it, so the limits per client address do not apply there and the
limits per account and per private link count instead.
"""

from __future__ import annotations

import hashlib
import ipaddress
import time
from collections.abc import Callable

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt
from django.conf import settings
from django.core.cache import cache
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

WINDOW_SECONDS = 60 * 60

# Rules of apps above core that say whether a client address is a declared venue's for today (each registered
# in its app's `ready`, as `league.players.services.RENAME_HOOKS` are).
VENUE_CHECKS: list[Callable[[str], bool]] = []


def client_address(request: HttpRequest) -> str | None:
    """The client's IP address: REMOTE_ADDR, or behind `TRUSTED_PROXY_COUNT` proxies the one they report.

    Each proxy appends the address it got the request from to X-Forwarded-For, so with n trusted proxies the
    client is the n-th entry from the right (or the leftmost, when fewer came: every entry was then written by
    a trusted proxy); entries further left were written by the client and are never believed. With no
    trusted proxy the header is ignored. An entry that is not an IP address falls back to REMOTE_ADDR.
    """
    remote = request.META.get("REMOTE_ADDR")
    proxies = settings.TRUSTED_PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if proxies == 0 or forwarded is None:
        return remote
    entries = forwarded.split(",")
    try:
        return str(ipaddress.ip_address(entries[-min(proxies, len(entries))].strip()))
    except ValueError:
        return remote


def declared_venue(client: str | None) -> bool:
    """Whether `client` is the address an organizer declared as their venue's for today, approved by staff."""
    if client is None:
        return False
    return any(check(client) for check in VENUE_CHECKS)


def _key(scope: str, ident: str) -> str:
    return f"throttle:{scope}:{hashlib.sha256(ident.encode('utf-8', 'surrogatepass')).hexdigest()}"


def _uses(key: str, now: float) -> list[float]:
    return [moment for moment in cache.get(key, []) if moment > now - WINDOW_SECONDS]


def take(scope: str, ident: str, limit: int) -> bool:
    """Count one use of (scope, ident) and say whether it is within `limit` uses in the last hour; a use
    beyond the limit is not counted, so the window ends an hour after the last allowed use. Keys are hashed:
    no email address or token is stored in the cache."""
    key = _key(scope, ident)
    now = time.time()
    uses = _uses(key, now)
    if len(uses) >= limit:
        return False
    cache.set(key, [*uses, now], WINDOW_SECONDS)
    return True


def used_up(scope: str, ident: str, limit: int) -> bool:
    """Whether (scope, ident) has had `limit` uses in the last hour (counts nothing)."""
    return len(_uses(_key(scope, ident), time.time())) >= limit


class AxesRequest(HttpRequest):
    """A login request as axes' middleware and handler leave it (a type only): the attributes they set."""

    axes_ip_address: str | None
    axes_locked_out: bool
    axes_credentials: dict | None


# The user name column of axes' records (AccessAttempt, AccessLog, AccessFailureLog).
RECORDED_USERNAME_LENGTH = 255


def attempted_username(request: HttpRequest, credentials: dict | None = None) -> str | None:
    """The user name a login attempt gave, as axes records it (AXES_USERNAME_CALLABLE): cut to its column's
    255 characters, so that a failed login with a longer name (no account has one: usernames have at most 150)
    is counted like any other instead of failing to store on PostgreSQL."""
    source = credentials if credentials else getattr(request, "data", request.POST)
    username = source.get(settings.AXES_USERNAME_FORM_FIELD)  # type: ignore[misc]  # axes.conf sets its default
    return username[:RECORDED_USERNAME_LENGTH] if isinstance(username, str) else username


class LoginLockoutHandler(AxesDatabaseHandler):
    """axes' database handler plus the per-address limit: `LOGIN_ADDRESS_FAILURE_LIMIT` failures from one
    client address within the cool-off lock every login from it, whatever the user name."""

    def address_failures(self, request: AxesRequest) -> int:
        """Failed logins from the request's client address within the cool-off, over all user names."""
        attempts = AccessAttempt.objects.filter(
            ip_address=request.axes_ip_address, attempt_time__gte=get_cool_off_threshold(request)
        )
        return attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0

    def is_locked(self, request: AxesRequest, credentials: dict | None = None) -> bool:
        """Either limit reached; at a declared venue's address only the (user name, address) pair's."""
        if super().is_locked(request, credentials):
            return True
        if declared_venue(request.axes_ip_address):
            return False
        return self.address_failures(request) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT

    def user_login_failed(
        self, sender, credentials: dict, request: AxesRequest | None = None, **kwargs
    ) -> None:
        """Record the failure (axes); flag the request as locked out when either limit is reached now, so that
        the failure that reaches a limit, and every attempt after it, gets the lockout page."""
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is not None and not request.axes_locked_out and self.is_locked(request, credentials):
            request.axes_locked_out = True
            request.axes_credentials = credentials


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict | None
) -> HttpResponse:
    """The page of a locked-out login (axes' AXES_LOCKOUT_CALLABLE): 429, what happened, how long to wait.

    Every attempt during a lockout counts as a failure and starts its pair's cool-off again, so the wait (also
    sent as Retry-After) is the whole cool-off: exact for a locked pair, the longest for a locked address.
    """
    seconds = int(settings.AXES_COOLOFF_TIME.total_seconds())
    context = {"minutes": seconds // 60}
    response = render(request, "core/locked_out.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response
