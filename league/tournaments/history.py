"""A tournament's history: its registrations, rounds, tables, seats and results, loaded in a fixed number of
queries and turned into the pure layer's results (`PlayedRound`, `TableResult`) that pairing, standings and
the bracket flow read.

One shape, one loader: `load_history` returns a `History` whose tables (`HistoryTable`) and registrations
(`HistoryEntry`) are plain values (a 10,000-player event has tens of thousands of them: model instances cost
more than the pairing itself). Its arguments choose what it reads, never the shape it returns: the players'
names (`names=`), one round's tables (`round_number=`, `tables=`), the round rows' quality reports
(`quality=`), or the round rows and registrations alone (`played=False`). Callers needing less ignore
fields.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

from django.db.models import F, QuerySet
from django.urls import reverse

from league.matches.models import Match, MatchSeat
from league.pairing import PlayedRound, TableResult
from league.results.models import ResultVersion
from league.tournaments.formats import flows
from league.tournaments.models import Registration, Round, Tournament
from league.tournaments.models import Table as TableRow


class SeatRow(NamedTuple):
    """One seat of a published table's match: who sits there and the outcome of the latest result (a
    tuple: a 10,000-player event loads tens of thousands)."""

    seat: int
    player_id: int
    place: int | None
    score: int | None


class HistoryMatch(NamedTuple):
    """What a history knows of a table's match."""

    pk: int
    status: str
    result_version: int


class HistoryTable(NamedTuple):
    """A table of a history: its round, number and label, how it was closed, its match, the seats planned
    (a draft's; a published table's seats are its match's, `History.seats`) and the players marked absent."""

    pk: int
    round_id: int
    number: int
    label: str
    closed_as: str
    match_id: int | None
    match: HistoryMatch | None
    planned_seats: list[int]
    absent: list[int]
    physical_number: int | None = None  # the number in the room (`Table.physical_number`)
    fixed: bool = False  # the table keeps its physical number every round


class HistoryPlayer(NamedTuple):
    """The player of a registration, as pages show them (a history loaded with `names=True`)."""

    pk: int
    name: str
    slug: str

    def get_absolute_url(self) -> str:
        return reverse("players:detail", kwargs={"slug": self.slug})


STATUS_LABELS = {value: str(label) for value, label in Registration.Status.choices}


class HistoryEntry(NamedTuple):
    """A registration of a history: its status and seed, the rounds it entered and left after, and its
    player's name and slug (None in a history loaded with `names=False`)."""

    pk: int
    player_id: int
    seed: int | None
    status: str
    entered_round: int
    left_after_round: int | None
    player: HistoryPlayer | None

    def get_status_display(self) -> str:
        return STATUS_LABELS[self.status]


@dataclass
class History:
    """A tournament as the pure layer sees it: registrations, and every published round's results.

    `round_rows` are the rounds in order, `tables` their tables (by round id, in table order, with the
    match), `seats` the seats of every published table's match (by match id, in seat order), `rounds` each
    published round as a `PlayedRound` (tables with a result only, with their labels, and the byes),
    `deciders` who goes through at elimination tables whose result left a tie at the cut (by match id),
    `voided` the bracket matches closed with both players absent (void results, by round number: nobody
    goes through; only 2-seat brackets played match by match read them).
    """

    tournament: Tournament
    registrations: list[HistoryEntry]
    round_rows: list[Round]
    tables: dict[int, list[HistoryTable]]
    seats: dict[int, list[SeatRow]]
    rounds: dict[int, PlayedRound]
    deciders: dict[int, list[int]] = field(default_factory=dict)
    voided: dict[int, list[TableResult]] = field(default_factory=dict)

    @property
    def seeds(self) -> dict[int, int]:
        """Seed of every player who ever took part (withdrawn players excluded)."""
        return {
            reg.player_id: reg.seed
            for reg in self.registrations
            if reg.status != Registration.Status.WITHDRAWN and reg.seed is not None
        }

    def played(self, first: int = 1, last: int | None = None) -> list[PlayedRound]:
        return [
            played
            for number, played in sorted(self.rounds.items())
            if number >= first and (last is None or number <= last)
        ]


TABLE_FIELDS = (
    "id",
    "round_id",
    "number",
    "label",
    "closed_as",
    "match_id",
    "match__status",
    "match__result_version",
    "planned_seats",
    "absent",
    "physical_number",
    "fixed",
)
ROUND_REPORT = ("quality",)  # a round's quality report (hundreds of kB at 10,000 players): read where shown
REGISTRATION_FIELDS = ("id", "player_id", "seed", "status", "entered_round", "left_after_round")


