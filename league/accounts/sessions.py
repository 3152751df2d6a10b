"""How long a session lasts: 12 hours without a request, 14 days in all.

The idle limit is Django's `SESSION_COOKIE_AGE`, which every save of the session moves on: a request that
reads its signed-in user (every page but the embeddable standings, a live page's poll too) saves the session
when it was last saved more than `REFRESH_SECONDS` ago (`REFRESHED_AT`), so a session lives 12 hours after
its last request give or take a minute, at one write a minute at most. The embed never reads the user, so
its answer reads no session and sets no cookie (one answer for everyone, cacheable). The absolute limit is
kept here: the log-in writes its time into the session (`LOGGED_IN_AT`, by `remember_login`, a receiver of
`user_logged_in`), and `SessionLifetime` logs out a session whose log-in is older than
`SESSION_ABSOLUTE_SECONDS`, whatever the requests since. A signed-in session without the time (one that began
before this rule) gets it at its next request, so it too ends at the latest `SESSION_ABSOLUTE_SECONDS` later.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject

LOGGED_IN_AT = "logged_in_at"  # the session key: the log-in's time, in seconds since the epoch
REFRESHED_AT = "refreshed_at"  # the session key: when a request last moved the idle limit on
REFRESH_SECONDS = 60


def remember_login(sender, request: HttpRequest | None = None, user=None, **kwargs) -> None:
    """`user_logged_in`'s receiver: the session keeps the time of its log-in (the start of its 14 days)."""
    if request is not None and hasattr(request, "session"):
        now = int(timezone.now().timestamp())
        request.session[LOGGED_IN_AT] = now
        request.session[REFRESHED_AT] = now  # the log-in saves the session: its idle limit starts here


class SessionLifetime:
    """Middleware (after the authentication middleware): a signed-in session whose log-in is older than
    `SESSION_ABSOLUTE_SECONDS` is logged out, and the request goes on as a visitor's.

    The check runs when the request's user is first read, as Django's own look-up does: a page that never
    reads the user (the embeddable standings) never reads the session either, so its answer stays the same
    for everyone and carries no `Vary: Cookie`."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        looked_up = request.user
        request.user = SimpleLazyObject(lambda: _within_lifetime(request, looked_up))  # type: ignore[assignment]  # a lazy user, as Django's AuthenticationMiddleware sets
        return self.get_response(request)


def _within_lifetime(request: HttpRequest, user: Any) -> Any:
    """`user`, or an anonymous one once the session has outlived `SESSION_ABSOLUTE_SECONDS` (logged out)."""
    if user.is_authenticated:
        now = int(timezone.now().timestamp())
        logged_in_at = request.session.get(LOGGED_IN_AT)
        if not isinstance(logged_in_at, int):
            request.session[LOGGED_IN_AT] = now
        elif now - logged_in_at >= settings.SESSION_ABSOLUTE_SECONDS:
            request.user = user  # logout reads request.user: the user looked up, not this lazy check again
            logout(request)  # sets request.user to an anonymous user
            return request.user
        refreshed_at = request.session.get(REFRESHED_AT)
        if not isinstance(refreshed_at, int) or now - refreshed_at >= REFRESH_SECONDS:
            request.session[REFRESHED_AT] = now  # a modified session is saved: SESSION_COOKIE_AGE from now
    return user
