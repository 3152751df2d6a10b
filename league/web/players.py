"""The player pages, under the `players` namespace: the list of players, and a player's page (their ratings
with their history, and their matches)."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import path
from django.utils import timezone

from league.core.catalogue import game_name
from league.matches.selectors import player_seats
from league.players.models import Player
from league.players.selectors import player_list, with_seat_counts
from league.ratings import maths
from league.ratings.charts import Series, history_chart
from league.ratings.models import RatingHistory, RatingPool
from league.ratings.selectors import (
    history_points,
    player_ratings,
    player_upsets,
)

PLAYERS_PER_PAGE = 50


def player_index(request: HttpRequest) -> HttpResponse:
    search = request.GET.get("q", "").strip()[:80]
    page = Paginator(player_list(search=search, kind=Player.Kind.PERSON), PLAYERS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    page.object_list = with_seat_counts(page.object_list)
    return render(request, "players/list.html", {"page": page, "search": search})


RESULTS_PER_PAGE = 25


def player_detail(request: HttpRequest, slug: str) -> HttpResponse:
    player = get_object_or_404(Player, slug=slug)
    ratings = list(player_ratings(player))
    chart = history_chart([_history_series(r.pool, rows) for r, rows in _history_by_rating(player, ratings)])
    upsets = player_upsets(player)
    seats = player_seats(player, viewer=request.user)
    page = Paginator(seats, RESULTS_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "players/detail.html",
        {
            "player": player,
            "ratings": ratings,
            "chart": chart,
            "page": page,
            "upsets": upsets,
            "upset_matches": {row.match_id for row in upsets},
        },
    )


def _history_by_rating(player: Player, ratings: list) -> list[tuple]:
    """Each rating with its history rows' (conservative rating, played at), one query for all pools."""
    by_pool: dict[int, list[tuple[float, object]]] = {}
    rows: Iterable[tuple] = history_points(
        RatingHistory.objects.filter(player=player).order_by(), "pool_id", "mu_after", "sigma_after"
    )
    rows = sorted(rows, key=lambda row: row[0])  # each pool's rows in their matches' order
    for pool_id, mu, sigma, played_at in rows:
        when = timezone.localtime(played_at) if played_at else None
        by_pool.setdefault(pool_id, []).append((maths.conservative(mu, sigma), when))
    return [(rating, by_pool.get(rating.pool_id, [])) for rating in ratings]


def _history_series(pool: RatingPool, rows: list[tuple]) -> Series:
    """A line named for what it rates: the game for its people's pool, else the pool (a bot league's)."""
    label = game_name(pool.game_id) if pool.kind == RatingPool.Kind.PEOPLE else pool.name
    dates = [when for _, when in rows]
    return Series(label, [value for value, _ in rows], dates if None not in dates else ())


app_name = "players"
urlpatterns = [
    path("", player_index, name="list"),
    path("<name_slug:slug>/", player_detail, name="detail"),
]
