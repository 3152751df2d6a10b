"""The match page's selector: everything a match's page shows, read in one call and returned as a frozen
dataclass (`league.web.matches` renders it)."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404

from league.core.catalogue import game_name
from league.matches.models import Match, Verification
from league.matches.selectors import Viewer, verification_of
from league.ratings.models import Prediction
from league.ratings.selectors import predictions_by_seat
from league.results.selectors import match_detail


@dataclass(frozen=True)
class MatchPage:
    """A match's page: the match (with its seats, result versions and what it was played for), its game's
    name, each seat's stored forecast (by (match id, seat)) and, for a match with a record, its strict
    verification (None while pending)."""

    match: Match
    game_name: str
    forecasts: dict[tuple[int, int], Prediction]
    verification: Verification | None


def match_page(pk: int, viewer: Viewer) -> MatchPage:
    """Match `pk`'s page for `viewer`; 404 for a match they may not see (or none)."""
    match = match_detail(pk, viewer=viewer)
    if match is None:
        raise Http404("no such match")
    return MatchPage(
        match=match,
        game_name=game_name(match.game_id),
        forecasts=predictions_by_seat([match.pk]),
        verification=verification_of(match) if match.record is not None else None,
    )
