"""Reads for results: a match with its result versions."""

from __future__ import annotations

from django.db.models import Prefetch

from league.matches.models import Match
from league.matches.selectors import Viewer, visible_to, with_seats
from league.results.models import ResultVersion


def match_detail(pk: int, *, viewer: Viewer) -> Match | None:
    """One match that `viewer` may see (None if they may not), with its seats and every result version
    (newest first), and what it was played for: its tournament table (with round and tournament), bot-league
    fixture or challenge, through the reverse
    relations those apps declare (named, not imported: they stand above this app)."""
    return (
        with_seats(
            visible_to(Match.objects.filter(pk=pk), viewer).select_related(
                "tournament_table__round__tournament", "bot_fixture__league", "challenge_match__challenge"
            )
        )
        .prefetch_related(
            Prefetch(
                "result_versions",
                queryset=ResultVersion.objects.select_related("entered_by", "report__reporter")
                .prefetch_related("report__confirmations__player")
                .order_by("-version"),
            )
        )
        .first()
    )


def counting_advancing(match: Match) -> list[int]:
    """Who goes through by the decider of the counting result version (a tie at an elimination cut); []."""
    if not match.result_version:
        return []
    advancing = (
        ResultVersion.objects.filter(match=match, version=match.result_version)
        .values_list("advancing", flat=True)
        .first()
    )
    return list(advancing or [])
