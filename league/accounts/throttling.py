"""Password-reset and sign-up mails, throttled: per email address, per account and per client address; failed
sign-ups per client address.

Each limit is a sliding hour (`PASSWORD_RESET_MAILS_PER_HOUR` per address and per account,
`PASSWORD_RESET_REQUESTS_PER_CLIENT_HOUR` per client address). A request beyond a limit sends nothing and
the form answers exactly as it does when a mail went out, so the page tells nobody which addresses have an
account, nor that a limit was reached.

Sign-up mails (the link that finishes a sign-up, or the note that the address has an account) go at most
`SIGN_UP_MAILS_PER_ADDRESS_HOUR` times an hour to one address (beyond it the page answers the same and sends
nothing); one client address may ask for `SIGN_UP_REQUESTS_PER_CLIENT_HOUR` of them and fail
`SIGN_UP_FAILURES_PER_CLIENT_HOUR` times (a form at fault, a broken link) before sign-up answers it 429. The
client limits are sized for a venue, where a hundred phones share one address.

The counts live in the default cache (like the API's throttles:
`CACHE_URL` shares them between processes), keyed by a hash, so no email address is stored there.
"""

from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.core.cache import cache

WINDOW_SECONDS = 60 * 60


def _key(scope: str, ident: str) -> str:
    return f"throttle:{scope}:{hashlib.sha256(ident.encode('utf-8', 'surrogatepass')).hexdigest()}"


def _uses(key: str, now: float) -> list[float]:
    return [moment for moment in cache.get(key, []) if moment > now - WINDOW_SECONDS]


def take(scope: str, ident: str, limit: int) -> bool:
    """Count one use of (scope, ident) and say whether it is within `limit` uses in the last hour; a use
    beyond the limit is not counted, so the window ends an hour after the last allowed use."""
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


def reset_request_allowed(*, email: str, client: str | None) -> bool:
    """Whether a reset request for `email` from `client` may send mail (and count it if so)."""
    if client is not None and not take("client", client, settings.PASSWORD_RESET_REQUESTS_PER_CLIENT_HOUR):
        return False
    return take("address", email.strip().casefold(), settings.PASSWORD_RESET_MAILS_PER_HOUR)


def reset_mail_allowed(*, user_id: int) -> bool:
    """Whether one more reset mail may go to this account (and count it if so)."""
    return take("account", str(user_id), settings.PASSWORD_RESET_MAILS_PER_HOUR)


def sign_up_locked(*, client: str | None) -> bool:
    """Whether `client` has failed sign-up `SIGN_UP_FAILURES_PER_CLIENT_HOUR` times this hour."""
    limit = settings.SIGN_UP_FAILURES_PER_CLIENT_HOUR
    return client is not None and used_up("sign-up-failure", client, limit)


def sign_up_failed(*, client: str | None) -> None:
    """Count one failed sign-up (a form at fault, a broken or refused link) of `client`."""
    if client is not None:
        take("sign-up-failure", client, settings.SIGN_UP_FAILURES_PER_CLIENT_HOUR)


def sign_up_request_allowed(*, client: str | None) -> bool:
    """Whether `client` may ask for one more sign-up mail this hour (and count it if so)."""
    return client is None or take("sign-up-client", client, settings.SIGN_UP_REQUESTS_PER_CLIENT_HOUR)


def sign_up_mail_allowed(*, email: str) -> bool:
    """Whether one more sign-up mail may go to `email` this hour (and count it if so)."""
    return take("sign-up-address", email.strip().casefold(), settings.SIGN_UP_MAILS_PER_ADDRESS_HOUR)
