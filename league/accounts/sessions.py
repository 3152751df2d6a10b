"""How long a session lasts: 12 hours without a request, 14 days in all.

The idle limit is Django's own: `SESSION_COOKIE_AGE` with `SESSION_SAVE_EVERY_REQUEST`, so that every
request (a live page's poll too) moves the session's expiry on. The absolute limit is kept here: the log-in
writes its time into the session (`LOGGED_IN_AT`, by `remember_login`, a receiver of `user_logged_in`), and
`SessionLifetime` logs out a session whose log-in is older than `SESSION_ABSOLUTE_SECONDS`, whatever the
requests since. A signed-in session without the time (one that began before this rule) gets it at its next
request, so it too ends at the latest `SESSION_ABSOLUTE_SECONDS` later.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

LOGGED_IN_AT = "logged_in_at"  # the session key: the log-in's time, in seconds since the epoch


def remember_login(sender, request: HttpRequest | None = None, user=None, **kwargs) -> None:
    """`user_logged_in`'s receiver: the session keeps the time of its log-in (the start of its 14 days)."""
    if request is not None and hasattr(request, "session"):
        request.session[LOGGED_IN_AT] = int(timezone.now().timestamp())


class SessionLifetime:
    """Middleware (after the authentication middleware): a signed-in session whose log-in is older than
    `SESSION_ABSOLUTE_SECONDS` is logged out, and the request goes on as a visitor's."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.user.is_authenticated:
            now = int(timezone.now().timestamp())
            logged_in_at = request.session.get(LOGGED_IN_AT)
            if not isinstance(logged_in_at, int):
                request.session[LOGGED_IN_AT] = now
            elif now - logged_in_at >= settings.SESSION_ABSOLUTE_SECONDS:
                logout(request)
        return self.get_response(request)
