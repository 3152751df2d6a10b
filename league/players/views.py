"""The list of players (people: bots have their own list, under /bots/). A player's page shows ratings and
results, so it is `league.ratings.views`; `league.ratings.player_urls` maps both under the `players`
namespace."""

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from league.players.models import Player
from league.players.selectors import player_list, with_seat_counts

PLAYERS_PER_PAGE = 50


def player_index(request: HttpRequest) -> HttpResponse:
    search = request.GET.get("q", "").strip()[:80]
    page = Paginator(player_list(search=search, kind=Player.Kind.PERSON), PLAYERS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    page.object_list = with_seat_counts(page.object_list)
    return render(request, "players/list.html", {"page": page, "search": search})
