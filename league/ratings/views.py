"""Rating pages: the leaderboard of a game's people pool, and a player's page (ratings in every pool, the
rating-history chart, and their results)."""

from collections.abc import Iterable

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from games.core.errors import UnknownGame
from games.registry import get_spec
from league.core.catalogue import game_name
from league.matches.selectors import player_seats
from league.players.models import Player
from league.ratings import maths
from league.ratings.charts import Series, history_chart, reliability_chart
from league.ratings.models import Prediction, RatingHistory, RatingPool
from league.ratings.selectors import (
    LEADERBOARD_SORTS,
    history_points,
    leaderboard,
    people_pool,
    player_ratings,
    player_upsets,
    pool_calibration,
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
        page = Paginator(leaderboard(pool, sort=sort), LEADERBOARD_PAGE_SIZE).get_page(
            request.GET.get("page")
        )
    return render(
        request, "ratings/leaderboard.html", {"spec": spec, "pool": pool, "page": page, "sort": sort}
    )


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


def pool_calibration_page(request: HttpRequest, pk: int) -> HttpResponse:
    """How well a pool's pre-match chances predicted what happened: reliability, scores, biggest upsets."""
    pool = get_object_or_404(RatingPool, pk=pk)
    calibration = pool_calibration(pool)
    summary = calibration.summary if calibration is not None else {}
    upsets = summary.get("upsets", [])
    seats = {
        (row.match_id, row.seat): row
        for row in Prediction.objects.filter(match_id__in=[u["match"] for u in upsets]).select_related(
            "player"
        )
    }
    rows = [seats[(u["match"], u["seat"])] for u in upsets if (u["match"], u["seat"]) in seats]
    return render(
        request,
        "ratings/calibration.html",
        {
            "pool": pool,
            "calibration": calibration,
            "summary": summary,
            "chart": reliability_chart(summary.get("bins", [])),
            "worse_than_uniform": bool(summary.get("matches"))
            and summary["model"]["log_loss"] > summary["uniform"]["log_loss"],
            "upsets": rows,
        },
    )
