"""What every tournament page needs: the tournament (404 unless visible), the organizer check, a round and a
table by number, and reading small form fields."""

from __future__ import annotations

import zoneinfo
from typing import cast

from django.contrib import messages
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login as login_redirect
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from league.core.errors import UserError
from league.tournaments import clock, selectors
from league.tournaments.errors import NotOrganizer
from league.tournaments.models import Round, Table, Tournament


def tournament_or_404(request: HttpRequest, slug: str) -> Tournament:
    """The tournament the request names, if the user may see it. It also decides how the request's pages
    name its players: `request.short_names` (read by the templates' `person` tag through
    `league.core.context_processors.short_names`) is true where the tournament shows first names and
    initials to this user (`selectors.shows_short_names`). The rest of the request shows times in the event's
    zone. A GET reads the row once however often it asks (a shared page's wrapper and its view both ask)."""
    read = getattr(request, "_tournament_read", None)
    if read is not None and read[0] == slug and request.method in ("GET", "HEAD"):
        return read[1]
    tournament = selectors.visible_tournament(slug, request.user)
    if tournament is None:
        raise Http404("no such tournament")
    setattr(request, "short_names", selectors.shows_short_names(request.user, tournament))  # noqa: B010
    # The event's zone for its pages (`league.accounts.zones`); ReaderTimeZone ends it with the request.
    timezone.activate(zoneinfo.ZoneInfo(tournament.time_zone))
    setattr(request, "_tournament_read", (slug, tournament))  # noqa: B010
    return tournament


def shows_short_names(request: HttpRequest) -> bool:
    """Whether this request's tournament page names players by first name and initial (`tournament_or_404`
    decided it)."""
    return bool(getattr(request, "short_names", False))


def signed_in(request: HttpRequest) -> User:
    """`request.user` where the view has sent anonymous visitors to the login page already
    (`require_organizer`, `staff_member_required`)."""
    return cast(User, request.user)  # signed in: checked before


def require_organizer(
    request: HttpRequest, tournament: Tournament, *, scorer: bool = False
) -> HttpResponse | None:
    """A login redirect for anonymous visitors, a 403 page for users who do not organize (with `scorer`: who
    neither organize nor keep score); None when allowed."""
    if not request.user.is_authenticated:
        return login_redirect(request.get_full_path(), reverse("accounts:login"))
    allowed = (selectors.can_score if scorer else selectors.is_organizer)(request.user, tournament)
    if not allowed:
        error = (
            NotOrganizer("only the tournament's organizers and scorekeepers (and site staff) can do this")
            if (scorer)
            else NotOrganizer()
        )
        context = {"tournament": tournament, "message": error.message}
        return render(request, "tournaments/forbidden.html", context, status=403)
    return None


def round_url(tournament: Tournament, number: int) -> str:
    return reverse("tournaments:round", kwargs={"slug": tournament.slug, "number": number})


def round_or_404(tournament: Tournament, number: int) -> Round:
    round_row = tournament.round_set.filter(number=number).first()
    if round_row is None:
        raise Http404("no such round")
    return round_row


def int_field(data, name: str) -> int:
    try:
        return int(data.get(name, ""))
    except ValueError:
        raise UserError(f"{name.replace('_', ' ')} must be a whole number", field=name) from None


def table_or_404(tournament: Tournament, number: int, table_number: int) -> Table:
    table = (
        Table.objects.select_related("round__tournament", "match")
        .filter(round__tournament=tournament, round__number=number, number=table_number)
        .first()
    )
    if table is None or table.match is None:
        raise Http404("no such published table")
    return table


def first_error(form) -> str:
    errors = form.errors.get("__all__") or next(iter(form.errors.values()), ["check the form"])
    return str(errors[0])


def wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def player_ids(data, name: str) -> list[int] | None:
    if name not in data:
        return None
    try:
        return [int(value) for value in data.getlist(name) if value != ""]
    except ValueError:
        raise UserError(f"{name} lists player ids", field=name) from None


def warn_past_start(request: HttpRequest, tournament: Tournament) -> None:
    """A warning, never a refusal, when a tournament not yet started has its start in the past: organizers
    record events already played, and a typo in the year is caught here."""
    started = tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)
    if tournament.starts_at is not None and tournament.starts_at < timezone.now() and not started:
        messages.warning(
            request,
            f"The start, {clock.show(tournament.starts_at, tournament.time_zone)}, is in the past: "
            "kept as given (right for recording an event already played).",
        )
