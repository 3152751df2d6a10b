"""API throttles: requests per client address (anonymous) or per user, and failed tokens per address; the
token authentication that counts them and refuses expired tokens.

Every throttle keys anonymous requests by `league.core.throttling.client_address` (so behind the TLS proxy
X-Forwarded-For counts only as far as `TRUSTED_PROXY_COUNT` allows) and reads its rate from
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] when it is made, not when this module is imported, so that
changed settings apply. Counts live in the default cache: `CACHE_URL` shares them between processes.
A throttled request gets 429 with Retry-After.
"""

from __future__ import annotations

from typing import cast

from django.utils import timezone
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed, Throttled
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

from league.accounts.selectors import api_token_for_key, token_expires_at
from league.core.errors import ErrorCode
from league.core.throttling import client_address


class ClientAddressThrottle(SimpleRateThrottle):
    """A rate throttle that knows clients by `client_address` and reads its rate at each request."""

    scope: str  # every throttle here names its scope

    def get_rate(self) -> str | None:
        # Rates are texts such as "60/minute" (or None: no limit); the stubs type them as numbers.
        rates = cast(dict[str, str | None], api_settings.DEFAULT_THROTTLE_RATES)
        return rates[self.scope]

    # DRF's own get_ident answers REMOTE_ADDR too, None when a request has none.
    def get_ident(self, request) -> str | None:  # type: ignore[override]  # stubs: str, but DRF's may be None
        return client_address(request)


class AnonymousThrottle(ClientAddressThrottle, AnonRateThrottle):
    """Anonymous requests per client address (rate `anon`)."""


class UserThrottle(ClientAddressThrottle, UserRateThrottle):
    """Requests per signed-in user (rate `user`; anonymous requests per client address)."""


class FailedTokenThrottle(ClientAddressThrottle):
    """Failed token authentications per client address (rate `failed_token`).

    Unlike a request throttle it counts only what `record_failure` is told, and `locked` only looks.
    """

    scope = "failed_token"
    # Set by SimpleRateThrottle.__init__ from the rate (parse_rate), which the stubs do not declare; None only
    # without a rate, which `locked` and `record_failure` check first.
    num_requests: int
    duration: int

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def locked(self, request) -> bool:
        """Whether the request's address has used up its failures (loads them, for `wait` and
        `record_failure`)."""
        if self.rate is None:
            return False
        self.key = self.get_cache_key(request, None)
        self.now = self.timer()
        self.history = [
            moment for moment in self.cache.get(self.key, []) if moment > self.now - self.duration
        ]
        return len(self.history) >= self.num_requests

    def record_failure(self) -> None:
        """Count one failure of the address `locked` just looked at."""
        if self.rate is not None:
            self.throttle_success()


class TokenExpired(AuthenticationFailed):
    """An API token that is right but past its expiry (401 `token_expired`; league.api.errors gives the
    code)."""

    default_code = ErrorCode.TOKEN_EXPIRED.value


class ThrottledTokenAuthentication(TokenAuthentication):
    """Token authentication that counts bad tokens per client address and, once an address has sent too
    many, answers 429 to every token it sends (good ones too, so that guessing stops) until they age out.

    A token past its expiry answers 401 `token_expired` (`TokenExpired`); it is no guess, so it is not
    counted as a failure.
    """

    def authenticate_credentials(self, key):
        token = api_token_for_key(key)
        if token is None:
            raise AuthenticationFailed("Invalid token.")
        if not token.user.is_active:
            raise AuthenticationFailed("User inactive or deleted.")
        expires_at = token_expires_at(token)
        if expires_at <= timezone.now():
            when = f"{expires_at:%Y-%m-%d %H:%M}"
            raise TokenExpired(f"this API token expired on {when} UTC: make a new one on your page (/me/)")
        return token.user, token

    def authenticate(self, request):
        failures = FailedTokenThrottle()
        try:
            authenticated = super().authenticate(request)
        except TokenExpired:
            raise
        except AuthenticationFailed:
            if failures.locked(request):
                raise Throttled(wait=failures.wait()) from None
            failures.record_failure()
            raise
        if authenticated is not None and failures.locked(request):
            raise Throttled(wait=failures.wait())
        return authenticated
