"""Self-report's reads: what a table's players and the organizers see of its reports and disputes, and
claimed results in words."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import cast

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.utils import timezone

from league.core.bidi import isolated
from league.matches.models import Match
from league.players.models import Player
from league.players.selectors import player_of
from league.results.models import ResultDispute, ResultReport, ResultVersion
from league.tournaments.models import Registration, Table, Tournament
from league.tournaments.round_selectors import SeatView


def _ordinal_place(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def claim_text(places: list[int] | None, scores: list[int] | None, names: list[str]) -> str:
    """A claimed result in words, best first: "1st Ada (31), 2nd Bea (20), ..."; "" without places."""
    if not places:
        return ""
    order = sorted(range(len(places)), key=lambda seat: (places[seat], seat))
    return ", ".join(
        f"{_ordinal_place(places[seat])} {names[seat]}" + (f" ({scores[seat]})" if scores else "")
        for seat in order
    )


def names_text(names: list[str]) -> str:
    """ "Bea", "Bea and Cal", "Bea, Cal and Dov"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}" if names else ""


def through_text(names: list[str]) -> str:
    """ "Bea goes through", "Ada and Bea go through"; "" for nobody."""
    if not names:
        return ""
    return f"{names_text(names)} {'goes' if len(names) == 1 else 'go'} through"


@dataclass
class ReportView:
    """A report for pages: its texts (`reporter`, `claim`, `awaiting`, `confirmed`, `through`) hold the names
    between Unicode isolates (`league.core.bidi`); templates show them with `|isolates_as_bdi`."""

    id: int
    status: str
    reporter_id: int
    reporter: str
    claim: str
    places: list[int]
    scores: list[int] | None
    awaiting_ids: list[int]  # not yet confirmed
    awaiting: str  # their names in words
    confirmed: str
    created_at: datetime
    # At a tie across an elimination table's cut: who the reporter says goes through ("Bea goes through"),
    # also ending `claim`, so nobody confirms without seeing it; "" where the places decide.
    through: str = ""


@dataclass
class DisputeView:
    """A dispute for pages; `player` and `claim` hold names between Unicode isolates, as `ReportView`."""

    id: int
    table_number: int
    player: str
    claim: str
    note: str
    report: ReportView
    of_stored: bool  # the stored result is disputed (else an open report)
    created_at: datetime
    places: list[int] | None = None  # the disputing player's claim, when they gave places
    scores: list[int] | None = None


def _report_views(reports, seat_names: dict[int, list[str]], names: dict[int, str]) -> dict[int, ReportView]:
    views = {}
    for report in reports:
        confirmed = [row.player_id for row in report.confirmations.all()]
        waiting = [pid for pid in report.awaiting if pid not in confirmed]
        through = through_text([names.get(pid, "?") for pid in report.advancing or []])
        claim = claim_text(report.places, report.scores, seat_names.get(report.match_id, []))
        views[report.pk] = ReportView(
            id=report.pk,
            status=report.status,
            reporter_id=report.reporter_id,
            reporter=names.get(report.reporter_id, "?"),
            claim=f"{claim}; {through}" if through and claim else claim,
            through=through,
            places=report.places,
            scores=report.scores,
            awaiting_ids=waiting,
            awaiting=names_text([names.get(pid, "?") for pid in waiting]),
            confirmed=names_text([names.get(pid, "?") for pid in confirmed]),
            created_at=report.created_at,
        )
    return views


@dataclass
class RoundReports:
    """A round's open reports (table number → report) and open disputes, for the round page."""

    open: dict[int, ReportView] = field(default_factory=dict)
    disputes: list[DisputeView] = field(default_factory=list)

    @property
    def disputed_tables(self) -> set[int]:
        return {dispute.table_number for dispute in self.disputes}


def round_reports(tables: list) -> RoundReports:
    """The open reports and open disputes of a round's tables (`TableView`s), in a fixed number of queries."""
    by_match = {table.match_id: table for table in tables if table.match_id}
    if not by_match:
        return RoundReports()
    seat_names = {
        match_id: [isolated(seat.name) for seat in table.seats] for match_id, table in by_match.items()
    }
    names = {seat.player_id: isolated(seat.name) for table in tables for seat in table.seats}
    reports = list(
        ResultReport.objects.filter(match_id__in=by_match, status=ResultReport.Status.OPEN).prefetch_related(
            "confirmations"
        )
    )
    disputes = list(
        ResultDispute.objects.filter(match_id__in=by_match, status=ResultDispute.Status.OPEN)
        .select_related("report")
        .prefetch_related("report__confirmations")
        .order_by("created_at", "id")
    )
    views = _report_views([*reports, *(dispute.report for dispute in disputes)], seat_names, names)
    result = RoundReports(open={by_match[report.match_id].number: views[report.pk] for report in reports})
    for dispute in disputes:
        result.disputes.append(
            DisputeView(
                id=dispute.pk,
                table_number=by_match[dispute.match_id].number,
                player=names.get(dispute.player_id, "?"),
                claim=claim_text(dispute.places, dispute.scores, seat_names[dispute.match_id]),
                note=dispute.note,
                report=views[dispute.report_id],
                of_stored=dispute.report.status == ResultReport.Status.STORED,
                created_at=dispute.created_at,
                places=dispute.places,
                scores=dispute.scores,
            )
        )
    return result


