"""Reads for ratings: leaderboards, a player's ratings and rating history."""

from __future__ import annotations

from django.db.models import Exists, F, OuterRef, QuerySet, Subquery, Window
from django.db.models.functions import Rank

from league.matches.models import Match, MatchSeat
from league.players.models import Player
from league.ratings.models import PoolCalibration, Prediction, Rating, RatingHistory, RatingPool

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


def history_points(rows: QuerySet[RatingHistory], *fields: str) -> QuerySet:
    """`rows` as values `(*fields, played_at)` in the order of their matches (played at, then match id).

    The match's time is read by a subquery per row, not a join: with a join PostgreSQL hashes the whole match
    table (100,000 rows and more) to find the few hundred matches of one player's or one league's history."""
    played = Subquery(Match.objects.filter(pk=OuterRef("match_id")).order_by().values("played_at")[:1])
    return rows.annotate(played_at=played).order_by("played_at", "match_id").values_list(*fields, "played_at")


def predictions_by_seat(match_ids) -> dict[tuple[int, int], Prediction]:
    """The stored predictions of these matches by (match id, seat); one query per 2,000 matches."""
    ids = sorted({match_id for match_id in match_ids if match_id is not None})
    found: dict[tuple[int, int], Prediction] = {}
    for offset in range(0, len(ids), 2000):
        for row in Prediction.objects.filter(match_id__in=ids[offset : offset + 2000]):
            found[(row.match_id, row.seat)] = row
    return found


def pool_calibration(pool: RatingPool) -> PoolCalibration | None:
    return PoolCalibration.objects.filter(pool=pool).first()


def player_upsets(player: Player, *, limit: int = 10) -> list[Prediction]:
    """The player's wins that were upsets (P(first) under a third of 1/n), least likely first."""
    won = MatchSeat.objects.filter(match_id=OuterRef("match_id"), seat=OuterRef("seat"), place=1)
    rows = (
        Prediction.objects.filter(
            player=player, match__status=Match.Status.FINISHED, p_first__lt=1 / 3 / F("seats")
        )
        .filter(Exists(won))
        .select_related("match", "pool")
        .order_by("p_first", "match_id")
    )
    return list(rows[:limit])
