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
client limits are sized for a venue, where a hundred phones share one address, and do not apply at all at an
address an organizer declared as their venue's for today (`league.core.throttling.declared_venue`).

The counts live in the default cache (like the API's throttles:
`CACHE_URL` shares them between processes), keyed by a hash, so no email address is stored there.
"""

from __future__ import annotations

from typing import cast

from django.conf import settings

from league.core.throttling import WINDOW_SECONDS, declared_venue, take, used_up

__all__ = ["WINDOW_SECONDS"]


def _per_client(client: str | None) -> bool:
    """Whether the limits per client address apply to `client`: not at a declared venue's address, where
    only the limits per email address count."""
    return client is not None and not declared_venue(client)


def reset_request_allowed(*, email: str, client: str | None) -> bool:
    """Whether a reset request for `email` from `client` may send mail (and count it if so)."""
    limit = settings.PASSWORD_RESET_REQUESTS_PER_CLIENT_HOUR
    if _per_client(client) and not take("client", cast(str, client), limit):
        return False
    return take("address", email.strip().casefold(), settings.PASSWORD_RESET_MAILS_PER_HOUR)


def reset_mail_allowed(*, user_id: int) -> bool:
    """Whether one more reset mail may go to this account (and count it if so)."""
    return take("account", str(user_id), settings.PASSWORD_RESET_MAILS_PER_HOUR)


def sign_up_locked(*, client: str | None) -> bool:
    """Whether `client` has failed sign-up `SIGN_UP_FAILURES_PER_CLIENT_HOUR` times this hour."""
    limit = settings.SIGN_UP_FAILURES_PER_CLIENT_HOUR
    return client is not None and _per_client(client) and used_up("sign-up-failure", client, limit)


def sign_up_failed(*, client: str | None) -> None:
    """Count one failed sign-up (a form at fault, a broken or refused link) of `client`."""
    if client is not None and _per_client(client):
        take("sign-up-failure", client, settings.SIGN_UP_FAILURES_PER_CLIENT_HOUR)


def sign_up_request_allowed(*, client: str | None) -> bool:
    """Whether `client` may ask for one more sign-up mail this hour (and count it if so)."""
    if client is None or not _per_client(client):
        return True
    return take("sign-up-client", client, settings.SIGN_UP_REQUESTS_PER_CLIENT_HOUR)


def sign_up_mail_allowed(*, email: str) -> bool:
    """Whether one more sign-up mail may go to `email` this hour (and count it if so)."""
    return take("sign-up-address", email.strip().casefold(), settings.SIGN_UP_MAILS_PER_ADDRESS_HOUR)
