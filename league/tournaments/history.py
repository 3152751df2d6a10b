"""A tournament's history: its registrations, rounds, tables, seats and results, loaded in a fixed number of
queries and turned into the pure layer's results (`PlayedRound`, `TableResult`) that pairing, standings and
the bracket flow read.

It has three shapes, by what reads it: model instances (`load_history`: pages that link players and tables),
plain values (`load_facts`: the services and the standings snapshot), and one round's tables with the names
of the players it shows (`load_round_part`); `load_outline` reads the registrations and round rows alone.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, NamedTuple, TypeVar, cast, overload

from django.db.models import F

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


# What a history holds of each table and registration: model instances (`load_history`), or plain values
# (`TableFacts` and `RegistrationFacts` of `load_facts` and `load_outline`, `ShownTable` and
# `ShownRegistration` of `load_round_part`). Code that reads any history reads the fields they share.
TableT = TypeVar("TableT")
RegistrationT = TypeVar("RegistrationT")


@dataclass
class History(Generic[TableT, RegistrationT]):
    """A tournament as the pure layer sees it: registrations, and every published round's results.

    `round_rows` are the rounds in order, `tables` their tables (by round id, in table order, with the
    match), `seats` the seats of every published table's match (by match id, in seat order), `rounds` each
    published round as a `PlayedRound` (tables with a result only, with their labels, and the byes),
    `deciders` who goes through at elimination tables whose result left a tie at the cut (by match id),
    `voided` the bracket matches closed with both players absent (void results, by round number: nobody
    goes through; only 2-seat brackets played match by match read them).
    """

    tournament: Tournament
    registrations: list[RegistrationT]
    round_rows: list[Round]
    tables: dict[int, list[TableT]]
    seats: dict[int, list[SeatRow]]
    rounds: dict[int, PlayedRound]
    deciders: dict[int, list[int]] = field(default_factory=dict)
    voided: dict[int, list[TableResult]] = field(default_factory=dict)

    @property
    def seeds(self) -> dict[int, int]:
        """Seed of every player who ever took part (withdrawn players excluded)."""
        return {
            reg.player_id: reg.seed
            for reg in cast(list[AnyRegistration], self.registrations)  # each kind holds these fields
            if reg.status != Registration.Status.WITHDRAWN and reg.seed is not None
        }

    def played(self, first: int = 1, last: int | None = None) -> list[PlayedRound]:
        return [
            played
            for number, played in sorted(self.rounds.items())
            if number >= first and (last is None or number <= last)
        ]


def load_history(tournament: Tournament) -> History[TableRow, Registration]:
    """Registrations (with players), rounds, tables with their matches, seats, and the deciders of ties at
    elimination cuts (`ResultVersion.advancing` of the counting versions), in five queries.

    Seats are read as plain values: a tournament of a thousand players has thousands of them, and model
    instances (or a prefetch per match) would cost more than the pairing itself.
    """
    return _load(tournament, {"round__tournament": tournament})


class MatchFacts(NamedTuple):
    """What a lean history knows of a table's match."""

    pk: int
    status: str
    result_version: int


class TableFacts(NamedTuple):
    """A table as a lean history holds it: the fields the pairing, standings and bracket flow read (not its
    planned seats or absent players: the seats are the match's)."""

    pk: int
    round_id: int
    number: int
    label: str
    closed_as: str
    match_id: int | None
    match: MatchFacts | None


class RegistrationFacts(NamedTuple):
    """A registration as a lean history holds it (no player row: names are not needed to pair or rank)."""

    pk: int
    player_id: int
    seed: int | None
    status: str
    entered_round: int
    left_after_round: int | None


class ShownTable(NamedTuple):
    """A table as a partial history (`load_round_part`) holds it: what a round's page shows, read as
    values."""

    pk: int
    round_id: int
    number: int
    label: str
    closed_as: str
    match_id: int | None
    match: MatchFacts | None
    planned_seats: list[int]
    absent: list[int]


class PlayerFacts(NamedTuple):
    """The player of a partial history's registration: what a round's page shows of them."""

    pk: int
    name: str
    slug: str


class ShownRegistration(NamedTuple):
    """A registration as a partial history (`load_round_part`) holds it: its facts and the player's name and
    slug, read as values (a page of 100 tables seats hundreds of players: model instances cost more than the
    queries)."""

    pk: int
    player_id: int
    seed: int | None
    status: str
    entered_round: int
    left_after_round: int | None
    player: PlayerFacts


# A registration of any history (see `History`).
AnyRegistration = Registration | RegistrationFacts | ShownRegistration


def load_facts(tournament: Tournament) -> History[TableFacts, RegistrationFacts]:
    """The history of `load_history` read as plain values: its tables are `TableFacts`, its registrations
    `RegistrationFacts` (without the players). Everything computed from a history (pairing, standings,
    the bracket flow) reads it the same; it serves the services and the standings snapshot, which need no
    model instances of a 10,000-player event's tens of thousands of tables. Nothing from it is saved."""
    return _load(tournament, {"round__tournament": tournament}, lean=True)


def load_outline(
    tournament: Tournament, *, registrations: bool = True
) -> History[TableFacts, RegistrationFacts]:
    """The registrations (as `RegistrationFacts`: statuses and seeds, no players) and round rows alone, in
    two queries: no tables, seats or results. It serves what reads only those (`planned_rounds`, the byes
    panel, counts of players); standings and pairing need `load_history` or `load_facts`."""
    round_rows = list(tournament.round_set.order_by("number").defer(*ROUND_REPORT))
    if not registrations:  # the round rows alone
        return History(tournament, [], round_rows, {}, {}, {})
    rows = tournament.registrations.order_by("seed", "id").values_list(*REGISTRATION_FACTS)
    return History(tournament, list(map(RegistrationFacts._make, rows)), round_rows, {}, {}, {})


