"""Keypad entry: a scorekeeper types a round's results from its slips with a keypad alone.

Type the table's number (its physical number, or the slip's short code "3.12"), Enter: the page shows who
sits there, in seat order, and waits for the places. Type one digit per seat (1 the winner; tied players share
a place: "1134"), Enter: the result is stored through the match owner's rules (`services.table_result`, the
same entry as the table's result page) and the page comes back with the table field ready for the next slip.
Both at once (table, Tab, places, Enter) works too. The tables still missing are listed beneath.

Only a first result is entered here: a table that has one is corrected on its own result page, with a reason.
Organizers and scorekeepers (the `scorer` check of `require_organizer`; a judge role widens that check).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from league.core.bidi import isolated
from league.core.errors import UserError
from league.matches.models import Match
from league.tournaments import seating, services
from league.tournaments.models import Round, Table, Tournament
from league.web.tournaments.common import require_organizer, round_or_404, signed_in, tournament_or_404

PLACE_MARKS = " .,-*/+"  # what a keypad may put between the digits: ignored


@dataclass(frozen=True)
class Chosen:
    """The table a keypad entry names, with its seats (names in seat order) and its result version."""

    table: Table
    names: list[str]
    version: int


def _missing(round_row: Round) -> list[int]:
    """The physical numbers of the round's published tables still waiting for a result, in that order."""
    rows = (
        Table.objects.filter(
            round=round_row, match__status__in=[Match.Status.SCHEDULED, Match.Status.RUNNING]
        )
        .exclude(closed_as=Table.Closed.RESET)
        .values_list("number", "physical_number")
    )
    return sorted(physical or number for number, physical in rows)


def _choose(round_row: Round, text: str) -> Chosen:
    """The published table that `text` names in `round_row`, or a UserError saying why none."""
    if not text.strip():
        raise UserError("type the table's number (or the code on its slip)", field="table")
    physical = seating.read_table(text, round_row.number)
    if physical is None:
        raise UserError(
            f"“{text.strip()[:20]}” names no table of round {round_row.number}: type the table's number, "
            f"like 12, or its slip's code, like {round_row.number}.12",
            field="table",
        )
    tables = (
        Table.objects.filter(round=round_row).exclude(closed_as=Table.Closed.RESET).select_related("match")
    )
    table = (
        tables.filter(physical_number=physical).first()
        or tables.filter(physical_number__isnull=True, number=physical).first()
    )
    if table is None or table.match is None:
        raise UserError(f"round {round_row.number} has no table {physical}", field="table")
    if table.match.status in (Match.Status.FINISHED, Match.Status.VOID):
        raise UserError(
            f"table {physical} already has a result: correct it on its result page, saying why",
            field="table",
        )
    names = list(table.match.seats.order_by("seat").values_list("player__name", flat=True))
    return Chosen(table, names, table.match.result_version)


def _places(text: str, seats: int, physical: int) -> list[int]:
    """The places typed for a table of `seats` seats: one digit per seat, in seat order."""
    digits = [character for character in text if character not in PLACE_MARKS]
    if not digits:
        raise UserError(
            f"type the places of table {physical}: one digit per seat, in seat order", field="places"
        )
    if not all(character in "0123456789" for character in digits):
        raise UserError("places are digits only, one per seat: 1 is the winner", field="places")
    if len(digits) != seats:
        raise UserError(
            f"table {physical} has {seats} seats: type {seats} places, one digit per seat "
            f"(you typed {len(digits)})",
            field="places",
        )
    return [int(character) for character in digits]


def _version(text: str | None, chosen: Chosen) -> int:
    """The result version the page showed (a result stored since then answers a conflict), else the
    table's own."""
    return int(text) if text and text.isascii() and text.isdigit() and len(text) < 10 else chosen.version


def keypad_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The keypad entry page of round `number` (GET), and each keypad entry (POST)."""
    tournament = tournament_or_404(request, slug)
    denied = require_organizer(request, tournament, scorer=True)
    if denied:
        return denied
    round_row = round_or_404(tournament, number)
    context: dict = {"tournament": tournament, "round_row": round_row, "table_text": "", "places_text": ""}
    status = 200
    if request.method == "POST" and round_row.status != Round.Status.DRAFT:
        table_text = request.POST.get("table", "")[:40]
        places_text = request.POST.get("places", "")[:40]
        context.update(table_text=table_text.strip(), places_text=places_text.strip())
        chosen = None
        try:
            chosen = _choose(round_row, table_text)
            context["chosen"] = chosen
            if places_text.strip():
                places = _places(places_text, len(chosen.names), chosen.table.physical)
                services.table_result(
                    table=chosen.table,
                    by=signed_in(request),
                    expected_version=_version(request.POST.get("version"), chosen),
                    places=places,
                )
                shown = ", ".join(
                    f"{isolated(name)} {place}" for name, place in zip(chosen.names, places, strict=True)
                )
                messages.success(request, f"Table {chosen.table.physical} saved: {shown}.")
                return redirect(reverse("tournaments:keypad", args=[tournament.slug, number]))
        except UserError as exc:
            context["error"] = exc.message
            context["error_field"] = "places" if chosen is not None and exc.field != "table" else "table"
            status = exc.status
    return render(request, "tournaments/keypad.html", _page(tournament, round_row, context), status=status)


def _page(tournament: Tournament, round_row: Round, context: dict) -> dict:
    missing = _missing(round_row) if round_row.status != Round.Status.DRAFT else []
    context.update(missing=missing, tables=round_row.tables.count())
    return context
