"""The organizers' settings page: sign-up and schedule."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from league.core.errors import UserError
from league.core.forms import add_user_error
from league.tournaments import clock, services
from league.tournaments.forms import (
    ScheduleForm,
    SignupForm,
    TournamentForm,
)
from league.tournaments.models import Tournament
from league.web.tournaments.common import require_organizer, signed_in, tournament_or_404
from league.web.tournaments.detail import game_ranges


def _settings_page(
    request, tournament, *, status=200, error="", signup_form=None, schedule_form=None, settings_form=None
):
    round_times = list(tournament.round_times.all())
    started = tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)
    settings_form = settings_form or TournamentForm.of(tournament)
    cut_open = started and services.cut_settings_open(tournament)
    if started:
        settings_form.disable(keep=services.CUT_SETTINGS if cut_open else ())
    context = {
        "tournament": tournament,
        "form": settings_form,
        "games": game_ranges(),
        "signup_form": signup_form or SignupForm.of(tournament),
        "schedule_form": schedule_form or ScheduleForm.of(tournament, round_times),
        "zones": sorted(clock.zone_names()),
        "round_times": round_times,
        "started": started,
        "cut_open": cut_open,
        "error": error,
    }
    return render(request, "tournaments/settings.html", context, status=status)


def settings_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's settings (as on the create form; read-only once it has started), sign-up (cap,
    waitlist, approval) and the event's clock (zone, start, check-in, round times)."""
    tournament = tournament_or_404(request, slug)
    denied = require_organizer(request, tournament)
    if denied:
        return denied
    return _settings_page(request, tournament)


def _settings_save(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The tournament's settings: refused once it has started (whatever the form holds), else checked by
    the form, then by the service."""
    form = TournamentForm.of(tournament, request.POST)
    started = tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)
    if started:
        form.disable(keep=services.CUT_SETTINGS)
    try:
        if not services.cut_settings_open(tournament):
            services.check_settings_open(tournament)
        if not form.is_valid():
            return _settings_page(request, tournament, status=400, settings_form=form)
        tournament = services.tournament_update(
            tournament=tournament, by=signed_in(request), **form.settings()
        )
    except UserError as exc:
        on_field = exc.field in form.fields
        if on_field:
            add_user_error(form, exc)
        tournament.refresh_from_db()
        return _settings_page(
            request, tournament, status=exc.status, error="" if on_field else exc.message, settings_form=form
        )
    messages.success(request, "Settings saved.")
    return redirect("tournaments:settings", slug=tournament.slug)


@require_POST
def settings_save(request: HttpRequest, slug: str, part: str) -> HttpResponse:
    tournament = tournament_or_404(request, slug)
    if part not in ("tournament", "signup", "schedule"):
        raise Http404("no such settings")
    denied = require_organizer(request, tournament)
    if denied:
        return denied
    if part == "tournament":
        return _settings_save(request, tournament)
    form = (SignupForm if part == "signup" else ScheduleForm)(request.POST)
    forms = {"signup_form" if part == "signup" else "schedule_form": form}
    if not form.is_valid():
        return _settings_page(request, tournament, status=400, **forms)
    try:
        if part == "signup":
            services.signup_configure(tournament=tournament, by=signed_in(request), **form.cleaned_data)
        else:
            services.tournament_schedule(
                tournament=tournament, by=signed_in(request), **cast(ScheduleForm, form).schedule()
            )
    except UserError as exc:
        add_user_error(form, exc)
        tournament.refresh_from_db()
        return _settings_page(request, tournament, status=exc.status, **forms)
    messages.success(request, "Sign-up saved." if part == "signup" else "Schedule saved.")
    return redirect("tournaments:settings", slug=tournament.slug)
