"""Receivers of the domain events (`league.core.events`), connected when the app is ready. They run after
the action's commit and only queue tasks (ids in), on the notifications queue; the tasks store the
notifications and the webhook deliveries."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.dispatch import receiver

from league.core import events
from league.notifications.models import Event
from league.notifications.tasks import (
    notify_task,
    season_webhooks_task,
    table_ready_links_task,
    webhooks_event_task,
)
from league.seasons.models import Season

NOTIFIED = {
    events.table_ready: "table_ready",
    events.report_awaiting_confirmation: "report_awaiting_confirmation",
    events.result_disputed: "result_disputed",
    events.round_waiting: "round_waiting",
    events.dispute_settled: "dispute_settled",
    events.tournament_finished: "tournament_finished",
    events.tournament_cancelled: "tournament_cancelled",
    events.bot_match_voided: "bot_match_voided",
    events.bot_checked: "bot_checked",
    events.bot_forfeited: "bot_forfeited",
    events.player_invited: "player_invited",
}
HOOKED = {
    events.table_ready: Event.TABLE_READY,
    events.result_recorded: Event.RESULT_RECORDED,
    events.result_disputed: Event.RESULT_DISPUTED,
    events.tournament_finished: Event.TOURNAMENT_FINISHED,
    events.league_round_rated: Event.LEAGUE_ROUND_RATED,
}
PAYLOADS = {
    "table_ready": ("tournament_id", "table_ids"),
    "report_awaiting_confirmation": ("tournament_id", "table_id", "report_id", "user_ids"),
    "result_disputed": ("tournament_id", "table_id", "dispute_id"),
    "dispute_settled": ("dispute_ids",),
    "round_waiting": ("tournament_id", "round_number", "warnings", "disputes", "problem"),
    "tournament_finished": ("tournament_id",),
    "tournament_cancelled": ("tournament_id",),
    "bot_match_voided": ("match_id",),
    "bot_checked": ("bot_id",),
    "bot_forfeited": ("bot_id", "league_id", "match_id", "streak", "withdrawn"),
    "player_invited": ("tournament_id", "player_id"),
    Event.RESULT_RECORDED: ("tournament_id", "table_id", "version_id"),
    Event.LEAGUE_ROUND_RATED: ("league_id", "round_number"),
}


def _plain(names: tuple[str, ...], payload: dict[str, Any]) -> dict[str, Any]:
    return {name: payload[name] for name in names}


@receiver(list(set(NOTIFIED) | set(HOOKED)), dispatch_uid="league.notifications.receivers.heard")
def heard(signal, sender=None, **payload: Any) -> None:
    """Queue the notifications and the webhook deliveries of one event."""
    if signal in NOTIFIED:
        name = NOTIFIED[signal]
        notify_task.delay(name, _plain(PAYLOADS[name], payload))
    if signal is events.table_ready:  # holders of private links who left an email address
        table_ready_links_task.delay(payload["tournament_id"], payload["table_ids"])
    if signal in HOOKED:
        event = HOOKED[signal]
        names = PAYLOADS.get(event) or PAYLOADS[NOTIFIED[signal]]
        webhooks_event_task.delay(str(event), _plain(names, payload))


# A season's table changes with its events' results: its webhooks hear of it at most once a minute per
# season, a minute after the first change (the table as it stands then).
SEASON_WEBHOOK_SECONDS = 60


def season_changed(season_id: int) -> None:
    if cache.add(f"season-webhooks:{season_id}", True, timeout=SEASON_WEBHOOK_SECONDS):
        season_webhooks_task.apply_async(args=(season_id,), countdown=SEASON_WEBHOOK_SECONDS)


@receiver(
    [events.result_recorded, events.season_table_changed],
    dispatch_uid="league.notifications.receivers.season_tables",
)
def season_tables(signal, sender=None, **payload: Any) -> None:
    """Queue the webhooks of each season whose table the event changes (frozen seasons do not change)."""
    if signal is events.season_table_changed:
        season_ids = [payload["season_id"]]
    else:
        season_ids = list(
            Season.objects.filter(
                entries__tournament_id=payload["tournament_id"],
                entries__accepted_at__isnull=False,
                frozen_at__isnull=True,
                webhooks__isnull=False,
            )
            .distinct()
            .values_list("pk", flat=True)
        )
    for season_id in season_ids:
        season_changed(season_id)
