"""The one seam between the ORM and the pure pairing code (`league.pairing`).

It loads a tournament's registrations and results in a fixed number of queries, turns them into the pure
layer's dataclasses (`Entrant`, `PlayedRound`, `TableResult`, `TableSpec`, `Scoring`), calls
`generate_round`, and turns the `RoundDraft` back into plain values that the services save. Nothing else in
the app imports `league.pairing`, so the rules of pairing, scoring and tie-breaks live in one place.

Fields: Swiss pairs the players active before each round (a late entry starts with zero points). Round
robin and elimination play a fixed field, the players registered when round 1 was generated; a player who
drops from a fixed field keeps their place in the schedule, and their tables are closed as forfeits. The
top cut of a stage sequence is taken from the standings after the first stage, among the players still in
when it is drawn: one who left during or after the first stage's last round gives their place to the next.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Generic, Literal, NamedTuple, TypedDict, TypeVar, cast, overload

from django.db.models import F

from games.core.spec import GameSpec
from league.core.catalogue import game_spec
from league.core.checks import is_int, is_number
from league.core.errors import ErrorCode, UserError
from league.matches.models import Match, MatchSeat
from league.pairing import (
    DEFAULT_TIEBREAKS,
    MISSED_CUT,
    Entrant,
    Format,
    PairingError,
    PlacementGroup,
    PlayedRound,
    RoundDraft,
    RoundInputs,
    Scoring,
    StagePlan,
    Standing,
    Table,
    TableResult,
    TableSpec,
    bracket_champion,
    bracket_feeds,
    bracket_placement,
    bracket_states,
    compute_standings,
    cut_placement,
    cut_problem,
    double_elimination_bracket,
    entrants_from_history,
    flow_plan,
    generate_round,
    largest_cut,
    open_cut,
    ordinal,
    place_points,
    placed_standings,
    pod_placement,
    ready_matches,
    round_quality,
    single_elimination_bracket,
    table_order,
    top_cut,
)
from league.pairing import Bracket as PairingBracket
from league.pairing.round_robin import default_rounds
from league.pairing.scoring import TIEBREAKS
from league.results.models import ResultVersion
from league.tournaments.models import Registration, Round, Tournament
from league.tournaments.models import Table as TableRow

__all__ = (
    "DEFAULT_TIEBREAKS",
    "TIEBREAKS",
    "Bracket",
    "History",
    "bracket_of",
    "check_points",
    "draft_values",
    "generate",
    "is_finished",
    "is_swiss_round",
    "has_bracket",
    "load_facts",
    "load_history",
    "load_outline",
    "load_round_part",
    "planned_rounds",
    "quality_after_adjust",
    "scoring_of",
    "standings",
    "table_sizes_of",
    "table_spec",
)


def table_spec(tournament: Tournament, spec: GameSpec | None = None) -> TableSpec:
    """The pure layer's table rule: the preferred size, and the leftover rule as a minimum and maximum within
    the game's player range for the tournament's options."""
    spec = spec or game_spec(tournament.game_id)
    low, high = spec.players_allowed(tournament.options)
    preferred = tournament.table_size
    if tournament.leftovers == Tournament.Leftovers.SHORT:
        return TableSpec(preferred=preferred, minimum=max(low, preferred - 1), maximum=preferred)
    if tournament.leftovers == Tournament.Leftovers.LONG:
        return TableSpec(preferred=preferred, minimum=preferred, maximum=min(high, preferred + 1))
    return TableSpec(preferred=preferred, minimum=preferred, maximum=preferred)


def table_sizes_of(tournament: Tournament) -> list[int]:
    """Every table size the tournament's rule allows (`table_spec`), smallest first; [] when the settings do
    not make a rule (a size outside the game's range: the settings check says so)."""
    try:
        rule = table_spec(tournament)
    except PairingError:
        return []
    return list(range(rule.minimum, rule.maximum + 1))


def top_cut_problem(tournament: Tournament) -> str | None:
    """Why a stage sequence's top cut (its size, the table rule and the advance) can never be played, or None
    (`pairing.cut_problem`; the rule is in docs/tournaments.md). `tournament` may be unsaved settings."""
    return cut_problem(
        tournament.cut_size or 0, table_spec(tournament), tournament.advance, tournament.cut_format
    )


def largest_top_cut(tournament: Tournament, players: int) -> int | None:
    """The largest top cut `players` can fill with the tournament's tables and advance, or None."""
    return largest_cut(players, table_spec(tournament), tournament.advance, tournament.cut_format)


def check_points(points: Any) -> dict[str, list[float]]:
    """Validate points per place by table size ({"4": [3, 2, 1, 0]}); return them with string keys."""
    if points in (None, ""):
        return {}
    if not isinstance(points, Mapping):
        raise UserError(
            'points are an object of table size to points per place, e.g. {"4": [3, 2, 1, 0]}', field="points"
        )
    cleaned: dict[str, list[float]] = {}
    for size, values in points.items():
        try:
            size_number = int(size)
        except (TypeError, ValueError):
            raise UserError(f"table size {size!r} is not a whole number", field="points") from None
        if not 2 <= size_number <= 7:
            raise UserError(f"table sizes run from 2 to 7, not {size_number}", field="points")
        if not isinstance(values, list | tuple) or not all(is_number(value) for value in values):
            raise UserError(
                f"the points for a table of {size_number} must be a list of numbers", field="points"
            )
        cleaned[str(size_number)] = [float(value) for value in values]
    try:
        Scoring({int(size): tuple(values) for size, values in cleaned.items()})
    except PairingError as exc:
        raise UserError(str(exc), field="points") from None
    return cleaned


def scoring_of(tournament: Tournament) -> Scoring:
    """The tournament's points per place; scaled to its preferred table size when `scale_points` is on."""
    return Scoring(
        {int(size): tuple(values) for size, values in (tournament.points or {}).items()},
        scale_to=tournament.table_size if tournament.scale_points else None,
    )


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
_V = TypeVar("_V")  # the values of a mapping by player (`_keyed`)


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


def _tiebreaks(tournament: Tournament) -> tuple[str, ...]:
    return tuple(tournament.tiebreaks or DEFAULT_TIEBREAKS)


def standings(history: History, *, last_round: int | None = None) -> list[Standing]:
    """Standings of every player who took part, ordered by the tournament's tie-breaks, then seed; once an
    elimination (or a stage sequence's top cut) has a published round, ordered by its placement (the
    bracket), each line naming the rule of its group (`league.pairing.placement`)."""
    tournament = history.tournament
    seeds = history.seeds
    if not seeds:
        return []
    try:
        ordered = compute_standings(
            _keyed(seeds),
            history.played(last=last_round),
            scoring_of(tournament),
            _tiebreaks(tournament),
            bye_table_size=tournament.table_size,
        )
        if last_round is None:
            groups = _placement(history)
            if groups is not None:
                return _first_stage_figures(history, placed_standings(ordered, groups))
        return ordered
    except PairingError as exc:
        raise UserError(str(exc)) from None


@dataclass
class EliminationPart:
    """The elimination of a tournament (or its top cut): its format, first round, entrants (a top cut
    re-seeded 1..cut) and labelled results."""

    elimination: str
    first_round: int
    entrants: list[Entrant]
    results: list[TableResult]


def elimination_part(history: History) -> EliminationPart | None:
    """The elimination part of the tournament once its first round exists (a draft counts); else None."""
    tournament = history.tournament
    if tournament.format == Tournament.Format.STAGES:
        plan = _stage_plan(tournament)
        first_round, elimination = plan.first_rounds + 1, plan.elimination
    elif tournament.is_elimination:
        first_round, elimination = 1, tournament.format
    else:
        return None
    if not any(row.number >= first_round for row in history.round_rows):
        return None
    entrants = list(_inputs(history, first_round).entrants)
    if tournament.format == Tournament.Format.STAGES:
        entrants = top_cut(entrants, plan.cut)
    return EliminationPart(elimination, first_round, entrants, _bracket_results(history, first_round))


def _first_stage_figures(history: History, placed: list[Standing]) -> list[Standing]:
    """After a stage sequence's top cut, the players who did not make the cut show their first stage's
    figures (points and every tie-break as the first stage ended, which ordered them), not figures that
    count their opponents' cut matches; their rank and group stay the placement's."""
    tournament = history.tournament
    if tournament.format != Tournament.Format.STAGES:
        return placed
    missed = {row.id for row in placed if row.group.startswith(MISSED_CUT)}
    if not missed:
        return placed
    first = {row.id: row for row in standings(history, last_round=tournament.rounds or 0)}
    return [
        replace(first[row.id], rank=row.rank, group=row.group)
        if row.id in missed and row.id in first
        else row
        for row in placed
    ]


def _placement(history: History) -> list[PlacementGroup] | None:
    """The placement groups of an elimination with a published round, best first; None otherwise."""
    part = elimination_part(history)
    if part is None or part.first_round not in history.rounds:
        return None
    tournament = history.tournament
    if tournament.table_size == 2:
        groups = bracket_placement(_drawn(tournament, part), part.entrants, part.results, part.first_round)
    else:
        groups = pod_placement(part.entrants, tournament.advance, part.results, part.first_round)
    if tournament.format == Tournament.Format.STAGES:
        first_stage = standings(history, last_round=part.first_round - 1)
        name = "Swiss" if tournament.first_stage == "swiss" else "round-robin"
        groups = cut_placement(groups, first_stage, name)
    return groups


def _drawn(tournament: Tournament, part: EliminationPart) -> Any:
    if part.elimination == Tournament.Format.DOUBLE_ELIMINATION:
        return double_elimination_bracket(len(part.entrants), tournament.grand_final_reset)
    return single_elimination_bracket(len(part.entrants), tournament.third_place)


_SEEDED: dict[tuple, list[Entrant]] = {}  # entrants before any round, by seeds and rules (`_entrants`)
SEEDED_KEPT = 16


def _entrants(history: History, players: set[int], *, last_round: int | None = None) -> list[Entrant]:
    tournament = history.tournament
    played = history.played(last=last_round)
    arguments = (_keyed(history.seeds), played, scoring_of(tournament), _tiebreaks(tournament))
    everyone: list[Entrant] | None
    if played:
        everyone = entrants_from_history(*arguments, bye_table_size=tournament.table_size)
    else:  # an elimination re-reads its field before round 1 after every result: the same answer each time
        key = (tuple(history.seeds.items()), repr(arguments[2]), arguments[3], tournament.table_size)
        everyone = _SEEDED.get(key)
        if everyone is None:
            everyone = entrants_from_history(*arguments, bye_table_size=tournament.table_size)
            if len(_SEEDED) >= SEEDED_KEPT:
                _SEEDED.pop(next(iter(_SEEDED)))
            _SEEDED[key] = everyone
    return [entrant for entrant in everyone if entrant.id in players]


def _active(history: History) -> set[int]:
    return {reg.player_id for reg in history.registrations if reg.status == Registration.Status.ACTIVE}


def _fixed_field(history: History) -> set[int]:
    """The players of round 1 (late entries excluded), whatever happened to them since."""
    return {
        reg.player_id
        for reg in history.registrations
        if reg.status != Registration.Status.WITHDRAWN and reg.entered_round == 1 and reg.seed is not None
    }


def _cut_field(history: History, first_rounds: int) -> set[int]:
    return {
        reg.player_id
        for reg in history.registrations
        if reg.player_id in history.seeds
        and (reg.status == Registration.Status.ACTIVE or (reg.left_after_round or 0) > first_rounds)
    }


def _stage_plan(tournament: Tournament) -> StagePlan:
    try:
        return StagePlan(
            first=tournament.first_stage,
            first_rounds=tournament.rounds or 0,
            cut=tournament.cut_size or 0,
            elimination=tournament.cut_format,
        )
    except PairingError as exc:
        raise UserError(str(exc), field="format") from None


def is_swiss_round(tournament: Tournament, number: int) -> bool:
    """Whether round `number` is paired Swiss (a Swiss tournament, or a stage sequence's Swiss stage): the
    rounds players may ask to miss."""
    if tournament.format == Tournament.Format.SWISS:
        return True
    return (
        tournament.format == Tournament.Format.STAGES
        and tournament.first_stage == "swiss"
        and number <= (tournament.rounds or 0)
    )


class _CommonInputs(TypedDict):
    """The fields of `RoundInputs` that every format sets (`_inputs`)."""

    round_number: int
    table: TableSpec
    advance: int
    third_place: bool
    grand_final_reset: bool


def _inputs(history: History, number: int, resting: frozenset[int] = frozenset()) -> RoundInputs:
    """What the pairing needs for round `number`; `resting` players (who asked to miss a Swiss round) are
    left out of it."""
    tournament = history.tournament
    spec = table_spec(tournament)
    common: _CommonInputs = {
        "round_number": number,
        "table": spec,
        "advance": tournament.advance,
        "third_place": tournament.third_place,
        "grand_final_reset": tournament.grand_final_reset,
    }
    fmt = tournament.format
    if fmt == Tournament.Format.SWISS:
        return RoundInputs(entrants=_entrants(history, _active(history) - resting), **common)
    if fmt == Tournament.Format.ROUND_ROBIN:
        return RoundInputs(
            entrants=_entrants(history, _fixed_field(history)), rounds=tournament.rounds, **common
        )
    if fmt in (Tournament.Format.SINGLE_ELIMINATION, Tournament.Format.DOUBLE_ELIMINATION):
        # Elimination rebuilds its earlier rounds from the entrants as they stood before round 1.
        results = [result for played in history.played() for result in played.tables]
        return RoundInputs(
            entrants=_entrants(history, _fixed_field(history), last_round=0), results=results, **common
        )
    plan = _stage_plan(tournament)
    if number <= plan.first_rounds:
        players = _active(history) - resting if plan.first == "swiss" else _fixed_field(history)
        return RoundInputs(
            entrants=_entrants(history, players), rounds=plan.first_rounds, stage=plan, **common
        )
    entrants = _entrants(history, _cut_field(history, plan.first_rounds), last_round=plan.first_rounds)
    results = [result for played in history.played(first=plan.first_rounds + 1) for result in played.tables]
    return RoundInputs(entrants=entrants, results=results, stage=plan, **common)


def generate(history: History, number: int, resting: frozenset[int] = frozenset()) -> RoundDraft:
    """Round `number` of the tournament from its history, without the `resting` players (Swiss rounds only);
    a PairingError becomes a UserError (400)."""
    try:
        return generate_round(Format(history.tournament.format), _inputs(history, number, resting))
    except PairingError as exc:
        raise UserError(str(exc), code=ErrorCode.PAIRING) from None


def quality_dict(quality: Any) -> dict:
    """The quality report as plain values (its per-table lines as dicts; `asdict` deep-copies every value
    of a report of thousands of tables, this reads each once)."""
    report = {name.name: getattr(quality, name.name) for name in fields(quality)}
    report["per_table"] = tuple(
        {
            "repeat_pairs": line.repeat_pairs,
            "score_spread": line.score_spread,
            "seat_excess": line.seat_excess,
        }
        for line in quality.per_table
    )
    report["cost"] = tuple(quality.cost)
    if quality.schedule_balance is not None:
        report["schedule_balance"] = asdict(quality.schedule_balance)
    return report


def draft_values(draft: RoundDraft) -> dict:
    """The plain values the services store for a generated round."""
    return {
        "tables": [{"seats": list(table.seats), "label": table.label} for table in draft.tables],
        "byes": list(draft.byes),
        "advanced": list(draft.advanced),
        "final": draft.final,
        "quality": quality_dict(draft.quality),
    }


def quality_after_adjust(history: History, number: int, tables: list[list[int]], byes: list[int]) -> dict:
    """The quality report of an adjusted draft, measured against the history before round `number`."""
    tournament = history.tournament
    everyone = entrants_from_history(
        _keyed(history.seeds),
        history.played(last=number - 1),
        scoring_of(tournament),
        _tiebreaks(tournament),
        bye_table_size=tournament.table_size,
    )
    by_id = {entrant.id: entrant for entrant in everyone}
    report = quality_dict(round_quality([Table(seats=tuple(seats)) for seats in tables], byes, by_id))
    report["adjusted"] = True
    return report


def planned_rounds(history: History) -> int | None:
    """How many rounds a Swiss or round-robin tournament (or a stage sequence's first stage) plays;
    None for elimination, whose length the bracket decides."""
    tournament = history.tournament
    if tournament.format == Tournament.Format.SWISS:
        return tournament.rounds
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        if tournament.rounds:
            return tournament.rounds
        field = _fixed_field(history) or _active(history)
        return default_rounds(len(field), table_spec(tournament)) if len(field) >= 2 else None
    return None


def _bracket_results(history: History, first: int) -> list[TableResult]:
    """The labelled results of the elimination from round `first`, with its void matches (both absent)."""
    played = [result for played in history.played(first=first) for result in played.tables]
    voided = [
        result for number, results in sorted(history.voided.items()) if number >= first for result in results
    ]
    return played + voided


def is_finished(history: History, completed: Round) -> bool:
    """Whether the tournament is over once `completed` (the latest round) is complete."""
    tournament = history.tournament
    planned = planned_rounds(history)
    if planned is not None:
        return completed.number >= planned
    if not completed.final:
        return False
    elimination = (
        tournament.cut_format if tournament.format == Tournament.Format.STAGES else tournament.format
    )
    if elimination != Tournament.Format.DOUBLE_ELIMINATION:
        return True
    bracket = bracket_of(history)
    return (
        bracket is not None
        and bracket_champion(bracket.bracket, bracket.entrants, bracket.results) is not None
    )


@dataclass
class Bracket:
    """A 2-seat bracket with the entrants and labelled results it is played with."""

    bracket: Any
    entrants: list[Entrant]
    results: list[TableResult]
    first_round: int


def bracket_of(history: History) -> Bracket | None:
    """The drawn 2-seat bracket of an elimination tournament or a top cut, once its first round exists."""
    part = elimination_part(history)
    if part is None or history.tournament.table_size != 2:
        return None
    return Bracket(_drawn(history.tournament, part), part.entrants, part.results, part.first_round)


def flows(tournament: Tournament, round_number: int) -> bool:
    """Whether round `round_number` belongs to a 2-seat bracket played match by match (single or double
    elimination, or a stage sequence's 2-seat top cut): its matches open as soon as their players are
    known."""
    if tournament.table_size != 2:
        return False
    if tournament.format == Tournament.Format.STAGES:
        return round_number > (tournament.rounds or 0)
    return tournament.is_elimination


@dataclass(frozen=True)
class ReadyMatch:
    """A bracket match whose players are known and which has no table yet: its round (the bracket's column),
    its position in that column (from 1), its label and its players in seat order."""

    round_number: int
    position: int
    label: str
    seats: tuple[int, ...]


@dataclass(frozen=True)
class FlowRound:
    """A round of a bracket played match by match: its matches, whether every one is decided, whether it
    holds a deciding match, and who went through by walkover with it."""

    number: int
    labels: tuple[str, ...]
    decided: bool
    final: bool
    advanced: tuple[int, ...]


@dataclass
class BracketFlow:
    """Where a bracket played match by match stands: the matches ready to open, its rounds, whether the
    champion is decided, and the live table of each match that has one (a reset table is not live)."""

    ready: list[ReadyMatch]
    rounds: list[FlowRound]
    finished: bool
    live: dict[str, TableRow]
    feeds: dict[str, tuple[str, ...]]
    drawn: PairingBracket


def live_tables(history: History, first_round: int) -> dict[str, TableRow]:
    """The table each bracket match is played at (the latest; a table reset by a correction is not live)."""
    live: dict[str, TableRow] = {}
    for round_row in history.round_rows:
        if round_row.number < first_round:
            continue
        for table in history.tables[round_row.pk]:
            if table.label and table.closed_as != TableRow.Closed.RESET:
                live[table.label] = table
    return live


def bracket_flow(history: History) -> BracketFlow | None:
    """The state of a 2-seat bracket played match by match, once its first round is published; else None."""
    part = elimination_part(history)
    if (
        part is None
        or part.first_round not in history.rounds
        or not flows(history.tournament, part.first_round)
    ):
        return None
    drawn = Bracket(
        _drawn(history.tournament, part), part.entrants, part.results, part.first_round
    )  # bracket_of
    plan = flow_plan(drawn.bracket)
    live = live_tables(history, part.first_round)
    try:
        states = bracket_states(drawn.bracket, part.entrants, part.results)
        ready = ready_matches(drawn.bracket, part.entrants, part.results, set(live), states)
    except PairingError as exc:
        raise UserError(str(exc)) from None
    offset = part.first_round - 1
    opened = [
        ReadyMatch(
            offset + plan.round_of(table.label),
            plan.rounds[plan.round_of(table.label) - 1].index(table.label) + 1,
            table.label,
            _ids(table.seats),
        )
        for table in ready
    ]
    rounds = [
        FlowRound(
            number=offset + index,
            labels=labels,
            decided=all(states[label].decided for label in labels),
            final=any(label in drawn.bracket.deciding for label in labels),
            advanced=_ids(
                states[label].winner
                for label in (*plan.walkovers[index - 1], *labels)
                if states[label].decided and states[label].walkover and states[label].winner is not None
            ),
        )
        for index, labels in enumerate(plan.rounds, start=1)
    ]
    finished = all(states[label].decided for label in drawn.bracket.deciding)
    return BracketFlow(opened, rounds, finished, live, bracket_feeds(drawn.bracket), drawn.bracket)


def correction_resets(
    history: History, table: TableRow, places: Sequence[int], advancing: Sequence[int] | None
) -> list[TableRow]:
    """The live tables a correction at bracket table `table` would undo: when the new places (and decider)
    change who won or lost, every later match its result feeds (directly or through other matches) that
    already has a table, in round and table order. [] when the outcome stays."""
    flow = bracket_flow(history)
    if flow is None or flow.live.get(table.label) is None or flow.live[table.label].pk != table.pk:
        return []
    part = cast(EliminationPart, elimination_part(history))  # a bracket flow comes from an elimination part
    match_id = cast(int, table.match_id)  # a live bracket table has its match
    seated = [seat.player_id for seat in history.seats.get(match_id, [])]
    corrected = TableResult(
        seats=tuple(seated),
        places=dict(zip(seated, places, strict=True)),
        label=table.label,
        advancing=tuple(advancing or ()),
    )
    downstream: list[str] = []
    waiting = list(flow.feeds[table.label])
    while waiting:
        label = waiting.pop(0)
        if label not in downstream:
            downstream.append(label)
            waiting.extend(flow.feeds[label])
    upstream = [
        result for result in part.results if result.label != table.label and result.label not in downstream
    ]
    before = bracket_states(flow.drawn, part.entrants, part.results)[table.label]
    after = bracket_states(flow.drawn, part.entrants, [*upstream, corrected])[table.label]
    if (before.winner, before.loser) == (after.winner, after.loser):
        return []
    undone = [flow.live[label] for label in downstream if label in flow.live]
    return sorted(undone, key=lambda row: (row.round_id, row.number))


def pod_correction_round(
    history: History, table: TableRow, places: Sequence[int], advancing: Sequence[int] | None
) -> Round | None:
    """At a multi-seat elimination table (not the final table), the later round that a correction changing
    who goes through would contradict: the first round after the table's that exists (a draft counts), when
    the new places (and decider) send other players through than the counting result. None otherwise (a
    2-seat bracket has its own rule: `correction_resets`)."""
    tournament = history.tournament
    number = table.round.number
    cut = table_cut(tournament, number, table.label)
    if tournament.table_size == 2 or cut is None or not table.match_id:
        return None
    later = next((row for row in history.round_rows if row.number > number), None)
    played = history.rounds.get(number)
    current = next(
        (result for result in (played.tables if played else ()) if result.label == table.label), None
    )
    part = elimination_part(history)
    if later is None or current is None or part is None:
        return None
    seeds = history.seeds
    rank = {entrant.id: entrant.rank_key() for entrant in part.entrants}
    rank.update({pid: (0, 0, _keyed(seeds).get(pid, 0)) for pid in current.seats if pid not in rank})
    corrected = TableResult(
        seats=current.seats,
        places=dict(zip(current.seats, places, strict=True)),
        label=table.label,
        advancing=tuple(advancing or ()),
    )
    before = set(table_order(current, rank)[:cut])
    after = set(table_order(corrected, rank)[:cut])
    return later if before != after else None


def table_cut(tournament: Tournament, round_number: int, label: str) -> int | None:
    """How many go through from a table of round `round_number`: 1 at every 2-seat bracket match (the
    final, a third-place match and a grand final decide a place the same way), the tournament's `advance`
    at a multi-seat elimination table; None where nobody goes through (Swiss, round robin, the final table
    of a multi-seat elimination, whose places stand as they are)."""
    elimination = tournament.is_elimination or (
        tournament.format == Tournament.Format.STAGES and round_number > (tournament.rounds or 0)
    )
    if not elimination:
        return None
    if tournament.table_size == 2:
        return 1
    return None if label == "Final" else tournament.advance


def _keyed(by_player: Mapping[int, _V]) -> Mapping[Hashable, _V]:
    """`by_player` as the pairing takes it: keyed by player ids of any hashable kind (the seam's are ints)."""
    return cast(Mapping[Hashable, _V], by_player)  # a Mapping is invariant in its key, so a cast says it


def _ids(players: Iterable[Hashable]) -> tuple[int, ...]:
    """Player ids the pairing gives back, as the seam's ints: it only ever gets ints (`Entrant.id`, seats)
    from the seam, so the ids it returns are ints."""
    return cast(tuple[int, ...], tuple(players))


def _names(players: Sequence[Hashable], names: Mapping[int, str], last: str = "and") -> str:
    words = [names[player] for player in _ids(players)]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def check_advancing(
    tournament: Tournament,
    round_number: int,
    label: str,
    seats: Sequence[int],
    places: Sequence[int],
    advancing: Any,
    names: Mapping[int, str],
) -> list[int] | None:
    """The decider to store with a result at this table (player ids who go through, in seat order), or None
    where the places decide who goes through (or nobody does). A tie across the cut without a decider, or a
    decider that contradicts the places, is refused with a message naming the players (`advancing`)."""
    given = list(advancing) if isinstance(advancing, list | tuple) else advancing
    if given is not None and (
        not isinstance(given, list)
        or not all(is_int(pid) and pid in seats for pid in given)
        or len(set(given)) != len(given)
    ):
        raise UserError("advancing lists players of this table, each once", field="advancing")
    cut = table_cut(tournament, round_number, label)
    if cut is None:
        if given:
            raise UserError("nobody goes through from this table: leave advancing empty", field="advancing")
        return None
    by_player = dict(zip(seats, places, strict=True))
    opened = open_cut(seats, _keyed(by_player), cut)
    if opened is None:
        decided = sorted(seats, key=by_player.__getitem__)[:cut]
        if given and set(given) != set(decided):
            raise UserError(
                f"the places already decide who goes through: {_names(decided, names)}", field="advancing"
            )
        return None
    one = opened.needed == 1
    if not given:
        raise UserError(
            f"{_names(opened.tied, names)} share {ordinal(opened.place)} place and only "
            f"{'one' if one else opened.needed} of them go{'es' if one else ''} through: say who",
            field="advancing",
        )
    chosen = set(given)
    if (
        len(chosen) != len(given)
        or len(chosen) != cut
        or not set(opened.through) <= chosen <= set(opened.through + opened.tied)
    ):
        ahead = f"{_names(opened.through, names)} by place, then " if opened.through else ""
        raise UserError(
            f"who goes through must follow the places: {ahead}{'one' if one else opened.needed} of "
            f"{_names(opened.tied, names, 'or')}",
            field="advancing",
        )
    return [player for player in seats if player in chosen]


def table_points(tournament: Tournament, seats: Sequence[int], places: Mapping[int, int]) -> dict[int, float]:
    """The tournament points each player earns at one table (shared places share points)."""
    try:
        points = place_points(TableResult(seats=tuple(seats), places=_keyed(places)), scoring_of(tournament))
        return cast(dict[int, float], points)  # keyed by the players of `seats`
    except PairingError as exc:
        raise UserError(str(exc)) from None


def bye_points(tournament: Tournament) -> float:
    return scoring_of(tournament).bye_points(tournament.table_size)


def requested_bye_points(tournament: Tournament, score: str) -> float:
    """What a bye a player asked for scores ("win", "half" or "zero", as recorded on its round)."""
    try:
        return scoring_of(tournament).requested_bye_points(score, tournament.table_size)
    except PairingError as exc:
        raise UserError(str(exc)) from None


UNKNOWN = object()


@dataclass(frozen=True)
class BracketSlot:
    """One side of a bracket match: a player (or a bye, or a match still to be decided)."""

    text: str
    player_id: int | None = None
    won: bool = False


@dataclass(frozen=True)
class BracketMatchView:
    label: str
    slots: tuple[BracketSlot, ...]
    decided: bool
    skipped: bool = False


def bracket_matches(history: History, names: Mapping[int, str]) -> list[BracketMatchView] | None:
    """Every match of the 2-seat bracket in playing order with who plays it as far as results tell:
    seeds, walkovers (a bye), and winners and losers of decided matches; None without a bracket.
    A tie is decided by the result's decider, else (a table closed as a forfeit) by the better-ranked
    player, as in the pairing layer."""
    drawn = bracket_of(history)
    if drawn is None:
        return None
    ordered = sorted(drawn.entrants, key=lambda entrant: entrant.seed)
    by_seed = {position: entrant.id for position, entrant in enumerate(ordered, start=1)}
    rank = {entrant.id: entrant.rank_key() for entrant in drawn.entrants}
    results = {result.label: result for result in drawn.results}
    winner: dict[str, object] = {}
    loser: dict[str, object] = {}
    views = []
    for match in drawn.bracket.matches:
        players: list[object] = []
        texts: list[str] = []
        for source in match.sources:
            if source.kind == "seed":
                player = by_seed.get(source.ref)
                players.append(player)
                texts.append(_keyed(names).get(player, "") if player is not None else "bye")
                continue
            decided = winner if source.kind == "winner" else loser
            player = decided.get(source.ref, UNKNOWN)
            players.append(player)
            if player is UNKNOWN:
                texts.append(f"{source.kind.title()} of {source.ref}")
            else:
                texts.append(_keyed(names).get(player, "") if player is not None else "bye")
        skipped = False
        if match.reset and winner.get("GF", UNKNOWN) not in (UNKNOWN, players[1]):
            skipped = True
        present = [player for player in players if player not in (None, UNKNOWN)]
        if skipped:
            pass
        elif UNKNOWN not in players and len(present) < 2:
            winner[match.label] = present[0] if present else None
            loser[match.label] = None
        elif match.label in results and UNKNOWN not in players:
            first, second = table_order(results[match.label], rank)
            winner[match.label], loser[match.label] = first, second
        won = winner.get(match.label, UNKNOWN)
        views.append(
            BracketMatchView(
                label=match.label,
                slots=tuple(
                    BracketSlot(
                        text,
                        cast(int | None, player if player not in (None, UNKNOWN) else None),  # an id
                        won not in (None, UNKNOWN) and player == won,
                    )
                    for text, player in zip(texts, players, strict=True)
                ),
                decided=match.label in winner,
                skipped=skipped,
            )
        )
    return views
