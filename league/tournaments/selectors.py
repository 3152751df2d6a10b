"""Reads for tournaments: who organizes and who keeps score, sign-up (places, the waitlist, one's own
entry), the start's plan under check-in, standings with every tie-break column, rounds and their tables,
the public "find my table" list and each player's path (the drawn bracket is `league.web.drawing.bracket`).

Pages read a tournament once through `load_history` (a fixed number of queries whatever the number of
players, rounds and tables) and build everything else from it in memory.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import cast

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from league.matches.models import Match
from league.players.models import Player
from league.players.selectors import player_of
from league.results.models import ResultDispute, ResultReport, ResultVersion
from league.tournaments import ranking, seam
from league.tournaments.history import ROUND_REPORT
from league.tournaments.models import ByeRequest, Registration, Round, Table, Tournament
from league.tournaments.ranking import StandingRow


def is_organizer(user: User | AnonymousUser | None, tournament: Tournament) -> bool:
    """Site staff, the tournament's creator and the organizers its organizers added."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return tournament.organizers.filter(pk=user.pk).exists()


def is_scorekeeper(user: User | AnonymousUser | None, tournament: Tournament) -> bool:
    """A scorekeeper of this tournament (who enters and corrects its results, and nothing else)."""
    if user is None or not user.is_authenticated:
        return False
    return tournament.scorekeepers.filter(pk=user.pk).exists()


def can_score(user: User | AnonymousUser | None, tournament: Tournament) -> bool:
    """Whether the user enters and corrects the tournament's results: its organizers, staff, scorekeepers."""
    return is_organizer(user, tournament) or is_scorekeeper(user, tournament)


@dataclass(frozen=True)
class Role:
    username: str
    role: str  # "organizer" or "scorekeeper"


def roles(tournament: Tournament) -> list[Role]:
    """The tournament's organizers, then its scorekeepers, each by user name."""
    organizers = tournament.organizers.order_by("username").values_list("username", flat=True)
    scorekeepers = tournament.scorekeepers.order_by("username").values_list("username", flat=True)
    return [Role(name, "organizer") for name in organizers] + [
        Role(name, "scorekeeper") for name in scorekeepers
    ]


WAITLIST_ORDER = ("queued_at", "id")
# Statuses listed for everyone on a tournament's page and in the API; declined entries only for organizers.
PUBLIC_STATUSES = tuple(
    status
    for status in Registration.Status.values
    if status not in (Registration.Status.DECLINED, Registration.Status.INVITED)
)


def waitlist(registrations: list[Registration]) -> list[Registration]:
    """The waitlisted registrations in the order they move up: who queued first (then the older row)."""
    queued = [reg for reg in registrations if reg.status == Registration.Status.WAITLISTED]
    return sorted(queued, key=lambda reg: (reg.queued_at or reg.created_at, reg.pk))


def waitlist_positions(registrations: list[Registration]) -> dict[int, int]:
    """Registration id → its place on the waitlist (from 1), in the order `waitlist` gives: the one count
    of positions that the pages and the API show."""
    return {reg.pk: position for position, reg in enumerate(waitlist(registrations), start=1)}


def places_left(tournament: Tournament, registrations: list[Registration]) -> int | None:
    """Free places under the cap (never below 0); None without a cap."""
    if tournament.capacity is None:
        return None
    active = sum(1 for reg in registrations if reg.status == Registration.Status.ACTIVE)
    return max(0, tournament.capacity - active)


def check_in_state(tournament: Tournament, now: datetime | None = None) -> str:
    """ "off" (no check-in), "not_yet" (the window opens later), "open", or "closed" (the tournament
    started)."""
    if not tournament.check_in:
        return "off"
    if tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
        return "closed"
    if (now or timezone.now()) < cast(datetime, tournament.checkin_opens_at):  # check-in on: it opens then
        return "not_yet"
    return "open"


@dataclass(frozen=True)
class MyEntry:
    """The signed-in player's view of a tournament's sign-up."""

    player: Player | None
    registration: Registration | None
    waitlist_position: int | None  # from 1, when waitlisted
    can_join: bool
    can_leave: bool
    can_check_in: bool


