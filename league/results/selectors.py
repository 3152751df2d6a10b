"""Reads for results: a match with its result versions."""

from __future__ import annotations

from django.db.models import Prefetch

from league.matches.models import Match
from league.matches.selectors import with_seats
from league.results.models import ResultVersion


def match_detail(pk: int) -> Match | None:
    """One match with its seats and every result version (newest first)."""
    return (
        with_seats(Match.objects.filter(pk=pk))
        .prefetch_related(
            Prefetch(
                "result_versions",
                queryset=ResultVersion.objects.select_related("entered_by").order_by("-version"),
            )
        )
        .first()
    )