def has_bracket(tournament: Tournament) -> bool:
    """Whether the tournament draws a bracket: an elimination, or a stage sequence once its top cut has a
    round (a draft counts)."""
    if tournament.is_elimination:
        return True
    return (
        tournament.format == Tournament.Format.STAGES
        and tournament.round_set.filter(number__gt=tournament.rounds or 0).exists()
    )


def load_round_part(
    tournament: Tournament, number: int, tables: tuple[int, int] | None = None
) -> History[ShownTable, ShownRegistration]:
    """A partial history for the page of one round: every round row, but only the tables of round `number`
    (with table numbers from `tables[0]` to `tables[1]` when given) with their matches, seats and deciders,
    and only the registrations (as `ShownRegistration`s: facts, name and slug) of the players at those tables
    and of every round's byes, walkovers, requested byes and sit-outs; its tables are `ShownTable`s.

    Its `rounds` and anything computed from them (standings, pairing) are not the tournament's: it serves
    to show that round (a 10,000-player round is shown a page of tables at a time), nothing else."""
    where: dict[str, Any] = {"round__tournament": tournament, "round__number": number}
    if tables is not None:
        where["number__range"] = tables
    return _load(tournament, where, partial=True)


TABLE_FACTS = (
    "id",
    "round_id",
    "number",
    "label",
    "closed_as",
    "match_id",
    "match__status",
    "match__result_version",
)
ROUND_REPORT = ("quality",)  # a round's quality report (hundreds of kB at 10,000 players): read where shown
REGISTRATION_FACTS = ("id", "player_id", "seed", "status", "entered_round", "left_after_round")


@overload
def _load(
    tournament: Tournament,
    where: dict[str, Any],
    *,
    partial: Literal[False] = ...,
    lean: Literal[False] = ...,
) -> History[TableRow, Registration]: ...
@overload
def _load(
    tournament: Tournament, where: dict[str, Any], *, partial: Literal[False] = ..., lean: Literal[True]
) -> History[TableFacts, RegistrationFacts]: ...
@overload
def _load(
    tournament: Tournament, where: dict[str, Any], *, partial: Literal[True], lean: Literal[False] = ...
) -> History[ShownTable, ShownRegistration]: ...
def _load(
    tournament: Tournament, where: dict[str, Any], *, partial: bool = False, lean: bool = False
) -> History[Any, Any]:
    round_rows = list(
        tournament.round_set.order_by("number").defer(*(ROUND_REPORT if lean or partial else ()))
    )
    tables: dict[int, list[TableRow | TableFacts | ShownTable]] = {row.pk: [] for row in round_rows}
    found = TableRow.objects.filter(**where).order_by("round_id", "number")
    if lean:
        for pk, round_id, number, label, closed, match_id, status, version in found.values_list(*TABLE_FACTS):
            facts = MatchFacts(match_id, status, version) if match_id is not None else None
            tables[round_id].append(TableFacts(pk, round_id, number, label, closed, match_id, facts))
    elif partial:
        for (
            pk,
            round_id,
            number,
            label,
            closed,
            match_id,
            status,
            version,
            planned,
            absent,
        ) in found.values_list(*TABLE_FACTS, "planned_seats", "absent"):
            facts = MatchFacts(match_id, status, version) if match_id is not None else None
            tables[round_id].append(
                ShownTable(pk, round_id, number, label, closed, match_id, facts, planned, absent)
            )
    else:
        for table_row in found.select_related("match"):
            tables[table_row.round_id].append(table_row)
    through = {f"match__tournament_table__{key}": value for key, value in where.items()}
    seats: dict[int, list[SeatRow]] = {}
    rows = MatchSeat.objects.filter(**through).order_by("match_id", "seat")
    for match_id, seat, player_id, place, score in rows.values_list(
        "match_id", "seat", "player_id", "place", "score"
    ):
        seats.setdefault(match_id, []).append(SeatRow(seat, player_id, place, score))
    registered = tournament.registrations.select_related("player").order_by("seed", "id")
    if partial:
        players = {pid for row in round_rows for pid in (*row.byes, *row.advanced, *row.sat_out)}
        players.update(pid for row in round_rows for pid, _ in row.requested_byes)
        # a partial history's tables are ShownTables, which carry their planned seats
        shown = cast(dict[int, list[ShownTable]], tables)
        players.update(pid for listed in shown.values() for table in listed for pid in table.planned_seats)
        players.update(seat.player_id for listed in seats.values() for seat in listed)
        registered = registered.filter(player_id__in=players)
    registrations: list[Registration] | list[RegistrationFacts] | list[ShownRegistration]
    if lean:
        registrations = list(map(RegistrationFacts._make, registered.values_list(*REGISTRATION_FACTS)))
    elif partial:
        values = registered.values_list(*REGISTRATION_FACTS, "player__name", "player__slug")
        registrations = [
            ShownRegistration._make((*row[:-2], PlayerFacts(row[1], *row[-2:]))) for row in values
        ]
    else:
        registrations = list(registered)
    # advancing__isnull=False: every decider is a list of player ids
    deciders = cast(
        dict[int, list[int]],
        dict(
            ResultVersion.objects.filter(
                **through, advancing__isnull=False, version=F("match__result_version")
            ).values_list("match_id", "advancing")
        ),
    )
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
    return History(tournament, registrations, round_rows, tables, seats, rounds, deciders, voided)