def my_entry(
    tournament: Tournament, user: User | AnonymousUser | None, registrations: list[Registration]
) -> MyEntry:
    """What the user may do with their own entry now (the services check the same rules on each write)."""
    # player_of also takes anonymous users (it checks is_authenticated; its annotation names only users)
    player = player_of(cast(AbstractBaseUser | None, user))
    reg = next((reg for reg in registrations if player is not None and reg.player_id == player.pk), None)
    before_start = tournament.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)
    status = reg.status if reg is not None else None
    entered = status in (
        Registration.Status.ACTIVE,
        Registration.Status.WAITLISTED,
        Registration.Status.PENDING,
    )
    position = None
    if status == Registration.Status.WAITLISTED:
        position = waitlist_positions(registrations)[cast(Registration, reg).pk]  # the status is reg's
    can_join = (
        player is not None
        and tournament.self_signup
        and tournament.status == Tournament.Status.REGISTRATION
        and status in (None, Registration.Status.WITHDRAWN)
    )
    can_check_in = (
        status in (Registration.Status.ACTIVE, Registration.Status.WAITLISTED)
        and check_in_state(tournament) == "open"
    )
    return MyEntry(player, reg, position, can_join, entered and before_start, can_check_in)


@dataclass(frozen=True)
class StartPlan:
    """What starting the tournament does now. Without check-in, everyone registered starts and nobody moves.

    With check-in: registered players who did not check in are dropped as no-shows (`dropped`); waitlisted
    players who checked in move up in waitlist order while places remain under the cap (`promoted`); the
    other waitlisted players stay on the waitlist (`staying`); `starting` is who plays.
    """

    check_in: bool
    dropped: list[Registration]
    promoted: list[Registration]
    staying: list[Registration]
    starting: list[Registration]


def start_plan(tournament: Tournament, registrations: list[Registration] | None = None) -> StartPlan:
    """The plan of `tournament_start` for the registrations as they are (read them inside the lock to act)."""
    if registrations is None:
        registrations = list(tournament.registrations.select_related("player").order_by("seed", "id"))
    active = [reg for reg in registrations if reg.status == Registration.Status.ACTIVE]
    queue = waitlist(registrations)
    if not tournament.check_in:
        return StartPlan(False, [], [], queue, active)
    present = [reg for reg in active if reg.checked_in_at is not None]
    dropped = [reg for reg in active if reg.checked_in_at is None]
    ready = [reg for reg in queue if reg.checked_in_at is not None]
    free = len(ready) if tournament.capacity is None else max(0, tournament.capacity - len(present))
    promoted = ready[:free]
    staying = [reg for reg in queue if reg not in promoted]
    return StartPlan(True, dropped, promoted, staying, present + promoted)


def tournament_list(*, user: User | AnonymousUser | None = None) -> QuerySet[Tournament]:
    """Tournaments, newest first, with their number of active players; drafts only for their organizers."""
    tournaments = Tournament.objects.annotate(
        player_count=Count(
            "registrations", filter=Q(registrations__status=Registration.Status.ACTIVE), distinct=True
        )
    ).order_by("-created_at", "-id")
    if user is None or not user.is_authenticated:
        return tournaments.exclude(status=Tournament.Status.DRAFT)
    if user.is_staff:
        return tournaments
    return tournaments.filter(~Q(status=Tournament.Status.DRAFT) | Q(organizers=user)).distinct()


def visible_tournament(slug: str, user: User | AnonymousUser | None) -> Tournament | None:
    """The tournament if this user may see it (drafts are for organizers only)."""
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        return None
    if tournament.status == Tournament.Status.DRAFT and not is_organizer(user, tournament):
        return None
    return tournament


def open_bye_requests(tournament: Tournament, player_id: int | None = None) -> list[ByeRequest]:
    """Requests to miss a round not generated yet (with their players), by round, then seed; one player's
    with `player_id`."""
    generated = tournament.round_set.order_by("-number").values_list("number", flat=True).first() or 0
    rows = tournament.bye_requests.select_related("player").filter(round_number__gt=generated)
    if player_id is not None:
        rows = rows.filter(player_id=player_id)
    seeds = dict(tournament.registrations.values_list("player_id", "seed"))
    return sorted(rows, key=lambda row: (row.round_number, seeds.get(row.player_id) or 0, row.player.name))


NEW_TIEBREAK_COLUMNS = (
    "opponents_points_average",
    "buchholz_cut1",
    "buchholz_median",
    "sonneborn_berger",
    "opponents_match_win_percentage",
    "cumulative",
    "requested_byes",
)


def standing_rows_of(history) -> list[StandingRow]:
    """The standings: every player who took part, with every tie-break column, in the tournament's order
    (an elimination's by its bracket, each row naming the rule of its group)."""
    return standing_rows(ranking.standings_of(history), {reg.player_id: reg for reg in history.registrations})


def standing_rows(ordered, registrations) -> list[StandingRow]:
    """`ordered` (pairing's standings) as rows with each player's name, page and status; `registrations`
    (with their players) by player id."""
    rows = []
    for standing in ordered:
        reg = registrations[standing.id]
        rows.append(
            StandingRow.of(
                standing, name=reg.player.name, slug=reg.player.slug, status=reg.get_status_display()
            )
        )
    return rows


