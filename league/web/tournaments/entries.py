"""A signed-in player's own entry (join, leave, check in, answer an invitation) and bye requests."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login as login_redirect
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from league.core.errors import UserError
from league.tournaments import services
from league.tournaments.models import Registration
from league.web.tournaments.common import int_field, tournament_or_404
from league.web.tournaments.detail import detail_response

ENTRY_DONE = {
    "join": lambda reg: {
        Registration.Status.ACTIVE: "You are registered.",
        Registration.Status.WAITLISTED: "The tournament is full: you are on the waitlist.",
        Registration.Status.PENDING: "Your entry waits for the organizers' approval.",
    }[reg.status],
    "leave": lambda reg: "You have left the tournament.",
    "check-in": lambda reg: "You are checked in.",
    "undo-check-in": lambda reg: "Your check-in is undone.",
    "accept": lambda reg: "You accepted the invitation: you are registered.",
    "decline": lambda reg: "You declined the invitation.",
}


@require_POST
def entry_action(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    """The signed-in player's own entry: join, leave, check in (or undo it), answer an invitation."""
    tournament = tournament_or_404(request, slug)
    if action not in ENTRY_DONE:
        raise Http404("no such action")
    if not request.user.is_authenticated:
        return login_redirect(tournament.get_absolute_url())  # the players' login (settings.LOGIN_URL)
    reg: Registration | None  # None: an invitation declined
    try:
        if action == "join":
            reg = services.registration_join(tournament=tournament, by=request.user)
        elif action == "leave":
            reg = services.registration_withdraw(tournament=tournament, by=request.user)
        elif action in ("accept", "decline"):
            accept = action == "accept"
            reg = services.invitation_answer(tournament=tournament, by=request.user, accept=accept)
        else:
            reg = services.registration_check_in(
                tournament=tournament, by=request.user, checked_in=action == "check-in"
            )
    except UserError as exc:
        tournament.refresh_from_db()
        return detail_response(request, tournament, status=exc.status, error=exc.message)
    messages.success(request, ENTRY_DONE[action](reg))
    return redirect(tournament)


BYE_DONE = {
    "bye": "{name} has a bye in round {round}.",
    "sit_out": "{name} sits out round {round}.",
}


@require_POST
def bye_action(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    """Ask for a bye or a sit-out in a future Swiss round (`request`), or take it back (`cancel`): the
    signed-in player for themselves, an organizer for anyone (`player`). The service checks who may."""
    tournament = tournament_or_404(request, slug)
    if action not in ("request", "cancel"):
        raise Http404("no such action")
    if not request.user.is_authenticated:
        return login_redirect(tournament.get_absolute_url(), reverse("accounts:login"))
    data = request.POST
    player_id = int_field(data, "player") if data.get("player") else None
    try:
        number = int_field(data, "round")
        if action == "request":
            row = services.bye_request(
                tournament=tournament,
                by=request.user,
                round_number=number,
                kind=data.get("kind", "bye"),
                player_id=player_id,
            )
            done = BYE_DONE[row.kind].format(name=row.player.name, round=number)
        else:
            services.bye_cancel(
                tournament=tournament, by=request.user, round_number=number, player_id=player_id
            )
            done = f"The request for round {number} is taken back."
    except UserError as exc:
        tournament.refresh_from_db()
        return detail_response(request, tournament, status=exc.status, error=exc.message)
    messages.success(request, done)
    return redirect(tournament)
