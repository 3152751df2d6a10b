"""Celery adapters for notifications and webhooks, on their own queue (`settings.NOTIFICATIONS_QUEUE`, see
CELERY_TASK_ROUTES), so a slow mail server or webhook receiver never holds up bot leagues or ratings.

Ids in, one service call each; idempotent (a notification is stored once per user and cause, a delivery once
per webhook and cause, a mail sent once), so acks_late and retries are safe. A failing mail or webhook
receiver is retried with exponential backoff; the action that caused it committed long before.
"""

from __future__ import annotations

import hashlib
import smtplib
from collections.abc import Callable
from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import OperationalError

from league.notifications import payloads, services, webhooks
from league.notifications.models import Event

MAIL_RETRIES = 6
DELIVERY_RETRIES = 6
BACKOFF_MAX_SECONDS = 15 * 60
# The delivery code ends an attempt at WEBHOOK_DEADLINE_SECONDS itself (a watchdog thread, on every pool);
# where the pool enforces time limits (prefork), the task's are a second line, with room for the attempt's
# database writes: the soft one retries the delivery like a failed attempt, the hard one kills the task.
DELIVERY_SOFT_TIME_LIMIT_SECONDS = settings.WEBHOOK_DEADLINE_SECONDS + 20
DELIVERY_TIME_LIMIT_SECONDS = settings.WEBHOOK_DEADLINE_SECONDS + 30

NOTIFY: dict[str, Callable[..., list[int]]] = {
    "table_ready": services.notify_table_ready,
    "report_awaiting_confirmation": services.notify_confirm,
    "result_disputed": services.notify_disputed,
    "round_waiting": services.notify_round_waiting,
    "dispute_settled": services.notify_dispute_settled,
    "tournament_finished": services.notify_finished,
    "tournament_cancelled": services.notify_cancelled,
    "bot_match_voided": services.notify_bot_match_voided,
    "bot_checked": services.notify_bot_checked,
    "bot_forfeited": services.notify_bot_forfeited,
    "player_invited": services.notify_invited,
}


class DeliveryFailed(Exception):
    """A webhook receiver did not answer 2xx: the delivery is tried again later."""


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def notify_task(signal: str, payload: dict[str, Any]) -> int:
    """Store the notifications of one event and queue their mails; the number of mails queued."""
    due = NOTIFY[signal](**payload)
    for notification_id in due:
        notification_mail_task.delay(notification_id)
    return len(due)


@shared_task(
    autoretry_for=(smtplib.SMTPException, OSError, OperationalError),
    retry_backoff=True,
    retry_backoff_max=BACKOFF_MAX_SECONDS,
    max_retries=MAIL_RETRIES,
)
def notification_mail_task(notification_id: int) -> bool:
    return services.notification_mail(notification_id=notification_id)


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def table_ready_links_task(tournament_id: int, table_ids: list[int]) -> int:
    """Store the "your table is out" mails of private links' holders and queue them; how many."""
    due = services.notify_table_ready_links(tournament_id=tournament_id, table_ids=table_ids)
    for link_mail_id in due:
        link_mail_task.delay(link_mail_id)
    return len(due)


@shared_task(
    autoretry_for=(smtplib.SMTPException, OSError, OperationalError),
    retry_backoff=True,
    retry_backoff_max=BACKOFF_MAX_SECONDS,
    max_retries=MAIL_RETRIES,
)
def link_mail_task(link_mail_id: int) -> bool:
    return services.link_mail(link_mail_id=link_mail_id)


def _key(event: str, payload: dict[str, Any]) -> str:
    if event == Event.TABLE_READY:
        tables = ",".join(str(pk) for pk in sorted(payload["table_ids"]))
        return f"{event}:{hashlib.sha256(tables.encode()).hexdigest()[:32]}"
    if event == Event.RESULT_RECORDED:
        return f"{event}:{payload['version_id']}"
    if event == Event.RESULT_DISPUTED:
        return f"{event}:{payload['dispute_id']}"
    if event == Event.TOURNAMENT_FINISHED:
        return f"{event}:{payload['tournament_id']}"
    if event == Event.SEASON_TABLE_CHANGED:
        return f"{event}:{payload['season_id']}:{payload['version']}"
    return f"{event}:{payload['league_id']}:{payload['round_number']}"


DATA: dict[str, Callable[..., dict[str, Any] | None]] = {
    Event.TABLE_READY: payloads.table_ready,
    Event.RESULT_RECORDED: payloads.result_recorded,
    Event.RESULT_DISPUTED: payloads.result_disputed,
    Event.TOURNAMENT_FINISHED: payloads.tournament_finished,
    Event.LEAGUE_ROUND_RATED: payloads.league_round_rated,
    Event.SEASON_TABLE_CHANGED: payloads.season_table_changed,
}


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def webhooks_event_task(event: str, payload: dict[str, Any]) -> int:
    """Make the deliveries of one event (one per subscribed webhook) and queue them; the number queued."""
    wanted = {"user_ids", "report_id"}
    data = DATA[event](**{name: value for name, value in payload.items() if name not in wanted})
    if data is None:
        return 0
    pending = webhooks.deliveries_create(
        event=event,
        key=_key(event, payload),
        data=data,
        tournament_id=payload.get("tournament_id"),
        league_id=payload.get("league_id"),
    )
    for delivery_pk in pending:
        webhook_deliver_task.delay(delivery_pk)
    return len(pending)


@shared_task(
    bind=True,
    autoretry_for=(DeliveryFailed, SoftTimeLimitExceeded),
    retry_backoff=True,
    retry_backoff_max=BACKOFF_MAX_SECONDS,
    max_retries=DELIVERY_RETRIES,
    soft_time_limit=DELIVERY_SOFT_TIME_LIMIT_SECONDS,
    time_limit=DELIVERY_TIME_LIMIT_SECONDS,
)
def webhook_deliver_task(self, delivery_pk: int) -> str:
    """Try a delivery once; a failure raises DeliveryFailed, which retries it with backoff until the last."""
    final = self.request.retries >= DELIVERY_RETRIES
    status = webhooks.delivery_attempt(delivery_pk=delivery_pk, final=final)
    if status == "pending":
        raise DeliveryFailed(f"delivery {delivery_pk} failed; tried again later")
    return status


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def season_webhooks_task(season_id: int) -> int:
    """Deliver the season's table to its webhooks (once per version of the table); the number queued. Queued
    at most once a minute per season (`receivers.season_changed`), a minute after the first change."""
    data = payloads.season_table_changed(season_id=season_id)
    if data is None:
        return 0
    event = Event.SEASON_TABLE_CHANGED
    pending = webhooks.deliveries_create(
        event=event,
        key=_key(event, {"season_id": season_id, "version": data["version"]}),
        data=data,
        season_id=season_id,
    )
    for delivery_pk in pending:
        webhook_deliver_task.delay(delivery_pk)
    return len(pending)
