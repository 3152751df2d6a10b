"""The list of matches. A match's page, the new-match page and result entry show or write results, so they
are `league.results.views`; `league.results.urls` maps them all under the `matches` namespace."""

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from league.core.catalogue import game_choices
from league.matches.models import Match
from league.matches.selectors import match_list, visible_to

MATCHES_PER_PAGE = 50


def match_index(request: HttpRequest) -> HttpResponse:
    game_id = request.GET.get("game", "")
    if game_id not in dict(game_choices()):
        game_id = ""
    status = request.GET.get("status", "")
    if status not in Match.Status.values:
        status = ""
    matches = visible_to(match_list(game_id=game_id, status=status), request.user)
    page = Paginator(matches, MATCHES_PER_PAGE).get_page(request.GET.get("page"))
    context = {"page": page, "game": game_id, "status": status, "statuses": Match.Status.choices}
    return render(request, "matches/list.html", context)
