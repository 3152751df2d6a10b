"""The player page's selector: everything a player's page shows, read in one call and returned as a frozen
dataclass (`league.web.players` renders it)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.http import Http404
from django.utils import timezone

from league.core.catalogue import game_name
from league.matches.selectors import player_seats
from league.players.models import Player
from league.ratings import maths
from league.ratings.charts import Series, history_chart
from league.ratings.models import Prediction, Rating, RatingHistory, RatingPool
from league.ratings.selectors import history_points, player_ratings, player_upsets

RESULTS_PER_PAGE = 25


@dataclass(frozen=True)
class PlayerPage:
    """A player's page: their ratings with the chart of their history, their matches (a page of seats, those
    the viewer may see) and their upsets (with the matches they happened in)."""

    player: Player
    ratings: list[Rating]
    chart: Any
    page: Page
    upsets: list[Prediction]
    upset_matches: set[int]


def player_page(slug: str, viewer: Any, *, page: str | None) -> PlayerPage:
    """The page of the player `slug` for `viewer`, at page `page` of their matches; 404 for no such player."""
    try:
        player = Player.objects.get(slug=slug)
    except Player.DoesNotExist:
        raise Http404("no such player") from None
    ratings = list(player_ratings(player))
    chart = history_chart([_history_series(r.pool, rows) for r, rows in _history_by_rating(player, ratings)])
    upsets = player_upsets(player)
    seats = player_seats(player, viewer=viewer)
    return PlayerPage(
        player=player,
        ratings=ratings,
        chart=chart,
        page=Paginator(seats, RESULTS_PER_PAGE).get_page(page),
        upsets=upsets,
        upset_matches={row.match_id for row in upsets},
    )


def _history_by_rating(player: Player, ratings: list[Rating]) -> list[tuple]:
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
