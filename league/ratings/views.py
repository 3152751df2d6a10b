"""The leaderboard of a game's people pool."""

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games.core.errors import UnknownGame
from games.registry import get_spec
from league.ratings.selectors import LEADERBOARD_SORTS, leaderboard, people_pool

LEADERBOARD_PAGE_SIZE = 50


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
