"""Writes of outbound webhooks: register and delete one, make an event's deliveries, try a delivery once.

Who may register: an organizer of the tournament (or site staff) for a tournament's events, site staff for
a bot league's. A webhook, its secret and its deliveries are its owner's alone (`owned_webhook`), and only
while they hold that role: it is checked when the webhook is read, when an event makes its deliveries and
before every attempt (`selectors.webhook_role_holds`); a deleted account takes its webhooks with it. The body
of a delivery is built once, when the event is fanned out, so every attempt sends the same bytes; each
attempt signs it afresh with its own timestamp (docs/webhooks.md).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
import uuid
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.utils import timezone

from league.bots.models import BotLeague
from league.core.errors import Forbidden, NotFound, UserError
from league.core.names import storable_text
from league.notifications import delivery, selectors
from league.notifications.models import (
    LEAGUE_EVENTS,
    SEASON_EVENTS,
    TOURNAMENT_EVENTS,
    Attempt,
    Delivery,
    Webhook,
)
from league.seasons.models import Season
from league.seasons.selectors import is_club_organizer
from league.tournaments.models import Tournament
from league.tournaments.selectors import is_organizer

MAX_WEBHOOKS_PER_SCOPE = 10
SIGNATURE_HEADER = "X-PeckingOrder-Signature"
TIMESTAMP_HEADER = "X-PeckingOrder-Timestamp"
EVENT_HEADER = "X-PeckingOrder-Event"
DELIVERY_HEADER = "X-PeckingOrder-Delivery"
USER_AGENT = "PeckingOrder-Webhooks/1"


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """`sha256=` and the hex HMAC-SHA256, keyed by the secret, of `{timestamp}.{body}`."""
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def _check_events(events: Any, allowed: Sequence[str]) -> list[str]:
    if isinstance(events, str):
        events = [events]
    if not isinstance(events, list | tuple) or not events:
        raise UserError(f"choose at least one event among {', '.join(allowed)}", field="events")
    unknown = [str(event)[:40] for event in events if event not in allowed]
    if unknown:
        raise UserError(
            f"unknown event {unknown[0]!r} here: choose among {', '.join(allowed)}", field="events"
        )
    return [event for event in allowed if event in events]


def webhook_create(
    *,
    by: User | AnonymousUser | None,
    url: Any,
    events: Any,
    tournament: Tournament | None = None,
    league: BotLeague | None = None,
    season: Season | None = None,
) -> Webhook:
    """Register a webhook of `by` for a tournament (its organizers, site staff), a bot league (site staff)
    or a season (its club's organizers, site staff)."""
    if by is None or not by.is_authenticated:
        raise Forbidden("sign in to register a webhook")
    if sum(scope is not None for scope in (tournament, league, season)) != 1:
        raise UserError(
            "register a webhook for one tournament, one bot league or one season", field="tournament"
        )
    if tournament is not None and not is_organizer(by, tournament):
        raise Forbidden("only the tournament's organizers (and site staff) can register its webhooks")
    if league is not None and not by.is_staff:
        raise Forbidden("only site staff can register a bot league's webhooks")
    if season is not None and not is_club_organizer(by, season.club):
        raise Forbidden("only the season's club's organizers (and site staff) can register its webhooks")
    delivery.check_url(url)
    allowed = TOURNAMENT_EVENTS if tournament is not None else LEAGUE_EVENTS if league else SEASON_EVENTS
    chosen = _check_events(events, allowed)
    with transaction.atomic():
        if tournament is not None:
            scope = Webhook.objects.filter(tournament=tournament)
        elif league is not None:
            scope = Webhook.objects.filter(league=league)
        else:
            scope = Webhook.objects.filter(season=season)
        if scope.count() >= MAX_WEBHOOKS_PER_SCOPE:
            raise UserError(
                f"at most {MAX_WEBHOOKS_PER_SCOPE} webhooks per tournament, league or season", field="url"
            )
        return Webhook.objects.create(
            owner=by,
            tournament=tournament,
            league=league,
            season=season,
            url=url.strip(),
            secret=f"whsec_{secrets.token_hex(24)}",
            events=chosen,
        )


def owned_webhook(*, by: User | AnonymousUser | None, webhook_id: Any) -> Webhook:
    """The webhook if `by` owns it and still holds the role it was registered under; 404 otherwise (another
    owner's webhook is not even shown to exist, nor one whose role its owner lost)."""
    if by is None or not by.is_authenticated:
        raise Forbidden("sign in to see your webhooks")
    if not isinstance(webhook_id, int) or isinstance(webhook_id, bool) or not 0 < webhook_id < 2**62:
        raise NotFound("no such webhook")
    webhook = (
        Webhook.objects.filter(pk=webhook_id, owner=by)
        .select_related("owner", "tournament", "league", "season__club")
        .first()
    )
    if webhook is None or not selectors.webhook_role_holds(webhook):
        raise NotFound("no such webhook")
    return webhook


def webhook_delete(*, by: User | AnonymousUser | None, webhook_id: Any) -> None:
    owned_webhook(by=by, webhook_id=webhook_id).delete()


def owner_webhooks_delete(*, owner: User) -> int:
    """Delete every webhook of `owner`, with its deliveries and their attempts (the account is being deleted);
    how many webhooks went."""
    _, deleted = Webhook.objects.filter(owner=owner).delete()
    return deleted.get(Webhook._meta.label, 0)


def deliveries_create(
    *,
    event: str,
    key: str,
    data: dict[str, Any],
    tournament_id: int | None = None,
    league_id: int | None = None,
    season_id: int | None = None,
) -> list[int]:
    """One delivery of `event` per webhook of the tournament (or league, or season) subscribed to it, once
    per `key`; the ids of the deliveries still pending."""
    if tournament_id is not None:
        webhooks = Webhook.objects.filter(tournament_id=tournament_id)
    elif season_id is not None:
        webhooks = Webhook.objects.filter(season_id=season_id)
    else:
        webhooks = Webhook.objects.filter(league_id=league_id)
    pending = []
    for webhook in webhooks.select_related("owner", "tournament", "season__club"):
        if event not in webhook.events or not selectors.webhook_role_holds(webhook):
            continue
        existing = Delivery.objects.filter(webhook=webhook, key=key).first()
        if existing is None:
            delivery_id = uuid.uuid4()
            body = json.dumps(
                {
                    "event": event,
                    "delivery": str(delivery_id),
                    "created_at": timezone.now().isoformat(),
                    "data": data,
                },
                cls=DjangoJSONEncoder,
                separators=(",", ":"),
                sort_keys=True,
            )
            try:
                with transaction.atomic():
                    existing = Delivery.objects.create(
                        webhook=webhook, delivery_id=delivery_id, event=event, key=key, body=body
                    )
            except IntegrityError:  # a retried task made it a moment ago
                existing = Delivery.objects.get(webhook=webhook, key=key)
        if existing.status == Delivery.Status.PENDING:
            pending.append(existing.pk)
    return pending


def delivery_attempt(*, delivery_pk: int, final: bool) -> str:
    """Try a pending delivery once and log the attempt; its status after it ('pending' means: try again).
    A refused address ends the delivery at once (retrying would be refused again); a failure ends it when
    `final` (the last retry). If the webhook's owner no longer holds its role, the delivery is cancelled
    and nothing is sent."""
    item = (
        Delivery.objects.filter(pk=delivery_pk)
        .select_related("webhook__owner", "webhook__tournament")
        .first()
    )
    if item is None or item.status != Delivery.Status.PENDING:
        return item.status if item else Delivery.Status.FAILED
    if not selectors.webhook_role_holds(item.webhook):
        status = Delivery.Status.CANCELLED
        Delivery.objects.filter(pk=item.pk).update(status=status, finished_at=timezone.now())
        return status
    timestamp = str(int(time.time()))
    body = item.body.encode()
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        EVENT_HEADER: item.event,
        DELIVERY_HEADER: str(item.delivery_id),
        TIMESTAMP_HEADER: timestamp,
        SIGNATURE_HEADER: signature(item.webhook.secret, timestamp, body),
    }
    at = timezone.now()
    result = delivery.post(item.webhook.url, body, headers, deadline=settings.WEBHOOK_DEADLINE_SECONDS)
    number = item.attempts.count() + 1
    Attempt.objects.create(
        delivery=item,
        number=number,
        at=at,
        duration_ms=result.duration_ms,
        status_code=result.status_code,
        error=storable_text(result.error[:500]),  # the receiver's words: a NUL must not stop the worker
        address=result.address[:64],
        response_bytes=result.response_bytes,
        truncated=result.truncated,
        excerpt=storable_text(result.excerpt[:500]),
    )
    if result.ok:
        status = Delivery.Status.DELIVERED
    elif result.refused:
        status = Delivery.Status.REFUSED
    elif final:
        status = Delivery.Status.FAILED
    else:
        return Delivery.Status.PENDING
    Delivery.objects.filter(pk=item.pk).update(status=status, finished_at=timezone.now())
    return status
