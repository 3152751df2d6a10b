"""Password-reset mails, throttled: per email address, per account and per client address; sign-ups per
client address.

Each limit is a sliding hour (`PASSWORD_RESET_MAILS_PER_HOUR` per address and per account,
`PASSWORD_RESET_REQUESTS_PER_CLIENT_HOUR` per client address). A request beyond a limit sends nothing and
the form answers exactly as it does when a mail went out, so the page tells nobody which addresses have an
account, nor that a limit was reached. Sign-ups allow `SIGN_UPS_PER_CLIENT_HOUR` new accounts an hour from one
client address (a 429 page says when to try again). The counts live in the default cache (like the API's throttles:
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


def take(scope: str, ident: str, limit: int) -> bool:
    """Count one use of (scope, ident) and say whether it is within `limit` uses in the last hour; a use
    beyond the limit is not counted, so the window ends an hour after the last allowed use."""
    key = _key(scope, ident)
    now = time.time()
    uses = [moment for moment in cache.get(key, []) if moment > now - WINDOW_SECONDS]
    if len(uses) >= limit:
        return False
    cache.set(key, [*uses, now], WINDOW_SECONDS)
    return True


def reset_request_allowed(*, email: str, client: str | None) -> bool:
    """Whether a reset request for `email` from `client` may send mail (and count it if so)."""
    if client is not None and not take("client", client, settings.PASSWORD_RESET_REQUESTS_PER_CLIENT_HOUR):
        return False
    return take("address", email.strip().casefold(), settings.PASSWORD_RESET_MAILS_PER_HOUR)


def reset_mail_allowed(*, user_id: int) -> bool:
    """Whether one more reset mail may go to this account (and count it if so)."""
    return take("account", str(user_id), settings.PASSWORD_RESET_MAILS_PER_HOUR)


def sign_up_allowed(*, client: str | None) -> bool:
    """Whether one more account may be created from `client` this hour (and count it if so)."""
    return client is None or take("sign-up-client", client, settings.SIGN_UPS_PER_CLIENT_HOUR)
