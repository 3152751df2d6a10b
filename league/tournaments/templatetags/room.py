"""Template tags of the room's pages: the round timer, shown wherever a round is
(`{% round_timer round %}`)."""

from __future__ import annotations

import zoneinfo

from django import template
from django.conf import settings

from league.tournaments import timers
from league.tournaments.models import Round

register = template.Library()


@register.simple_tag
def live_seconds() -> int:
    """How often a live page fetches itself again (settings.TOURNAMENT_LIVE_SECONDS)."""
    return settings.TOURNAMENT_LIVE_SECONDS


@register.inclusion_tag("tournaments/room/_timer.html")
def round_timer(round_row: Round, big: bool = False) -> dict:
    """The round's timer: the instant it ends (a running one) or the time left (a paused one), counted down in
    the browser against the server's clock (`tournaments/live.js`), and without JavaScript the time it
    ends. An empty placeholder when the round has none, so that a page refreshing its
    live parts shows a timer started meanwhile."""
    view = timers.timer_view(round_row)
    zone = round_row.tournament.time_zone
    ends, ends_ms = "", 0
    if view is not None and view.ends_at is not None:
        ends = f"{view.ends_at.astimezone(zoneinfo.ZoneInfo(zone)):%H:%M} ({zone})"
        ends_ms = int(view.ends_at.timestamp() * 1000)  # an instant: a shared page's copy stays true
    return {"timer": view, "ends": ends, "ends_ms": ends_ms, "big": big, "number": round_row.number}


@register.simple_tag
def round_timer_state(round_row: Round) -> timers.TimerView | None:
    """The round's timer now (for the controls: which buttons apply), None without one."""
    return timers.timer_view(round_row)
