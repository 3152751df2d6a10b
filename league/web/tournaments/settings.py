"""The organizers' settings page: the tournament's settings, sign-up and schedule in one form, saved together
so that nothing typed into one part is lost by saving another."""

from __future__ import annotations

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from league.core.errors import UserError
from league.core.forms import add_user_error
from league.tournaments import services
from league.tournaments.forms import ScheduleForm, SignupForm, TournamentForm
from league.tournaments.models import Tournament
from league.web.tournaments.common import require_organizer, signed_in, tournament_or_404, warn_past_start
from league.web.tournaments.detail import game_ranges


def _started(tournament: Tournament) -> bool:
    return tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)


def _forms(tournament: Tournament, data=None) -> tuple[TournamentForm, SignupForm, ScheduleForm]:
    settings_form = TournamentForm.of(tournament, data)
    if _started(tournament):
        settings_form.disable(keep=services.CUT_SETTINGS if services.cut_settings_open(tournament) else ())
    signup_form = SignupForm.of(tournament, data)
    schedule_form = ScheduleForm.of(tournament, list(tournament.round_times.all()), data)
    return settings_form, signup_form, schedule_form


def _settings_page(request, tournament, forms=None, *, status=200, error=""):
    started = _started(tournament)
    settings_form, signup_form, schedule_form = forms or _forms(tournament)
    context = {
        "tournament": tournament,
        "form": settings_form,
        "games": game_ranges(),
        "signup_form": signup_form,
        "schedule_form": schedule_form,
        "started": started,
        "cut_open": started and services.cut_settings_open(tournament),
        "error": error,
    }
    return render(request, "tournaments/settings.html", context, status=status)


def settings_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's settings (as on the create form; read-only once it has started, but for the cut's
    until it is drawn), sign-up (cap, waitlist, approval) and the event's clock (zone, start, check-in, round
    times), in one form with one Save button."""
    tournament = tournament_or_404(request, slug)
    denied = require_organizer(request, tournament)
    if denied:
        return denied
    return _settings_page(request, tournament)


def _save_all(request: HttpRequest, tournament: Tournament, forms) -> None:
    """Every part of the form in one transaction: a refusal of any part stores none of them. The parts
    fixed by the start are left out (the service would refuse them)."""
    settings_form, signup_form, schedule_form = forms
    by = signed_in(request)
    with transaction.atomic():
        if not _started(tournament) or services.cut_settings_open(tournament):
            tournament = services.tournament_update(tournament=tournament, by=by, **settings_form.settings())
        if not _started(tournament):
            services.signup_configure(tournament=tournament, by=by, **signup_form.cleaned_data)
        services.tournament_schedule(tournament=tournament, by=by, **schedule_form.schedule())


def _form_of(forms, exc: UserError):
    """The part of the form that holds the field a service's error names (None: it goes on top)."""
    return next((form for form in forms if exc.field in form.fields), None)


@require_POST
def settings_save(request: HttpRequest, slug: str) -> HttpResponse:
    """Save the whole settings form; on any error the page comes back with everything as typed."""
    tournament = tournament_or_404(request, slug)
    denied = require_organizer(request, tournament)
    if denied:
        return denied
    forms = _forms(tournament, request.POST)
    if not all([form.is_valid() for form in forms]):  # a list: every part shows its errors
        return _settings_page(request, tournament, forms, status=400)
    try:
        _save_all(request, tournament, forms)
    except UserError as exc:
        form = _form_of(forms, exc)
        if form is not None:
            add_user_error(form, exc)
        tournament.refresh_from_db()
        return _settings_page(
            request, tournament, forms, status=exc.status, error="" if form is not None else exc.message
        )
    messages.success(request, "Settings saved.")
    tournament.refresh_from_db()
    warn_past_start(request, tournament)
    return redirect("tournaments:settings", slug=tournament.slug)
