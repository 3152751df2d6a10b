"""Reads for ratings: leaderboards, a player's ratings and rating history."""

from __future__ import annotations

from django.db.models import F, QuerySet, Window
from django.db.models.functions import Rank

from league.players.models import Player
from league.ratings.models import Rating, RatingHistory, RatingPool

LEADERBOARD_SORTS = {
    "rating": ("-conservative", "player__name"),
    "-rating": ("conservative", "player__name"),
    "player": ("player__name",),
    "-player": ("-player__name",),
    "matches": ("-matches", "-conservative", "player__name"),
    "-matches": ("matches", "-conservative", "player__name"),
}


def people_pool(game_id: str) -> RatingPool | None:
    return RatingPool.objects.filter(kind=RatingPool.Kind.PEOPLE, game_id=game_id).first()


def leaderboard(pool: RatingPool, *, sort: str = "rating") -> QuerySet[Rating]:
    """The pool's ratings with `rank` (1 = highest conservative rating, ties share), in the order `sort` asks.

    `sort` is a key of LEADERBOARD_SORTS; an unknown key sorts by rating.
    """
    order = LEADERBOARD_SORTS.get(sort, LEADERBOARD_SORTS["rating"])
    return (
        Rating.objects.filter(pool=pool)
        .select_related("player")
        .annotate(rank=Window(Rank(), order_by=F("conservative").desc()))
        .order_by(*order, "player_id")
    )


def player_ratings(player: Player) -> QuerySet[Rating]:
    """A player's rating in each pool they play in, people's pools first."""
    return Rating.objects.filter(player=player).select_related("pool").order_by("pool__kind", "pool__game_id")


def player_history(player: Player) -> QuerySet[RatingHistory]:
    """A player's history rows in every pool, in each pool's order."""
    return (
        RatingHistory.objects.filter(player=player)
        .select_related("pool", "match")
        .order_by("pool_id", "match__played_at", "match_id")
    )
