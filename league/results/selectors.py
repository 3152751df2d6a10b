"""Reads for results: a match with its result versions, and where the result of an owned match goes."""

from __future__ import annotations

from django.db.models import Prefetch
from django.urls import reverse

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


def owner_entry(match: Match) -> str:
    """Why the generic result entry refuses `match`, owned by a tournament table, a bot league or a
    challenge, and where its result goes instead: the owner's page and API, read through the reverse
    relations those apps declare (named, not imported)."""
    if match.owner == Match.Owner.TABLE:
        table = (
            Match.objects.filter(pk=match.pk)
            .values(
                "tournament_table__pk",
                "tournament_table__number",
                "tournament_table__round__number",
                "tournament_table__round__tournament__slug",
                "tournament_table__round__tournament__name",
            )
            .first()
        )
        if table is None or table["tournament_table__pk"] is None:
            return f"match {match.pk} belongs to a tournament table: its result is entered at that table"
        number, round_number = table["tournament_table__number"], table["tournament_table__round__number"]
        page = reverse(
            "tournaments:result",
            kwargs={
                "slug": table["tournament_table__round__tournament__slug"],
                "number": round_number,
                "table_number": number,
            },
        )
        api = reverse("tournament-table-result", kwargs={"pk": table["tournament_table__pk"]})
        return (
            f"match {match.pk} is table {number} of round {round_number} of "
            f"{table['tournament_table__round__tournament__name']}: enter or correct its result at the "
            f"table, where the tournament's rules apply ({page}, or POST {api})"
        )
    if match.owner == Match.Owner.FIXTURE:
        return f"match {match.pk} is a bot league's fixture: its result is the record its workers play"
    if match.owner == Match.Owner.VALIDATION:
        return f"match {match.pk} validates a new bot version: its result is the record its workers play"
    if match.owner == Match.Owner.VERSION_TEST:
        return f"match {match.pk} is a version test's match: its result is the record its workers play"
    return f"match {match.pk} is a challenge's match: its result is the record its workers play"
