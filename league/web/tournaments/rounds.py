"""A round's page, finding one's table, and the organizers' round actions (publish, complete, discard, swap,
move)."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Max
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from league.core.catalogue import game_name
from league.core.errors import UserError
from league.matches.models import Match
from league.ratings.selectors import predictions_by_seat
from league.tournaments import seam, selectors, services
from league.tournaments.forms import (
    MoveForm,
    SwapForm,
)
from league.tournaments.models import Round, RoundTime, Tournament
from league.web.tournaments.common import (
    int_field,
    require_organizer,
    round_or_404,
    round_url,
    signed_in,
    tournament_or_404,
)


def round_state(
    tournament: Tournament, number: int, organizer: bool, tables: tuple[int, int] | None = None
) -> tuple:
    """The round's history (only that round's tables, within table numbers `tables` when given:
    `seam.load_round_part`), every round's view and this round's; 404 for a round not shown."""
    history = seam.load_round_part(tournament, number, tables)
    views = selectors.rounds(history, include_drafts=organizer)
    view = next((view for view in views if view.number == number), None)
    if view is None:
        raise Http404("no such round")
    return history, views, view


def _attach_forecasts(view) -> None:
    """Each seat of a published table gets its stored pre-match chances as `seat.forecast` (one query)."""
    forecasts = predictions_by_seat([table.match_id for table in view.tables if table.match_id])
    by_match: dict[int, dict[int, object]] = {}
    for (match_id, _), forecast in forecasts.items():
        by_match.setdefault(match_id, {})[forecast.player_id] = forecast
    for table in view.tables:
        for seat in table.seats:
            seat.forecast = by_match.get(table.match_id, {}).get(seat.player_id)


def _move_form(view) -> MoveForm:
    """The draft's "move a player" form: every seated player and every bye, by name."""
    players = [(seat.player_id, seat.name) for table in view.tables for seat in table.seats] + view.byes
    return MoveForm(players=sorted(players, key=lambda item: item[1].casefold()))


def round_page_response(request, tournament, number, *, status=200, error="", swap_form=None):
    organizer = selectors.is_organizer(request.user, tournament)
    planned = RoundTime.objects.filter(tournament=tournament, number=number).first()
    round_row = tournament.round_set.filter(number=number).first()
    # A draft shows every table (the organizer moves any player to any table); a published round a page of
    # tables by number (`selectors.table_page`), the first table still waiting found by one query.
    draft = round_row is not None and round_row.status == Round.Status.DRAFT
    page = selectors.page_number(request.GET.get("page"))
    history, views, view = round_state(
        tournament, number, organizer, None if draft else selectors.table_range(page)
    )
    top = (round_row.tables.aggregate(top=Max("number"))["top"] or 0) if round_row is not None else 0
    pages = 1 if draft else selectors.table_page(top)
    if draft:
        next_waiting = next((table for table in view.tables if not table.has_result), None)
    else:
        done = (Match.Status.FINISHED, Match.Status.VOID)
        next_waiting = (
            round_row.tables.filter(match__isnull=False)
            .exclude(match__status__in=done)
            .order_by("number")
            .first()
        )
    _attach_forecasts(view)
    first, last = selectors.table_range(page)
    context = {
        "table_pages": {"number": page, "count": pages, "first": first, "last": min(top, last), "top": top}
        if pages > 1
        else None,
        "tournament": tournament,
        "game_name": game_name(tournament.game_id),
        "organizer": organizer,
        "round": view,
        "rounds": views,
        "quality": round_row.quality if round_row is not None else view.row.quality,
        "error": error,
        "swap_form": swap_form or SwapForm(),
        "move_form": _move_form(view) if organizer and draft else None,  # shown to organizers on a draft
        "next_waiting": next_waiting,
        "can_score": organizer or selectors.is_scorekeeper(request.user, tournament),
        "planned_start": planned.starts_at if planned else None,
        "flowing": seam.flows(tournament, number),
        "reports": selectors.round_reports(view.tables) if not draft else None,
        "self_report": tournament.result_reporting == Tournament.Reporting.SELF_REPORT,
        "my_player_id": getattr(selectors.player_of(request.user), "pk", None),
        "can_generate_next": tournament.status == Tournament.Status.RUNNING
        and view.row.status == Round.Status.COMPLETE
        and view.number == views[-1].number
        and not seam.flows(tournament, number),
    }
    return render(request, "tournaments/round.html", context, status=status)


def round_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return round_page_response(request, tournament_or_404(request, slug), number)


def find_my_table(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = tournament_or_404(request, slug)
    organizer = selectors.is_organizer(request.user, tournament)
    _, _, view = round_state(tournament, number, organizer)
    context = {"tournament": tournament, "round": view, "rows": selectors.find_my_table(view)}
    return render(request, "tournaments/find.html", context)


@require_POST
def round_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    tournament = tournament_or_404(request, slug)
    denied = require_organizer(request, tournament)
    if denied:
        return denied
    round_row = round_or_404(tournament, number)
    swap_form = None
    try:
        if action == "publish":
            services.round_publish(round_row=round_row, by=signed_in(request))
            message = f"Round {number} published: the tables are out."
        elif action == "complete":
            services.round_complete(round_row=round_row, by=signed_in(request))
            tournament.refresh_from_db()
            message = f"Round {number} complete." + (
                " The tournament is finished." if tournament.status == Tournament.Status.FINISHED else ""
            )
        elif action == "discard":
            services.round_discard(round_row=round_row, by=signed_in(request))
            messages.success(request, f"Draft of round {number} discarded.")
            return redirect(tournament)
        elif action == "swap":
            swap_form = SwapForm(request.POST)
            if not swap_form.is_valid():
                raise UserError("give both tables and seats as whole numbers from 1")
            services.round_swap(round_row=round_row, by=signed_in(request), **swap_form.cleaned_data)
            message = "Seats swapped."
        elif action == "move":
            services.round_move(
                round_row=round_row,
                by=signed_in(request),
                player_id=int_field(request.POST, "player"),
                to_table=int_field(request.POST, "to_table"),
            )
            message = "Player moved."
        else:
            raise Http404("no such action")
    except UserError as exc:
        return round_page_response(
            request, tournament, number, status=exc.status, error=exc.message, swap_form=swap_form
        )
    messages.success(request, message)
    return redirect(round_url(tournament, number))
