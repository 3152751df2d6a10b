"""A tournament's log page, for its organizers and site staff only; never public (it names accounts). The
entries are written by the services (`services.audit`) and worded by `league.tournaments.log`."""

from __future__ import annotations

import zoneinfo

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from league.tournaments.log import describe
from league.web.tournaments.common import require_organizer, tournament_or_404

ENTRIES_PER_PAGE = 50


def tournament_log(request: HttpRequest, slug: str) -> HttpResponse:
    """The log, 50 entries a page, newest first: when (the event's local time), who, what."""
    tournament = tournament_or_404(request, slug)
    denied = require_organizer(request, tournament)
    if denied:
        return denied
    entries = tournament.audit_entries.select_related("actor").order_by("-at", "-id")
    page = Paginator(entries, ENTRIES_PER_PAGE).get_page(request.GET.get("page"))
    zone = zoneinfo.ZoneInfo(tournament.time_zone)
    rows = [
        (
            entry.at.astimezone(zone),
            entry.actor.get_username() if entry.actor else "—",
            entry.action,
            describe(entry, tournament.time_zone, isolate=True),
        )
        for entry in page
    ]
    return render(
        request, "tournaments/room/log.html", {"tournament": tournament, "page": page, "rows": rows}
    )