@dataclass
class SeatView:
    seat: int
    player_id: int
    name: str
    slug: str
    place: int | None = None
    score: int | None = None
    points: float | None = None
    absent: bool = False


@dataclass
class TableView:
    id: int
    number: int
    label: str
    seats: list[SeatView]
    match_id: int | None
    match_status: str
    result_version: int
    closed_as: str
    advancing: list[int] = field(default_factory=list)

    @property
    def closed_label(self) -> str:
        """ "No-show" or "Forfeit" for a closed table; empty otherwise."""
        return Table.Closed(self.closed_as).label if self.closed_as else ""

    @property
    def has_result(self) -> bool:
        return self.match_status in (Match.Status.FINISHED, Match.Status.VOID)


@dataclass
class RoundView:
    row: Round
    tables: list[TableView]
    byes: list[tuple[int, str]] = field(default_factory=list)
    advanced: list[tuple[int, str]] = field(default_factory=list)
    requested_byes: list[tuple[int, str, str]] = field(default_factory=list)  # (player id, name, score)
    sat_out: list[tuple[int, str]] = field(default_factory=list)

    @property
    def number(self) -> int:
        return self.row.number

    @property
    def waiting(self) -> int:
        return sum(1 for table in self.tables if not table.has_result)

    @property
    def table_count(self) -> int:
        return len(self.tables)


@dataclass(frozen=True)
class RoundSummary:
    """A round as the tournament's page lists it: the row, how many tables, how many still wait."""

    row: Round
    table_count: int
    waiting: int

    @property
    def number(self) -> int:
        return self.row.number


def round_summaries(tournament: Tournament, *, include_drafts: bool) -> list[RoundSummary]:
    """Every round (drafts only when asked) with its number of tables and of tables without a result (a
    finished or void match), counted by the database: two queries whatever the size of the rounds."""
    done = (Match.Status.FINISHED, Match.Status.VOID)
    counts = {
        row["round_id"]: row
        for row in Table.objects.filter(round__tournament=tournament)
        .values("round_id")
        .annotate(tables=Count("id"), done=Count("id", filter=Q(match__status__in=done)))
    }
    summaries = []
    for row in tournament.round_set.order_by("number").defer(*ROUND_REPORT):
        if row.status == Round.Status.DRAFT and not include_drafts:
            continue
        count = counts.get(row.pk, {"tables": 0, "done": 0})
        summaries.append(RoundSummary(row, count["tables"], count["tables"] - count["done"]))
    return summaries


def next_bracket_table(tournament: Tournament) -> tuple[Round, Table] | None:
    """The first published table still waiting for its result (by round, then table): (its round, it)."""
    done = (Match.Status.FINISHED, Match.Status.VOID)
    table = (
        Table.objects.filter(round__tournament=tournament, match__isnull=False)
        .exclude(match__status__in=done)
        .select_related("round")
        .order_by("round__number", "number")
        .first()
    )
    return (table.round, table) if table is not None else None


TABLES_PER_PAGE = 100  # a published round's page shows tables 1-100, 101-200, ... (`?page=2` ...)


def page_number(value) -> int:
    """The page asked for (`?page=`), 1 when missing or not a positive whole number."""
    return int(value) if isinstance(value, str) and value.isdigit() and 0 < int(value) < 100_000 else 1


