"""A table's page and its result: entry by organizers and scorekeepers, closing, and the players' own reports
and disputes."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login as login_redirect
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from league.core.catalogue import game_spec
from league.core.errors import UserError
from league.results.entry import result_entry_form
from league.results.forms import ResultForm
from league.results.selectors import counting_advancing
from league.tournaments import floor_selectors, pages, reach, report_selectors, selectors, services
from league.tournaments.formats import table_cut
from league.tournaments.forms import (
    AdvancingForm,
    CloseForm,
    DisputeForm,
)
from league.tournaments.models import Table, Tournament
from league.web.tournaments.common import (
    first_error,
    int_field,
    require_organizer,
    round_url,
    signed_in,
    table_or_404,
    tournament_or_404,
)
from league.web.tournaments.rounds import round_page_response


def table_result(request: HttpRequest, slug: str, number: int, table_number: int) -> HttpResponse:
    """Result entry for one table; saving goes straight to the next table still waiting (in table order,
    then back to the first one still waiting), so Enter is the one keystroke from table to table."""
    tournament = tournament_or_404(request, slug)
    denied = require_organizer(request, tournament, scorer=True)
    if denied:
        return denied
    table = table_or_404(tournament, number, table_number)
    match = table.published_match
    seats = list(match.seats.select_related("player").order_by("seat"))
    cut = table_cut(tournament, number, table.label)
    advancing_form = None
    if cut is not None:
        initial = {"advancing": counting_advancing(match)}
        advancing_form = AdvancingForm(request.POST or None, seats=seats, initial=initial)

    reset_asked: list[str] = []

    def submit(**result):
        advancing = None
        if advancing_form is not None and advancing_form.is_bound:
            if not advancing_form.is_valid():
                raise UserError("advancing lists players of this table", field="advancing")
            advancing = advancing_form.cleaned_data["advancing"] or None
        try:
            return services.table_result(
                table=table,
                by=request.user,
                advancing=advancing,
                reset=request.POST.get("reset") == "yes",
                **result,
            )
        except UserError as exc:
            if exc.field == "reset":
                reset_asked.append(exc.message)
            raise

    entry = result_entry_form(request.POST or None, match=match, seats=seats, submit=submit)
    if entry.saved:
        messages.success(request, f"Table {table.number}: result saved.")
        waiting = list(
            Table.objects.filter(round=table.round)
            .exclude(match__status__in=["finished", "void"])
            .order_by("number")
            .values_list("number", flat=True)
        )
        following = next(
            (number for number in waiting if number > table.number), waiting[0] if waiting else None
        )
        if following is not None:
            return redirect("tournaments:result", slug=slug, number=number, table_number=following)
        return redirect(round_url(tournament, number))
    entry.form.fields["place_0"].widget.attrs["autofocus"] = True
    leavers = [] if table.closed_as else [seat for seat in seats if seat.player_id in table.absent]
    if leavers and not entry.form.is_bound and match.result_version == 0:
        for seat in leavers:
            entry.form.initial[f"place_{seat.seat}"] = len(seats) - len(leavers) + 1
    reporting = report_selectors.table_reporting(table, request.user, _seat_views(tournament, table))
    tables = list(table.round.tables.order_by("number").values_list("number", flat=True))
    position = tables.index(table.number)
    context = {
        "tournament": tournament,
        "table": table,
        "match": match,
        "form": entry.form,
        "spec": game_spec(tournament.game_id),
        "previous": tables[position - 1] if position else None,
        "next": tables[position + 1] if position + 1 < len(tables) else None,
        "close_form": CloseForm(seats=seats),
        "organizer": selectors.is_organizer(request.user, tournament),
        "advancing_form": advancing_form,
        "cut": cut,
        "reset_asked": bool(reset_asked),
        "leavers": [seat.player.name for seat in leavers],
        "close_undoable": table.closed_as in (Table.Closed.NO_SHOW, Table.Closed.FORFEIT)
        and selectors.is_organizer(request.user, tournament)
        and selectors.undoable(tournament, "table.closed", table_id=table.pk),
        "undo_minutes": services.UNDO_MINUTES,
        "reporting": reporting,
        "claims": _claims(reporting, match.result_version),
    }
    return render(request, "tournaments/result.html", context, status=entry.status)


def _claims(reporting: report_selectors.TableReporting, version: int) -> list[dict]:
    """The players' claims an organizer can accept with one click: the report waiting for confirmation, or
    a dispute's two sides (the report and the disputing player's places). Each carries the fields the entry
    form posts: the places, the scores and, for a correction, the reason."""
    sides = []
    if reporting.dispute is not None:
        dispute = reporting.dispute
        report = dispute.report
        sides.append((report.reporter, "reported", report.claim, report.places, report.scores))
        if dispute.places:
            sides.append((dispute.player, "claims", dispute.claim, dispute.places, dispute.scores))
    elif reporting.open is not None:
        report = reporting.open
        sides.append((report.reporter, "reported", report.claim, report.places, report.scores))
    claims = []
    for name, verb, text, places, scores in sides:
        fields: list[tuple[str, object]] = [("expected_version", version)]
        fields += [(f"place_{seat}", place) for seat, place in enumerate(places)]
        fields += [(f"score_{seat}", score) for seat, score in enumerate(scores or [])]
        if version:
            fields.append(("reason", f"dispute settled: {name}'s claim accepted"))
        claims.append({"name": name, "verb": verb, "text": text, "fields": fields})
    return claims


@require_POST
def table_close(request: HttpRequest, slug: str, number: int, table_number: int) -> HttpResponse:
    tournament = tournament_or_404(request, slug)
    denied = require_organizer(request, tournament)
    if denied:
        return denied
    table = table_or_404(tournament, number, table_number)
    seats = list(table.published_match.seats.select_related("player").order_by("seat"))
    form = CloseForm(request.POST, seats=seats)
    try:
        if not form.is_valid():
            raise UserError("tick the absent players and choose no-show or forfeit")
        closed = services.table_close(
            table=table,
            by=signed_in(request),
            absent=form.cleaned_data["absent"],
            kind=form.cleaned_data["kind"],
            advancing=form.cleaned_data["advancing"] or None,
        )
    except UserError as exc:
        return round_page_response(request, tournament, number, status=exc.status, error=exc.message)
    messages.success(
        request,
        f"Table {table.number} closed as {Table.Closed(closed.closed_as).label.lower()}. You can undo it "
        f"for {services.UNDO_MINUTES} minutes on the table's result page.",
    )
    return redirect(round_url(tournament, number))


@require_POST
def table_close_undo(request: HttpRequest, slug: str, number: int, table_number: int) -> HttpResponse:
    """Undo the closing of a table (`services.table_close_undo`): back to its result page, waiting."""
    tournament = tournament_or_404(request, slug)
    denied = require_organizer(request, tournament)
    if denied:
        return denied
    table = table_or_404(tournament, number, table_number)
    try:
        services.table_close_undo(table=table, by=signed_in(request))
    except UserError as exc:
        return round_page_response(request, tournament, number, status=exc.status, error=exc.message)
    messages.success(request, f"Table {table.number}: the closing is undone; it waits for its result.")
    return redirect("tournaments:result", slug=slug, number=number, table_number=table_number)


def _seat_views(tournament: Tournament, table: Table) -> list:
    _, _, view = pages.round_state(tournament, table.round.number, False, (table.number, table.number))
    return next(item for item in view.tables if item.id == table.pk).seats


def table_page_response(
    request,
    tournament,
    table,
    *,
    status=200,
    error="",
    report_form=None,
    claim_form=None,
    dispute_form=None,
    advancing_form=None,
):
    """A table's page: its seats and result, and for its players the self-report controls (report, confirm,
    dispute) with the state of the report."""
    seats = list(table.match.seats.select_related("player").order_by("seat"))
    seat_views = _seat_views(tournament, table)
    reporting = report_selectors.table_reporting(table, request.user, seat_views)
    cut = table_cut(tournament, table.round.number, table.label)
    if advancing_form is None and cut is not None:
        advancing_form = AdvancingForm(seats=seats)
    open_id = reporting.open.id if reporting.open else (reporting.stored.id if reporting.stored else None)
    context = {
        "tournament": tournament,
        "table": table,
        "match": table.match,
        "seats": seat_views,
        "reporting": reporting,
        "report_form": report_form
        or ResultForm(seats=seats, initial={"expected_version": table.match.result_version}),
        "claim_form": claim_form or ResultForm(seats=seats, prefix="claim", initial={"expected_version": 0}),
        "dispute_form": dispute_form or DisputeForm(initial={"report": open_id}),
        "advancing_form": advancing_form,
        "cut": cut,
        "error": error,
        "can_score": selectors.can_score(request.user, tournament),
        "self_report": tournament.result_reporting == Tournament.Reporting.SELF_REPORT,
        **_floor(request, tournament, table, [seat.player_id for seat in seats]),
    }
    return render(request, "tournaments/table.html", context, status=status)


def _floor(request: HttpRequest, tournament: Tournament, table: Table, seated: list[int]) -> dict:
    """The floor's part of a table's page: the open judge call (everyone sees "a judge is coming"), whether
    the signed-in reader sits at the table (and may call a judge), their own warnings and penalties
    (nobody else's), and whether the reader judges."""
    player = selectors.player_of(request.user) if request.user.is_authenticated else None
    me = player.pk if player is not None else None
    return {
        "judge_call": floor_selectors.table_call(table),
        "seated_me": me in seated,
        "my_penalties": floor_selectors.penalties_of(tournament, me) if me else [],
        "may_judge": reach.may_judge(request.user, tournament),
    }


def table_page(request: HttpRequest, slug: str, number: int, table_number: int) -> HttpResponse:
    tournament = tournament_or_404(request, slug)
    return table_page_response(request, tournament, table_or_404(tournament, number, table_number))


REPORT_DONE = {
    "report": "Result reported: it counts once the others at the table confirm it.",
    "confirm": "Confirmed.",
    "dispute": "Dispute sent: the organizers settle it.",
    "stored": "Confirmed: everyone agreed, the result is stored.",
    "withdraw": "Your report is taken back: report the result again once it is right.",
}


@require_POST
def table_report_action(
    request: HttpRequest, slug: str, number: int, table_number: int, action: str
) -> HttpResponse:
    """A player's report, confirmation or dispute of their table's result, or the reporter taking their report
    back (plain forms; the services check who may)."""
    if action not in ("report", "confirm", "dispute", "withdraw"):
        raise Http404("no such action")
    tournament = tournament_or_404(request, slug)
    table = table_or_404(tournament, number, table_number)
    if not request.user.is_authenticated:
        return login_redirect(
            reverse("tournaments:table", args=[slug, number, table_number]), reverse("accounts:login")
        )
    seats = list(table.published_match.seats.select_related("player").order_by("seat"))
    forms_used: dict = {}
    try:
        if action == "report":
            form = forms_used["report_form"] = ResultForm(request.POST, seats=seats)
            advancing = None
            if table_cut(tournament, number, table.label) is not None:
                chosen = forms_used["advancing_form"] = AdvancingForm(request.POST, seats=seats)
                if not chosen.is_valid():
                    raise UserError("advancing lists players of this table", field="advancing")
                advancing = chosen.cleaned_data["advancing"] or None
            if not form.is_valid():
                raise UserError(first_error(form))
            report = services.table_report(
                table=table,
                by=request.user,
                expected_version=form.cleaned_data["expected_version"],
                places=form.cleaned_data["places"],
                scores=form.cleaned_data["scores"],
                advancing=advancing,
            )
        elif action == "confirm":
            report = services.table_confirm(
                table=table, by=request.user, report_id=int_field(request.POST, "report")
            )
            if report.status == "stored":
                action = "stored"
        elif action == "withdraw":
            report = None
            services.table_report_withdraw(
                table=table, by=request.user, report_id=int_field(request.POST, "report")
            )
        else:
            claim = forms_used["claim_form"] = ResultForm(request.POST, seats=seats, prefix="claim")
            note = forms_used["dispute_form"] = DisputeForm(request.POST)
            if not claim.is_valid():
                raise UserError(first_error(claim))
            if not note.is_valid():
                raise UserError(first_error(note))
            report = None
            services.table_dispute(
                table=table,
                by=request.user,
                report_id=note.cleaned_data["report"],
                places=claim.cleaned_data["places"],
                scores=claim.cleaned_data["scores"],
                note=note.cleaned_data["note"],
            )
    except UserError as exc:
        return table_page_response(
            request, tournament, table, status=exc.status, error=exc.message, **forms_used
        )
    names = {seat.player_id: seat.player.name for seat in seats}
    through = report_selectors.through_text(
        [names[pid] for pid in (report.advancing if report else None) or []]
    )
    messages.success(request, REPORT_DONE[action] + (f" {through}." if through else ""))
    return redirect("tournaments:table", slug=slug, number=number, table_number=table_number)