@dataclass
class TableReporting:
    """What one table's page shows of self-report, for the user viewing it."""

    open: ReportView | None  # the report waiting for confirmation
    dispute: DisputeView | None  # the open dispute
    stored: ReportView | None  # the report the counting version stores (its attribution)
    me: int | None  # the viewer's player id, when seated and still playing at this table
    can_report: bool
    can_confirm: bool
    dispute_until: datetime | None  # a seated player may dispute until then (None: not now)
    two_seat_organizer: bool


def table_reporting(
    table: Table, user: User | AnonymousUser | None, seats: list[SeatView], *, holder: Player | None = None
) -> TableReporting:
    """The reports and disputes of a published `table` and what `user` (or `holder`, the player of a private
    link) may do there (`seats`: its seats)."""
    tournament = table.round.tournament
    match = table.published_match
    seat_names = {match.pk: [isolated(seat.name) for seat in seats]}
    names = {seat.player_id: isolated(seat.name) for seat in seats}
    reports = list(
        ResultReport.objects.filter(match=match)
        .prefetch_related("confirmations")
        .order_by("-created_at", "-id")
    )
    views = _report_views(reports, seat_names, names)
    open_report = next(
        (views[report.pk] for report in reports if report.status == ResultReport.Status.OPEN), None
    )
    dispute_row = ResultDispute.objects.filter(match=match, status=ResultDispute.Status.OPEN).first()
    dispute = None
    if dispute_row is not None:
        dispute = DisputeView(
            id=dispute_row.pk,
            table_number=table.number,
            player=names.get(dispute_row.player_id, "?"),
            claim=claim_text(dispute_row.places, dispute_row.scores, seat_names[match.pk]),
            note=dispute_row.note,
            report=views[dispute_row.report_id],
            of_stored=views[dispute_row.report_id].status == "stored",
            created_at=dispute_row.created_at,
            places=dispute_row.places,
            scores=dispute_row.scores,
        )
    counting = (
        ResultVersion.objects.filter(match=match, version=match.result_version).first()
        if match.result_version
        else None
    )
    stored = views.get(counting.report_id) if counting is not None and counting.report_id else None
    # player_of also takes anonymous users (it checks is_authenticated; its annotation names only users)
    player = holder if holder is not None else player_of(cast(AbstractBaseUser | None, user))
    self_report = tournament.result_reporting == Tournament.Reporting.SELF_REPORT
    active = (
        player is not None
        and player.pk in names
        and Registration.objects.filter(
            tournament=tournament, player=player, status=Registration.Status.ACTIVE
        ).exists()
    )
    # active: the player is set
    me = cast(Player, player).pk if active and self_report and not table.closed_as else None
    two_seat_organizer = (
        len(seats) == 2 and tournament.two_seat_confirmation == Tournament.TwoSeatConfirmation.ORGANIZER
    )
    until = None
    if stored is not None and me is not None and dispute is None:
        # a stored report is the counting version's
        until = cast(ResultVersion, counting).entered_at + timedelta(
            minutes=tournament.dispute_window_minutes
        )
        until = until if timezone.now() <= until else None
    return TableReporting(
        open=open_report,
        dispute=dispute,
        stored=stored,
        me=me,
        can_report=me is not None
        and not match.result_version
        and open_report is None
        and dispute is None
        and match.status == Match.Status.SCHEDULED
        and not two_seat_organizer,
        can_confirm=me is not None and open_report is not None and me in open_report.awaiting_ids,
        dispute_until=until,
        two_seat_organizer=two_seat_organizer,
    )


@dataclass(frozen=True)
class OpenDispute:
    round_number: int
    table_number: int
    player: str  # who disputes


def open_disputes(tournament: Tournament) -> list[OpenDispute]:
    """The tournament's disputes no organizer has settled yet, by round and table (one query)."""
    rows = (
        Table.objects.filter(
            round__tournament=tournament,
            match__disputes__status=ResultDispute.Status.OPEN,
        )
        .order_by("round__number", "number")
        .values_list("round__number", "number", "match__disputes__player__name")
    )
    return [OpenDispute(round_number, table_number, player) for round_number, table_number, player in rows]
