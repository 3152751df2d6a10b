"""Template tags of the floor (issue 48): a table's own timer (its round's, moved on by its extra time), a
table's extra time in words, the judge call of a table, and why the standings take points off."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django import template

from league.players.models import Player
from league.tournaments import floor_selectors
from league.tournaments.floor_selectors import ExtendedTable
from league.tournaments.models import Table, Tournament

register = template.Library()


def _hhmm(instant, zone: str) -> str:
    return f"{instant.astimezone(zoneinfo.ZoneInfo(zone)):%H:%M}"


@register.inclusion_tag("tournaments/room/_timer.html")
def table_timer(table: Table, big: bool = False) -> dict[str, Any]:
    """The timer of one table: its round's timer moved on by the table's extra minutes, saying so."""
    round_row = table.round
    minutes = floor_selectors.extensions_of([table.pk]).get(table.pk, 0)
    view = floor_selectors.table_timer(round_row, minutes) if round_row.status == "published" else None
    zone = round_row.tournament.time_zone
    ends = f"{_hhmm(view.ends_at, zone)} ({zone})" if view is not None and view.ends_at is not None else ""
    # an instant: the browser counts down to it (`room.js`), so a shared copy of the page stays true
    ends_ms = int(view.ends_at.timestamp() * 1000) if view is not None and view.ends_at is not None else 0
    return {
        "timer": view,
        "ends": ends,
        "ends_ms": ends_ms,
        "big": big,
        "number": round_row.number,
        "table_number": table.number,
        "extra": minutes,
    }


@register.simple_tag
def extra_time(extended: ExtendedTable | None, tournament: Tournament) -> str:
    """A table's extra time in words: "+10 min, ends 13:00", "+10 min, ended 13:00", or "+10 min" (no
    running timer)."""
    if extended is None:
        return ""
    text = f"+{extended.minutes} min"
    timer = extended.timer
    if timer is not None and timer.ends_at is not None:
        verb = "ends" if extended.still_running else "ended"
        text += f", {verb} {_hhmm(timer.ends_at, tournament.time_zone)}"
    return text


@register.simple_tag
def judge_call_of(table: Table):
    """The table's judge call that is not resolved yet, or None."""
    return floor_selectors.table_call(table)


@register.simple_tag
def standings_penalties(tournament: Tournament) -> list[tuple[str, str]]:
    """(player name, reason) of each points penalty the standings count, for the note under them."""
    reasons = floor_selectors.penalty_reasons(tournament.pk)
    names = dict(Player.objects.filter(pk__in=list(reasons)).values_list("pk", "name"))
    return [(names[pid], reason) for pid, texts in reasons.items() for reason in texts]
