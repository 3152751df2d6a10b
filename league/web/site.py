"""The home page and the health page."""

from __future__ import annotations

from django.db.models import Q
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static

from league.core.catalogue import game_specs
from league.matches.models import Match
from league.matches.selectors import with_seats
from league.players.models import Player
from league.ratings.models import Rating
from league.site.health import health
from league.tournaments.models import Tournament
from league.tournaments.selectors import tournament_list

HOME_RECENT_MATCHES = 10


HOME_TOP_PLAYERS = 3


HOME_TOURNAMENTS = 5


def home_tournaments() -> tuple[list[Tournament], list[Tournament]]:
    """The public tournaments running now, and those open for sign-up (soonest start first), a few of each."""
    public = tournament_list()
    live = list(public.filter(status=Tournament.Status.RUNNING)[:HOME_TOURNAMENTS])
    upcoming = list(
        public.filter(status=Tournament.Status.REGISTRATION).order_by("starts_at", "-created_at", "-id")[
            :HOME_TOURNAMENTS
        ]
    )
    return live, upcoming


def home_results() -> list[Match]:
    """The latest finished matches that people played: a match with a bot at it (a bot league's, a
    challenge's) is left out, so a busy league does not push people's results off the page."""
    people = Match.objects.filter(status=Match.Status.FINISHED).exclude(
        Q(seats__player__kind=Player.Kind.BOT)
    )
    return list(with_seats(people.order_by("-played_at", "-id"))[:HOME_RECENT_MATCHES])


def home_leaders() -> list[dict]:
    """Each game with the top few of its people's pool (one query a game: the registry's games, not rows)."""
    return [
        {
            "spec": spec,
            "top": list(
                Rating.objects.filter(
                    pool__kind="people", pool__game_id=spec.id, player__kind=Player.Kind.PERSON
                )
                .select_related("player")
                .order_by("-conservative", "player__name")[:HOME_TOP_PLAYERS]
            ),
        }
        for spec in game_specs()
    ]


def home(request: HttpRequest) -> HttpResponse:
    live, upcoming = home_tournaments()
    context = {"games": home_leaders(), "recent": home_results(), "live": live, "upcoming": upcoming}
    return render(request, "site/home.html", context)


def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for by themselves: the SVG icon base.html links (resolved per request,
    as the static files' manifest may not exist yet when the URL map is imported)."""
    return HttpResponsePermanentRedirect(static("league/favicon.svg"))


def health_page(request: HttpRequest) -> HttpResponse:
    """Health as HTML, or JSON with `?format=json` or `Accept: application/json`; 503 when not healthy."""
    report = health()
    status = 200 if report.ok else 503
    wants_json = request.GET.get("format") == "json" or "application/json" in request.headers.get(
        "Accept", ""
    )
    if wants_json:
        return JsonResponse(report.as_dict(), status=status)
    return render(request, "site/health.html", {"health": report.as_dict()}, status=status)
