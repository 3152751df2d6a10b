"""The judges' page of a tournament (`/tournaments/<slug>/judges/`): the live queue of judge calls (claim,
resolve with a note), extra time for a table, warnings and penalties, and for organizers the list of
penalty types; and a player's "call a judge" from their table's page. Who judges is `reach.may_judge`
(the event's judges, its organizers, site staff); the services check it again."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login as login_redirect
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from league.core.errors import NotFound, UserError
from league.tournaments import floor_selectors, reach, selectors
from league.tournaments.floor_models import JudgeCall, Penalty
from league.tournaments.models import Registration, Round, Table, Tournament
from league.tournaments.services import floor
from league.web.tournaments.common import int_field, signed_in, table_or_404, tournament_or_404

ACTIONS = ("claim", "resolve", "extend", "penalty", "types")
DONE = {
    "claim": "Call claimed: the table sees that a judge is coming.",
    "resolve": "Call resolved.",
    "extend": "Extra time given.",
    "penalty": "Penalty written down.",
    "types": "Penalty types saved.",
}


def _denied(request: HttpRequest, tournament: Tournament) -> HttpResponse | None:
    if not request.user.is_authenticated:
        return login_redirect(request.get_full_path(), reverse("accounts:login"))
    if not reach.may_judge(request.user, tournament):
        context = {
            "tournament": tournament,
            "message": "only the tournament's judges and organizers (and site staff) can do this",
        }
        return render(request, "tournaments/forbidden.html", context, status=403)
    return None


def _current_round(tournament: Tournament) -> Round | None:
    return (
        tournament.round_set.exclude(status=Round.Status.DRAFT)
        .select_related("tournament")
        .order_by("-number")
        .first()
    )


def _page(request: HttpRequest, tournament: Tournament, *, status: int = 200, error: str = "", form=None):
    round_row = _current_round(tournament)
    if round_row is not None and round_row.status != Round.Status.PUBLISHED:
        round_row = None  # the latest round is complete: no table is playing
    tables = (
        list(round_row.tables.filter(match__isnull=False).order_by("number").values_list("number", flat=True))
        if round_row is not None
        else []
    )
    players = list(
        Registration.objects.filter(tournament=tournament)
        .exclude(status=Registration.Status.INVITED)
        .order_by("player__name", "player_id")
        .values_list("player_id", "player__name")
    )
    context = {
        "tournament": tournament,
        "organizer": selectors.is_organizer(request.user, tournament),
        "queue": floor_selectors.call_queue(tournament),
        "resolved": floor_selectors.calls_resolved(tournament),
        "round": round_row,
        "tables": tables,
        "extended": floor_selectors.extended_tables(round_row) if round_row is not None else [],
        "players": players,
        "types": floor_selectors.penalty_types_of(tournament),
        "kinds": Penalty.Kind.choices,
        "penalties": floor_selectors.penalties_of(tournament),
        "error": error,
        "form": form or {},
        "max_minutes": floor.EXTENSION_MINUTES.high,
    }
    return render(request, "tournaments/judges.html", context, status=status)


def judge_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_or_404(request, slug)
    denied = _denied(request, tournament)
    return denied or _page(request, tournament)


def _call(tournament: Tournament, data) -> JudgeCall:
    call = JudgeCall.objects.filter(tournament=tournament, pk=int_field(data, "call")).first()
    if call is None:
        raise NotFound("no such call", field="call")
    return call


def _table(tournament: Tournament, data) -> Table:
    round_row = _current_round(tournament)
    number = int_field(data, "table")
    table = (
        Table.objects.filter(round=round_row, number=number, match__isnull=False).first()
        if round_row is not None
        else None
    )
    if table is None:
        raise NotFound(f"the current round has no table {number}", field="table")
    return table


def _int_or_none(data, name: str) -> int | None:
    return None if data.get(name, "") in ("", None) else int_field(data, name)


@require_POST
def judge_action(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    if action not in ACTIONS:
        raise Http404("no such action")
    tournament = tournament_or_404(request, slug)
    denied = _denied(request, tournament)
    if denied:
        return denied
    user, data = signed_in(request), request.POST
    try:
        if action == "claim":
            floor.judge_call_claim(call=_call(tournament, data), by=user)
        elif action == "resolve":
            floor.judge_call_resolve(call=_call(tournament, data), by=user, note=data.get("note", ""))
        elif action == "extend":
            floor.table_extend(
                table=_table(tournament, data),
                by=user,
                minutes=int_field(data, "minutes"),
                note=data.get("note", ""),
            )
        elif action == "penalty":
            floor.penalty_give(
                tournament=tournament,
                by=user,
                player_id=int_field(data, "player"),
                infraction=data.get("infraction", ""),
                kind=data.get("kind", ""),
                points=data.get("points") or None,
                note=data.get("note", ""),
                round_number=_int_or_none(data, "round"),
            )
        else:
            names = [line.strip() for line in data.get("types", "").splitlines() if line.strip()]
            floor.penalty_types_set(tournament=tournament, by=user, names=names)
    except UserError as exc:
        return _page(request, tournament, status=exc.status, error=exc.message, form={action: data})
    messages.success(request, DONE[action])
    return redirect("tournaments:judges", slug=tournament.slug)


@require_POST
def table_call(request: HttpRequest, slug: str, number: int, table_number: int) -> HttpResponse:
    """A signed-in player at the table calls a judge; back to the table's page, which says so."""
    tournament = tournament_or_404(request, slug)
    table = table_or_404(tournament, number, table_number)
    page = reverse("tournaments:table", args=[slug, number, table_number])
    if not request.user.is_authenticated:
        return login_redirect(page, reverse("accounts:login"))
    try:
        floor.judge_call_open(table=table, by=request.user)
    except UserError as exc:
        messages.error(request, exc.message[0].upper() + exc.message[1:] + ".")
        return redirect(page)
    messages.success(request, "A judge is called: stay at your table, they come as soon as they can.")
    return redirect(page)
