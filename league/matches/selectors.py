"""Reads for matches."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from league.matches.models import Match, MatchSeat
from league.players.models import Player
from league.results.models import ResultVersion


def _with_seats(matches: QuerySet[Match]) -> QuerySet[Match]:
    return matches.prefetch_related(
        Prefetch("seats", queryset=MatchSeat.objects.select_related("player").order_by("seat"))
    )


def match_list(*, game_id: str | None = None, status: str | None = None) -> QuerySet[Match]:
    """Matches, most recently played first, with their seats and players."""
    matches = Match.objects.all()
    if game_id:
        matches = matches.filter(game_id=game_id)
    if status:
        matches = matches.filter(status=status)
    return _with_seats(matches.order_by("-played_at", "-id"))


def match_detail(pk: int) -> Match | None:
    """One match with its seats and every result version (newest first)."""
    return (
        _with_seats(Match.objects.filter(pk=pk))
        .prefetch_related(
            Prefetch("result_versions", queryset=ResultVersion.objects.select_related("entered_by").order_by("-version"))
        )
        .first()
    )


def player_seats(player: Player) -> QuerySet[MatchSeat]:
    """A player's seats, most recent match first, with the match and every player at it."""
    return (
        MatchSeat.objects.filter(player=player)
        .select_related("match")
        .prefetch_related(
            Prefetch("match__seats", queryset=MatchSeat.objects.select_related("player").order_by("seat"))
        )
        .order_by("-match__played_at", "-match_id")
    )
