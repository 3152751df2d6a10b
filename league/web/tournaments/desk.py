"""The organizers' desk: the check-in page, the start (with its confirmation under check-in), organizers and
scorekeepers."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from league.core.errors import UserError
from league.core.forms import add_user_error
from league.tournaments import seam, selectors, services
from league.tournaments.forms import (
    RoleForm,
)
from league.tournaments.models import Registration, Tournament
from league.web.tournaments.common import (
    int_field,
    player_ids,
    require_organizer,
    signed_in,
    tournament_or_404,
    wants_json,
)
from league.web.tournaments.detail import detail_response


def _check_in_rows(tournament: Tournament) -> list[Registration]:
    rows = tournament.registrations.select_related("player").filter(
        status__in=[Registration.Status.ACTIVE, Registration.Status.WAITLISTED]
    )
    return sorted(rows, key=lambda reg: (reg.player.name.casefold(), reg.player.name))


def _check_in_counts(rows: list[Registration]) -> dict[str, int]:
    active = [reg for reg in rows if reg.status == Registration.Status.ACTIVE]
    queued = [reg for reg in rows if reg.status == Registration.Status.WAITLISTED]
    return {
        "registered": len(active),
        "registered_checked_in": sum(1 for reg in active if reg.checked_in_at),
        "waitlisted": len(queued),
        "waitlisted_checked_in": sum(1 for reg in queued if reg.checked_in_at),
    }


def check_in_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The organizers' check-in desk: every registered and waitlisted player by name, one button each; `q`
    keeps the players whose name or user name holds it, folded (`selectors.desk_search`).

    A POST checks one player in (or undoes it): answered with JSON for the page's script (`Accept:
    application/json`), else with a redirect back to the list (keeping its search)."""
    tournament = tournament_or_404(request, slug)
    denied = require_organizer(request, tournament)
    if denied:
        return denied
    error, status = "", 200
    if request.method == "POST":
        try:
            reg = services.registration_check_in(
                tournament=tournament,
                by=signed_in(request),
                player_id=int_field(request.POST, "player"),
                checked_in=request.POST.get("checked_in") != "0",
            )
        except UserError as exc:
            if wants_json(request):
                return JsonResponse(exc.as_dict(), status=exc.status)
            error, status = exc.message, exc.status
            tournament.refresh_from_db()
        else:
            if wants_json(request):
                return JsonResponse(
                    {
                        "player": reg.player_id,
                        "name": reg.player.name,
                        "checked_in": reg.checked_in_at is not None,
                        "counts": _check_in_counts(_check_in_rows(tournament)),
                    }
                )
            done = "checked in" if reg.checked_in_at else "no longer checked in"
            messages.success(request, f"{reg.player.name}: {done}.")
            query = request.POST.get("q", "")
            url = reverse("tournaments:check-in", kwargs={"slug": slug})
            return redirect(url + (f"?{urlencode({'q': query})}" if query else ""))
    rows = _check_in_rows(tournament)
    query = request.GET.get("q", "").strip()[:80]
    shown = selectors.desk_search(rows, query) if query else rows
    context = {
        "tournament": tournament,
        "rows": shown,
        "counts": _check_in_counts(rows),
        "query": query,
        "state": selectors.check_in_state(tournament),
        "error": error,
    }
    return render(request, "tournaments/check_in.html", context, status=status)


def start_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Start the tournament. Under check-in, a confirmation page first: who is dropped as a no-show, who moves
    up from the waitlist, who stays waiting; its form starts with exactly those lists (a plan that changed
    meanwhile is refused and shown again). Without check-in a POST starts at once, as from the button."""
    tournament = tournament_or_404(request, slug)
    denied = require_organizer(request, tournament)
    if denied:
        return denied
    error, status = "", 200
    if request.method == "POST":
        try:
            services.tournament_start(
                tournament=tournament,
                by=signed_in(request),
                confirm=request.POST.get("confirm") == "1",
                dropped=player_ids(request.POST, "dropped"),
                promoted=player_ids(request.POST, "promoted"),
            )
        except UserError as exc:
            tournament.refresh_from_db()
            if not tournament.check_in or tournament.status != Tournament.Status.REGISTRATION:
                return detail_response(request, tournament, status=exc.status, error=exc.message)
            error, status = exc.message, exc.status
        else:
            messages.success(request, "The tournament has started: generate round 1.")
            return redirect(tournament)
    if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        return redirect(tournament)
    plan = selectors.start_plan(tournament)
    queue = [reg.pk for reg in selectors.waitlist(list(tournament.registrations.all()))]
    context = {
        "tournament": tournament,
        "plan": plan,
        "positions": {pk: position for position, pk in enumerate(queue, start=1)},
        "minimum": max(2, seam.table_spec(tournament).minimum),
        "error": error,
    }
    return render(request, "tournaments/start.html", context, status=status)


def _roles_page(request, tournament, *, status=200, form=None):
    context = {"tournament": tournament, "roles": selectors.roles(tournament), "form": form or RoleForm()}
    return render(request, "tournaments/roles.html", context, status=status)


def roles_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Organizers and scorekeepers: the list, and a form adding one by user name (POST).

    The right to add is checked first (`require_organizer`, then the service again), so a user who may not
    add gets the same 403 whether or not the name exists."""
    tournament = tournament_or_404(request, slug)
    denied = require_organizer(request, tournament)
    if denied:
        return denied
    if request.method != "POST":
        return _roles_page(request, tournament)
    data = request.POST.copy()
    data.setdefault("role", "organizer")
    form = RoleForm(data)
    try:
        if not form.is_valid():
            raise UserError("name the user to add", field="username")
        user = services.role_add(tournament=tournament, by=signed_in(request), **form.cleaned_data)
    except UserError as exc:
        add_user_error(form, exc)
        return _roles_page(request, tournament, status=exc.status, form=form)
    role = form.cleaned_data["role"]
    messages.success(
        request,
        f"{user.get_username()} now "
        f"{ {'organizer': 'organizes', 'judge': 'judges'}.get(role, 'keeps score at') } this tournament.",
    )
    return redirect("tournaments:organizers", slug=tournament.slug)


@require_POST
def role_remove(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_or_404(request, slug)
    denied = require_organizer(request, tournament)
    if denied:
        return denied
    username = request.POST.get("username", "")
    try:
        user = services.role_remove(
            tournament=tournament, by=signed_in(request), username=username, role=request.POST.get("role")
        )
    except UserError as exc:
        form = RoleForm()
        form.add_error(None, exc.message)
        return _roles_page(request, tournament, status=exc.status, form=form)
    messages.success(request, f"{user.get_username()} no longer has that role here.")
    return redirect("tournaments:organizers", slug=tournament.slug)


@require_POST
def names_set(request: HttpRequest, slug: str) -> HttpResponse:
    """Organizers choose how public pages name the players: full names, or first name and initial."""
    tournament = tournament_or_404(request, slug)
    denied = require_organizer(request, tournament)
    if denied:
        return denied
    short = request.POST.get("short_names") == "yes"
    services.tournament_names_set(tournament=tournament, by=signed_in(request), short_names=short)
    messages.success(
        request,
        "Public pages show players by first name and initial."
        if short
        else "Public pages show players' full names.",
    )
    return redirect("tournaments:organizers", slug=tournament.slug)
