"""The rating pages, under the `ratings` namespace (/games/): a game's leaderboard and a pool's
calibration."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import path

from games.core.errors import UnknownGame
from games.registry import get_spec
from league.ratings.charts import reliability_chart
from league.ratings.models import Prediction, RatingPool, SettledFit
from league.ratings.selectors import (
    LEADERBOARD_SORTS,
    leaderboard,
    people_pool,
    pool_calibration,
)

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
        page = Paginator(leaderboard(pool, sort=sort), LEADERBOARD_PAGE_SIZE).get_page(
            request.GET.get("page")
        )
    return render(
        request, "ratings/leaderboard.html", {"spec": spec, "pool": pool, "page": page, "sort": sort}
    )


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
            "settled": SettledFit.objects.filter(pool=pool).first(),
        },
    )


app_name = "ratings"
urlpatterns = [
    path("pools/<int:pk>/calibration/", pool_calibration_page, name="calibration"),
    path("<slug:game_id>/", game_leaderboard, name="leaderboard"),
]
