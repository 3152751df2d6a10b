"""Rating pages: the leaderboard of a game's people pool, and a player's page (ratings in every pool, the
rating-history chart, and their results)."""

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from games.core.errors import UnknownGame
from games.registry import get_spec
from league.core.catalogue import game_name
from league.matches.selectors import player_seats
from league.players.models import Player
from league.ratings.charts import Series, history_chart
from league.ratings.selectors import (
    LEADERBOARD_SORTS,
    leaderboard,
    people_pool,
    player_history,
    player_ratings,
)

LEADERBOARD_PAGE_SIZE = 50
RESULTS_PER_PAGE = 25


def game_leaderboard(request: HttpRequest, game_id: str) -> HttpResponse:
    try:
        spec = get_spec(game_id)
    except UnknownGame:
        raise Http404(f"no game {game_id!r}") from None
    sort = request.GET.get("sort", "rating")
    if sort not in LEADERBOARD_SORTS:
        sort = "rating"
    pool = people_pool(game_id)
    page = None
    if pool is not None:
        page = Paginator(leaderboard(pool, sort=sort), LEADERBOARD_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "ratings/leaderboard.html", {"spec": spec, "pool": pool, "page": page, "sort": sort})


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