def table_page(number: int) -> int:
    """The page of a round that shows table `number` (pages go by table number, so a link finds its table
    whatever tables a bracket opened first)."""
    return max(1, (number - 1) // TABLES_PER_PAGE + 1)


def table_range(page: int) -> tuple[int, int]:
    """The first and last table number shown on page `page` of a round."""
    return (page - 1) * TABLES_PER_PAGE + 1, page * TABLES_PER_PAGE


def table_link(round_url: str, number: int) -> str:
    """The address of table `number` on its round's page (with the page when it is not the first)."""
    page = table_page(number)
    return f"{round_url}{f'?page={page}' if page > 1 else ''}#table-{number}"


def rounds(history, *, include_drafts: bool) -> list[RoundView]:
    """Every round (drafts only when asked) with its tables in table order, seats, places and points."""
    tournament = history.tournament
    players = {reg.player_id: reg.player for reg in history.registrations}
    views = []
    for round_row in history.round_rows:
        if round_row.status == Round.Status.DRAFT and not include_drafts:
            continue
        tables = []
        for table in history.tables[round_row.pk]:
            match = table.match
            if match is None:
                seats = [
                    SeatView(seat, pid, players[pid].name, players[pid].slug)
                    for seat, pid in enumerate(table.planned_seats)
                ]
            else:
                seats = [
                    SeatView(
                        row.seat,
                        row.player_id,
                        players[row.player_id].name,
                        players[row.player_id].slug,
                        row.place,
                        row.score,
                        absent=row.player_id in table.absent,
                    )
                    for row in history.seats.get(match.pk, [])
                ]
                if match.status == Match.Status.FINISHED:
                    earned = seam.table_points(
                        tournament,
                        [seat.player_id for seat in seats],
                        # a played table places every seat
                        cast(dict[int, int], {seat.player_id: seat.place for seat in seats}),
                    )
                    for seat in seats:
                        seat.points = earned[seat.player_id]
            tables.append(
                TableView(
                    id=table.pk,
                    number=table.number,
                    label=table.label,
                    seats=seats,
                    match_id=table.match_id,
                    match_status=match.status if match else "",
                    result_version=match.result_version if match else 0,
                    closed_as=table.closed_as,
                    advancing=history.deciders.get(table.match_id, []) if match else [],
                )
            )
        views.append(
            RoundView(
                row=round_row,
                tables=tables,
                byes=[(pid, players[pid].name) for pid in round_row.byes],
                advanced=[(pid, players[pid].name) for pid in round_row.advanced],
                requested_byes=[(pid, players[pid].name, score) for pid, score in round_row.requested_byes],
                sat_out=[(pid, players[pid].name) for pid in round_row.sat_out],
            )
        )
    return views


@dataclass(frozen=True)
class FindRow:
    name: str
    slug: str
    table: int | None
    label: str
    seat: int | None
    note: str = ""


def find_my_table(round_view: RoundView) -> list[FindRow]:
    """Each player of a round with their table and seat (seats from 1), sorted by player name."""
    rows = [
        FindRow(seat.name, seat.slug, table.number, table.label, seat.seat + 1)
        for table in round_view.tables
        if table.closed_as != Table.Closed.RESET
        for seat in table.seats
    ]
    rows += [FindRow(name, "", None, "", None, "bye") for _, name in round_view.byes]
    rows += [FindRow(name, "", None, "", None, "goes through") for _, name in round_view.advanced]
    rows += [FindRow(name, "", None, "", None, "bye (asked for)") for _, name, _ in round_view.requested_byes]
    rows += [FindRow(name, "", None, "", None, "sits out") for _, name in round_view.sat_out]
    return sorted(rows, key=lambda row: (row.name.casefold(), row.name))


@dataclass
class PathStep:
    round: int
    table: int | None
    label: str
    seat: int | None
    opponents: list[str]
    place: int | None
    points: float | None
    note: str = ""


def player_path(history, round_views: list[RoundView], player_id: int) -> list[PathStep]:
    """A player's tournament, round by round: table, seat, opponents, place and points (or bye)."""
    steps = []
    for view in round_views:
        if view.row.status == Round.Status.DRAFT:
            continue
        if player_id in view.row.byes:
            steps.append(
                PathStep(view.number, None, "", None, [], None, seam.bye_points(history.tournament), "bye")
            )
            continue
        if player_id in view.row.advanced:
            steps.append(
                PathStep(view.number, None, "", None, [], None, None, "goes through without playing")
            )
            continue
        asked = next((score for pid, _, score in view.requested_byes if pid == player_id), None)
        if asked is not None:
            points = seam.requested_bye_points(history.tournament, asked)
            steps.append(PathStep(view.number, None, "", None, [], None, points, "bye (asked for)"))
            continue
        if player_id in view.row.sat_out:
            steps.append(PathStep(view.number, None, "", None, [], None, None, "sat out"))
            continue
        for table in view.tables:
            mine = next((seat for seat in table.seats if seat.player_id == player_id), None)
            if mine is None:
                continue
            note = ""
            if table.closed_as == Table.Closed.RESET:
                note = "reset by a correction: played again at a new table"
            elif table.closed_as:
                note = "absent" if mine.absent else f"table closed ({table.closed_label.lower()})"
            steps.append(
                PathStep(
                    view.number,
                    table.number,
                    table.label,
                    mine.seat + 1,
                    [seat.name for seat in table.seats if seat.player_id != player_id],
                    mine.place,
                    mine.points,
                    note,
                )
            )
    return steps


# Self-report: what a table's players and the organizers see of its reports and disputes.


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
    id: int
    table_number: int
    player: str
    claim: str
    note: str
    report: ReportView
    of_stored: bool  # the stored result is disputed (else an open report)
    created_at: datetime


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
    seat_names = {match_id: [seat.name for seat in table.seats] for match_id, table in by_match.items()}
    names = {seat.player_id: seat.name for table in tables for seat in table.seats}
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
    seat_names = {match.pk: [seat.name for seat in seats]}
    names = {seat.player_id: seat.name for seat in seats}
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
