"""The home page and the health page."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from league.core.catalogue import game_specs
from league.matches.selectors import match_list
from league.ratings.models import Rating
from league.site.health import health

HOME_RECENT_MATCHES = 10
HOME_TOP_PLAYERS = 3


def home(request: HttpRequest) -> HttpResponse:
    games = [
        {
            "spec": spec,
            "top": list(
                Rating.objects.filter(pool__kind="people", pool__game_id=spec.id)
                .select_related("player")
                .order_by("-conservative", "player__name")[:HOME_TOP_PLAYERS]
            ),
        }
        for spec in game_specs()
    ]
    recent = match_list()[:HOME_RECENT_MATCHES]
    return render(request, "site/home.html", {"games": games, "recent": recent})


def health_page(request: HttpRequest) -> HttpResponse:
    """Health as HTML, or JSON with `?format=json` or `Accept: application/json`; 503 when not healthy."""
    report = health()
    status = 200 if report.ok else 503
    wants_json = request.GET.get("format") == "json" or "application/json" in request.headers.get("Accept", "")
    if wants_json:
        return JsonResponse(report.as_dict(), status=status)
    return render(request, "site/health.html", {"health": report.as_dict()}, status=status)