def load_history(
    tournament: Tournament,
    *,
    round_number: int | None = None,
    tables: tuple[int, int] | None = None,
    names: bool = True,
    quality: bool = False,
    played: bool = True,
) -> History:
    """The tournament's history: every round row, registration, table, seat and decider of a tie at an
    elimination cut (`ResultVersion.advancing` of the counting versions), in five queries.

    - `names=False` leaves out the players' names (the registrations' `player` is None): pairing, standings
      and the bracket flow need none.
    - `round_number=N` reads only round N's tables (with table numbers from `tables[0]` to `tables[1]` when
      given), their seats and deciders, and only the registrations of the players they seat and of every
      round's byes, walkovers, requested byes and sit-outs: a round's page (a 10,000-player round is shown a
      page of tables at a time). Its `rounds` and anything computed from them are not the tournament's.
    - `quality=True` reads the round rows' quality reports (the API's rounds show them).
    - `played=False` reads the round rows and registrations alone, in two queries: what reads only those
      (`seam.planned_rounds`, counts of players); no tables, seats or results.
    """
    round_rows = list(tournament.round_set.order_by("number").defer(*(() if quality else ROUND_REPORT)))
    registered = tournament.registrations.order_by("seed", "id")
    if not played:
        return History(tournament, entries_of(registered, names=names), round_rows, {}, {}, {})
    where: dict[str, Any] = {"round__tournament": tournament}
    if round_number is not None:
        where["round__number"] = round_number
        if tables is not None:
            where["number__range"] = tables
    found: dict[int, list[HistoryTable]] = {row.pk: [] for row in round_rows}
    rows = TableRow.objects.filter(**where).order_by("round_id", "number").values_list(*TABLE_FIELDS)
    for pk, round_id, number, label, closed, match_id, status, version, planned, absent, *room in rows:
        match = HistoryMatch(match_id, status, version) if match_id is not None else None
        found[round_id].append(
            HistoryTable(pk, round_id, number, label, closed, match_id, match, planned, absent, *room)
        )
    through = {f"match__tournament_table__{key}": value for key, value in where.items()}
    seats: dict[int, list[SeatRow]] = {}
    seat_rows = MatchSeat.objects.filter(**through).order_by("match_id", "seat")
    for match_id, seat, player_id, place, score in seat_rows.values_list(
        "match_id", "seat", "player_id", "place", "score"
    ):
        seats.setdefault(match_id, []).append(SeatRow(seat, player_id, place, score))
    if round_number is not None:  # the players the round's part shows
        players = {pid for row in round_rows for pid in (*row.byes, *row.advanced, *row.sat_out)}
        players.update(pid for row in round_rows for pid, _ in row.requested_byes)
        players.update(pid for listed in found.values() for table in listed for pid in table.planned_seats)
        players.update(seat.player_id for listed in seats.values() for seat in listed)
        registered = registered.filter(player_id__in=players)
    registrations = entries_of(registered, names=names)
    # advancing__isnull=False: every decider is a list of player ids
    deciders = cast(
        dict[int, list[int]],
        dict(
            ResultVersion.objects.filter(
                **through, advancing__isnull=False, version=F("match__result_version")
            ).values_list("match_id", "advancing")
        ),
    )
    results, voided = _played(tournament, round_rows, found, seats, deciders)
    return History(tournament, registrations, round_rows, found, seats, results, deciders, voided)


def entries_of(registered: QuerySet[Registration], *, names: bool) -> list[HistoryEntry]:
    """The registrations `registered` as `HistoryEntry`s (with their players' names and slugs if `names`),
    in their order, read as values."""
    if not names:
        return [HistoryEntry._make((*row, None)) for row in registered.values_list(*REGISTRATION_FIELDS)]
    values = registered.values_list(*REGISTRATION_FIELDS, "player__name", "player__slug")
    return [HistoryEntry._make((*row[:-2], HistoryPlayer(row[1], row[-2], row[-1]))) for row in values]


def _played(
    tournament: Tournament,
    round_rows: list[Round],
    tables: dict[int, list[HistoryTable]],
    seats: dict[int, list[SeatRow]],
    deciders: dict[int, list[int]],
) -> tuple[dict[int, PlayedRound], dict[int, list[TableResult]]]:
    """Each published round as a `PlayedRound`, and the bracket matches voided with both players absent."""
    rounds: dict[int, PlayedRound] = {}
    voided: dict[int, list[TableResult]] = {}
    for round_row in round_rows:
        if round_row.status == Round.Status.DRAFT:
            continue
        results = []
        for table in tables[round_row.pk]:
            match = table.match
            if (
                match is not None
                and match.status == Match.Status.VOID
                and table.closed_as in (TableRow.Closed.NO_SHOW, TableRow.Closed.FORFEIT)
                and table.label
                and flows(tournament, round_row.number)
            ):
                absent = tuple(seat.player_id for seat in seats.get(match.pk, []))
                voided.setdefault(round_row.number, []).append(
                    TableResult(seats=absent, places={}, label=table.label, void=True)
                )
            if match is None or match.status != Match.Status.FINISHED:
                continue
            seated = seats.get(match.pk, [])
            results.append(
                TableResult(
                    seats=tuple(seat.player_id for seat in seated),
                    # a finished match places every seat
                    places=cast(dict[Hashable, int], {seat.player_id: seat.place for seat in seated}),
                    label=table.label,
                    advancing=tuple(deciders.get(match.pk, ())),
                )
            )
        requested = tuple((player, score) for player, score in round_row.requested_byes)
        rounds[round_row.number] = PlayedRound(
            tables=tuple(results), byes=tuple(round_row.byes), requested_byes=requested
        )
    return rounds, voided
