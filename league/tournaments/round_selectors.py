"""Reads of a tournament's rounds: each round with its tables, seats, places and points, the rounds as
counts, the pages of a large round's tables, the public "find my table" list and each player's path (the
drawn bracket is `league.web.drawing.bracket`).

Pages read a tournament once through `load_history` (a fixed number of queries whatever the number of
players, rounds and tables) and build everything else from it in memory.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import cast

from django.db.models import Count, Q

from league.matches.models import Match, MatchSeat
from league.tournaments import seam, seating
from league.tournaments.history import ROUND_REPORT
from league.tournaments.models import Round, Table, Tournament


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
    before: float | None = None  # a draft's seat, for its organizers: points before the round
    repeat: bool = False  # a draft's seat, for its organizers: met someone of the table before


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
    physical_number: int | None = None
    fixed: bool = False
    round_number: int = 0

    @property
    def physical(self) -> int:
        """The number on the table in the room (its rank number where it has none)."""
        return self.physical_number or self.number

    @property
    def short_code(self) -> str:
        """The code on its slip, for keypad entry (`seating.short_code`)."""
        return seating.short_code(self.round_number, self.physical)

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
                    physical_number=table.physical_number,
                    fixed=table.fixed,
                    round_number=round_row.number,
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
    player_id: int | None = None
    physical: int | None = None  # the number on the table in the room


def tables_of_player(tournament: Tournament, number: int, player_id: int) -> list[int]:
    """The numbers of the tables of round `number` whose match seats `player_id` (one query)."""
    return list(
        MatchSeat.objects.filter(
            player_id=player_id,
            match__tournament_table__round__tournament=tournament,
            match__tournament_table__round__number=number,
        ).values_list("match__tournament_table__number", flat=True)
    )


def tables_seating(tournament: Tournament, number: int, player_ids: Collection[int]) -> tuple[int, int]:
    """The span of table numbers of round `number` that seat any of `player_ids` ((0, 0): none), so that
    find my table reads those tables alone, not the round's hundreds (one query of numbers and seats)."""
    wanted = set(player_ids)
    numbers = [
        table_number
        for table_number, seats in Table.objects.filter(
            round__tournament=tournament, round__number=number
        ).values_list("number", "planned_seats")
        if wanted.intersection(seats or ())
    ]
    return (min(numbers), max(numbers)) if numbers else (0, 0)


def find_my_table(round_view: RoundView, only: Collection[int] | None = None) -> list[FindRow]:
    """Each player of a round (only the players `only` lists, when given) with their table and seat (seats
    from 1), sorted by player name."""

    def kept(player_id: int) -> bool:
        return only is None or player_id in only

    rows = [
        FindRow(
            seat.name,
            seat.slug,
            table.number,
            table.label,
            seat.seat + 1,
            player_id=seat.player_id,
            physical=table.physical,
        )
        for table in round_view.tables
        if table.closed_as != Table.Closed.RESET
        for seat in table.seats
        if kept(seat.player_id)
    ]
    for listed, note in (
        (round_view.byes, "bye"),
        (round_view.advanced, "goes through"),
        ([(pid, name) for pid, name, _ in round_view.requested_byes], "bye (asked for)"),
        (round_view.sat_out, "sits out"),
    ):
        rows += [FindRow(name, "", None, "", None, note, pid) for pid, name in listed if kept(pid)]
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
    physical: int | None = None  # the number on the table in the room


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
            elif mine.absent:
                note = "left the tournament during the round: placed last"
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
                    physical=table.physical,
                )
            )
    return steps


# Self-report: what a table's players and the organizers see of its reports and disputes.


@dataclass(frozen=True)
class MyTable:
    """A player's table in the current round (the latest that is not a draft), for the top of the event
    page: the round, the table (its number and label), their seat (from 1) and the others at it, or `note`
    (a bye, sits out) where they have no table."""

    round: int
    table: int | None
    label: str
    seat: int | None
    others: list[str]
    note: str = ""
    physical: int | None = None  # the number on the table in the room


def my_table(tournament: Tournament, player_id: int) -> MyTable | None:
    """`player_id`'s place in the current round of `tournament` (a few queries, whatever the round's size);
    None before the first round is published, or when they have no place in it."""
    current = (
        Round.objects.filter(tournament=tournament)
        .exclude(status=Round.Status.DRAFT)
        .order_by("-number")
        .first()
    )
    if current is None:
        return None
    table = (
        Table.objects.filter(round=current, match__seats__player_id=player_id)
        .exclude(closed_as=Table.Closed.RESET)
        .order_by("number")
        .first()
    )
    if table is None:
        noted = ((current.byes, "bye"), (current.advanced, "goes through"), (current.sat_out, "sits out"))
        for listed, note in noted:
            if player_id in listed:
                return MyTable(current.number, None, "", None, [], note)
        if any(pid == player_id for pid, _ in current.requested_byes):
            return MyTable(current.number, None, "", None, [], "bye (asked for)")
        return None
    seats = list(table.published_match.seats.order_by("seat").values_list("player_id", "player__name"))
    seat = next(index for index, (pid, _) in enumerate(seats) if pid == player_id)
    others = [name for pid, name in seats if pid != player_id]
    return MyTable(current.number, table.number, table.label, seat + 1, others, physical=table.physical)
