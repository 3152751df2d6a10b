"""Player pages: the list and a player's page with ratings, rating history and results."""

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from league.core.catalogue import game_name
from league.matches.selectors import player_seats
from league.players.models import Player
from league.players.selectors import player_list
from league.ratings.charts import Series, history_chart
from league.ratings.selectors import player_history, player_ratings

PLAYERS_PER_PAGE = 50
RESULTS_PER_PAGE = 25


def player_index(request: HttpRequest) -> HttpResponse:
    search = request.GET.get("q", "").strip()[:80]
    page = Paginator(player_list(search=search), PLAYERS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "players/list.html", {"page": page, "search": search})


def player_detail(request: HttpRequest, slug: str) -> HttpResponse:
    player = get_object_or_404(Player, slug=slug)
    ratings = list(player_ratings(player))
    by_pool: dict[int, list[float]] = {}
    for row in player_history(player).only("pool_id", "mu_after", "sigma_after", "match__played_at"):
        by_pool.setdefault(row.pool_id, []).append(row.conservative_after)
    chart = history_chart([Series(game_name(r.pool.game_id), by_pool.get(r.pool_id, [])) for r in ratings])
    page = Paginator(player_seats(player), RESULTS_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "players/detail.html",
        {"player": player, "ratings": ratings, "chart": chart, "page": page},
    )
