"""The organizers' seating page (`/tournaments/<slug>/seating/`): each player's fixed physical table and
accessibility note, the draft round's pinned tables and what it breaks of the fixed seats
(`seating.fixed_seat_warnings`), and, once the event has ended, the deletion of its private data.

Only for whoever `seating.sees_floor_notes` allows (organizers and staff; judges once the role exists): the
notes appear on no other page."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from league.core.bidi import isolated
from league.core.bounds import whole_number
from league.core.errors import UserError
from league.tournaments import seating, services
from league.tournaments.models import Registration, Round, Tournament
from league.tournaments.services.seating import NOTE_MAX_LENGTH
from league.web.tournaments.common import require_organizer, signed_in, tournament_or_404


def _rows(tournament: Tournament) -> list[Registration]:
    rows = tournament.registrations.select_related("player").filter(status=Registration.Status.ACTIVE)
    return sorted(rows, key=lambda reg: (reg.player.name.casefold(), reg.player.name))


def _page(request: HttpRequest, tournament: Tournament, *, error: str = "", field: str = "", status=200):
    draft = tournament.round_set.filter(status=Round.Status.DRAFT).first()
    context = {
        "tournament": tournament,
        "rows": _rows(tournament),
        "draft": draft,
        "draft_tables": list(draft.tables.order_by("number")) if draft else [],
        "warnings": seating.fixed_seat_warnings(draft) if draft else [],
        "ended": tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED),
        "note_max": NOTE_MAX_LENGTH,
        "error": error,
        "error_field": field,
    }
    return render(request, "tournaments/seating.html", context, status=status)


def _floor(request: HttpRequest, slug: str) -> tuple[Tournament, HttpResponse | None]:
    tournament = tournament_or_404(request, slug)
    denied = require_organizer(request, tournament)
    return tournament, denied


def seating_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, denied = _floor(request, slug)
    return denied or _page(request, tournament)


def _number_or_none(text: str, field: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    number = whole_number(text)
    if number is None:
        raise UserError(f"{field.replace('_', ' ')} must be a whole number, or empty for none", field=field)
    return number


@require_POST
def seating_save(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    """`player`: a player's fixed table and note; `pin`: a draft table's physical number; `forget`: delete
    the ended event's private data."""
    tournament, denied = _floor(request, slug)
    if denied:
        return denied
    try:
        if action == "player":
            registration = tournament.registrations.filter(
                player_id=whole_number(request.POST.get("player", "")) or 0
            ).first()
            if registration is None:
                raise UserError("choose a registered player", field="player")
            services.registration_seating(
                registration=registration,
                by=signed_in(request),
                fixed_table=_number_or_none(request.POST.get("fixed_table", ""), "fixed_table"),
                accessibility_note=request.POST.get("accessibility_note", ""),
            )
            messages.success(request, f"Saved for {isolated(registration.player.name)}.")
        elif action == "pin":
            draft = tournament.round_set.filter(status=Round.Status.DRAFT).first()
            rank = whole_number(request.POST.get("table", ""))
            table = draft.tables.filter(number=rank).first() if draft and rank else None
            if table is None:
                raise UserError("choose a table of the draft round", field="table")
            physical = _number_or_none(request.POST.get("physical_number", ""), "physical_number")
            services.table_fix(table=table, by=signed_in(request), physical_number=physical)
            messages.success(
                request,
                f"The table ranked {rank} stands at table {physical} every round."
                if physical
                else f"The table ranked {rank} is no longer pinned.",
            )
        elif action == "forget":
            deleted = services.tournament_private_data_delete(tournament=tournament, by=signed_in(request))
            messages.success(
                request,
                f"Deleted {deleted['private_links']} private link(s) and "
                f"{deleted['accessibility_notes']} accessibility note(s).",
            )
        else:
            raise UserError("choose player, pin or forget", field="action")
    except UserError as exc:
        return _page(request, tournament, error=exc.message, field=exc.field or "", status=exc.status)
    return redirect(reverse("tournaments:seating", args=[tournament.slug]))
