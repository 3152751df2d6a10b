"""A round's page, finding one's table, and the organizers' round actions (publish, complete, discard, swap,
move)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from league.core.bidi import isolated
from league.core.errors import UserError
from league.players.selectors import player_of
from league.tournaments import floor_selectors, pages, round_selectors, selectors, services
from league.tournaments.forms import (
    MoveForm,
    SwapForm,
)
from league.tournaments.models import Round, Tournament
from league.tournaments.services.common import names_version
from league.tournaments.templatetags.tournaments import my_table_link, my_table_mark
from league.web.tournaments.common import (
    int_field,
    require_organizer,
    round_or_404,
    round_url,
    signed_in,
    tournament_or_404,
)
from league.web.tournaments.shared import shared_page


def _move_form(view) -> MoveForm:
    """The draft's "move a player" form: every seated player (with their points before the round) and every
    bye, by name."""
    players = [
        (seat.player_id, seat.name if seat.before is None else f"{isolated(seat.name)} · {seat.before:g} pt")
        for table in view.tables
        for seat in table.seats
    ] + view.byes
    return MoveForm(players=sorted(players, key=lambda item: item[1].casefold()))


def round_page_response(request, tournament, number, *, status=200, error="", swap_form=None):
    """Round `number`'s page (`pages.round_page`) with its forms."""
    page = pages.round_page(tournament, request.user, number, table_page=request.GET.get("page"))
    context = {
        "table_pages": page.table_pages,
        "tournament": tournament,
        "game_name": page.game_name,
        "organizer": page.organizer,
        "round": page.round,
        "rounds": page.rounds,
        "quality": page.quality,
        "error": error,
        "swap_form": swap_form or SwapForm(),
        # shown to organizers on a draft
        "move_form": _move_form(page.round) if page.organizer and page.draft else None,
        "next_waiting": page.next_waiting,
        "can_score": page.can_score,
        "planned_start": page.planned_start,
        "flowing": page.flowing,
        "reports": page.reports,
        "self_report": page.self_report,
        "my_player_id": page.my_player_id,
        "can_generate_next": page.can_generate_next,
        "warnings": page.warnings,
        "extended": floor_selectors.extended_tables(page.round.row)
        if page.round.row.status == Round.Status.PUBLISHED
        else [],
    }
    return render(request, "tournaments/round.html", context, status=status)


def _own_table_link(request: HttpRequest, tournament: Tournament, body: str) -> str:
    """A round page shared with a signed-in player (`shared_page(splice=...)`): under self-report, the link
    to the table they sit at, after its card's mark, as the page rendered for them has it."""
    if tournament.result_reporting != Tournament.Reporting.SELF_REPORT:
        return body
    me = player_of(request.user)
    if me is None or request.resolver_match is None:
        return body
    number = request.resolver_match.kwargs["number"]
    for table in round_selectors.tables_of_player(tournament, number, me.pk):
        mark = my_table_mark(table)
        body = body.replace(mark, mark + my_table_link(tournament.slug, number, table), 1)
    return body


@shared_page(splice=_own_table_link)
def round_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return round_page_response(request, tournament_or_404(request, slug), number)


FIND_LIMIT = 10  # rows find my table answers with: type more of the name to narrow it down


def find_my_table(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Find my table: the players of the round whose name or user name holds `q` (folded: accents, case and
    punctuation ignored), at most `FIND_LIMIT`; a signed-in player's own row comes first."""
    tournament = tournament_or_404(request, slug)
    organizer = selectors.is_organizer(request.user, tournament)
    query = request.GET.get("q", "").strip()[:80]
    me = player_of(request.user)
    matching = selectors.players_matching(tournament, query) if query else set()
    if organizer:  # a draft round too: only the tables that seat the people asked for (one person: one table)
        span = round_selectors.tables_seating(
            tournament, number, matching | ({me.pk} if me is not None else set())
        )
        _, _, view = pages.round_state(tournament, number, organizer, tables=span)
    else:  # the published rounds, read once per state for every look (the path pages read the same)
        inputs = pages.path_inputs(tournament, names_version())
        view = next((view for view in inputs.views if view.number == number), None)
        if view is None:
            raise Http404("no such round")
    mine = round_selectors.find_my_table(view, {me.pk}) if me is not None else []
    found: list[round_selectors.FindRow] = []
    if query:
        found = round_selectors.find_my_table(view, matching)
    found = [row for row in found if row not in mine]
    context = {
        "tournament": tournament,
        "round": view,
        "query": query,
        "mine": mine,
        "rows": found[:FIND_LIMIT],
        "more": len(found) > FIND_LIMIT,
        "limit": FIND_LIMIT,
    }
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
