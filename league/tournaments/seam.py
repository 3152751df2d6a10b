"""The seam between the ORM and the pure pairing code (`league.pairing`).

It turns a tournament's settings and history (`history.py`) into the pure layer's inputs (`Entrant`,
`RoundInputs`, `TableSpec`, `Scoring`), calls `generate_round`, and turns the `RoundDraft` back into plain
values that the services save. Standings (`ranking.py`), the bracket's reading
(`bracket_reading.py`) and the checks of settings and deciders (`services/checks.py`) take their
inputs from here too, so the rules of pairing, scoring and tie-breaks live in one place.

Fields: Swiss pairs the players active before each round (a late entry starts with zero points). Round
robin and elimination play a fixed field, the players registered when round 1 was generated; a player who
drops from a fixed field keeps their place in the schedule, and their tables are closed as forfeits. The
top cut of a stage sequence is taken from the standings after the first stage, among the players still in
when it is drawn: one who left during or after the first stage's last round gives their place to the next.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import asdict, fields
from typing import Any, TypedDict, TypeVar, cast

from games.core.spec import GameSpec
from league.core.catalogue import game_spec
from league.core.errors import ErrorCode, UserError
from league.pairing import (
    DEFAULT_TIEBREAKS,
    DrawTable,
    Entrant,
    Format,
    PairingError,
    PlayedRound,
    RoundDraft,
    RoundInputs,
    Scoring,
    StagePlan,
    TableResult,
    TableSpec,
    entrants_from_history,
    generate_round,
    place_points,
    round_quality,
    threshold_cut,
)
from league.pairing.repeats import keeps_apart as _keeps_apart
from league.pairing.round_robin import default_rounds
from league.pairing.scoring import TIEBREAKS
from league.tournaments.history import History, load_history
from league.tournaments.models import Registration, Tournament

__all__ = (
    "DEFAULT_TIEBREAKS",
    "Entrant",
    "PlayedRound",
    "entrants_before",
    "keeps_apart",
    "TIEBREAKS",
    "TableSpec",
    "bye_points",
    "draft_values",
    "entrants_of",
    "generate",
    "ids",
    "keyed",
    "planned_rounds",
    "quality_after_adjust",
    "requested_bye_points",
    "round_inputs",
    "scoring_of",
    "stage_plan",
    "table_points",
    "table_sizes_of",
    "swiss_field",
    "day2_field",
    "table_spec",
    "tiebreaks_of",
)

_V = TypeVar("_V")  # the values of a mapping by player (`keyed`)


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


def scoring_of(tournament: Tournament) -> Scoring:
    """The tournament's points per place; scaled to its preferred table size when `scale_points` is on."""
    return Scoring(
        {int(size): tuple(values) for size, values in (tournament.points or {}).items()},
        scale_to=tournament.table_size if tournament.scale_points else None,
    )


def tiebreaks_of(tournament: Tournament) -> tuple[str, ...]:
    return tuple(tournament.tiebreaks or DEFAULT_TIEBREAKS)


def keyed(by_player: Mapping[int, _V]) -> Mapping[Hashable, _V]:
    """`by_player` as the pairing takes it: keyed by player ids of any hashable kind (the seam's are ints)."""
    return cast(Mapping[Hashable, _V], by_player)  # a Mapping is invariant in its key, so a cast says it


def ids(players: Iterable[Hashable]) -> tuple[int, ...]:
    """Player ids the pairing gives back, as the seam's ints: it only ever gets ints (`Entrant.id`, seats)
    from the seam, so the ids it returns are ints."""
    return cast(tuple[int, ...], tuple(players))


_SEEDED: dict[tuple, list[Entrant]] = {}  # entrants before any round, by seeds and rules (`entrants_of`)
SEEDED_KEPT = 16


def entrants_of(history: History, players: set[int], *, last_round: int | None = None) -> list[Entrant]:
    tournament = history.tournament
    played = history.played(last=last_round)
    arguments = (keyed(history.seeds), played, scoring_of(tournament), tiebreaks_of(tournament))
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


def day2_field(history: History) -> list[int] | None:
    """A Swiss's Day 2 field: the players still in (active) with at least `day2_points` after round
    `day2_after_round`, in the ranking order of the end of Day 1 (`pairing.threshold_cut`); None without a
    Day 2 or before Day 1's last round has results."""
    tournament = history.tournament
    after = tournament.day2_after_round
    if after is None or tournament.day2_points is None or after not in history.rounds:
        return None
    day1 = entrants_of(history, _active(history), last_round=after)
    return list(ids(entrant.id for entrant in threshold_cut(day1, tournament.day2_points)))


def swiss_field(history: History, number: int) -> set[int]:
    """Who may be paired in Swiss round `number`: the active players; on Day 2 only those who qualified."""
    players = _active(history)
    after = history.tournament.day2_after_round
    if after is not None and number > after:
        players &= set(day2_field(history) or ())
    return players


def stage_plan(tournament: Tournament) -> StagePlan:
    try:
        return StagePlan(
            first=tournament.first_stage,
            first_rounds=tournament.rounds or 0,
            cut=tournament.cut_size or 0,
            elimination=tournament.cut_format,
        )
    except PairingError as exc:
        raise UserError(str(exc), field="format") from None


class _CommonInputs(TypedDict):
    """The fields of `RoundInputs` that every format sets (`round_inputs`)."""

    round_number: int
    table: TableSpec
    advance: int
    third_place: bool
    grand_final_reset: bool


def round_inputs(history: History, number: int, resting: frozenset[int] = frozenset()) -> RoundInputs:
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
        return RoundInputs(entrants=entrants_of(history, swiss_field(history, number) - resting), **common)
    if fmt == Tournament.Format.ROUND_ROBIN:
        return RoundInputs(
            entrants=entrants_of(history, _fixed_field(history)), rounds=tournament.rounds, **common
        )
    if fmt in (Tournament.Format.SINGLE_ELIMINATION, Tournament.Format.DOUBLE_ELIMINATION):
        # Elimination rebuilds its earlier rounds from the entrants as they stood before round 1.
        results = [result for played in history.played() for result in played.tables]
        return RoundInputs(
            entrants=entrants_of(history, _fixed_field(history), last_round=0), results=results, **common
        )
    plan = stage_plan(tournament)
    if number <= plan.first_rounds:
        players = _active(history) - resting if plan.first == "swiss" else _fixed_field(history)
        return RoundInputs(
            entrants=entrants_of(history, players), rounds=plan.first_rounds, stage=plan, **common
        )
    entrants = entrants_of(history, _cut_field(history, plan.first_rounds), last_round=plan.first_rounds)
    results = [result for played in history.played(first=plan.first_rounds + 1) for result in played.tables]
    return RoundInputs(entrants=entrants, results=results, stage=plan, **common)


def generate(history: History, number: int, resting: frozenset[int] = frozenset()) -> RoundDraft:
    """Round `number` of the tournament from its history, without the `resting` players (Swiss rounds only);
    a PairingError becomes a UserError (400)."""
    try:
        return generate_round(Format(history.tournament.format), round_inputs(history, number, resting))
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


def entrants_before(history: History, number: int) -> dict[int, Entrant]:
    """Every player who took part, as the pairing saw them before round `number` (by id)."""
    tournament = history.tournament
    everyone = entrants_from_history(
        keyed(history.seeds),
        history.played(last=number - 1),
        scoring_of(tournament),
        tiebreaks_of(tournament),
        bye_table_size=tournament.table_size,
    )
    return {cast(int, entrant.id): entrant for entrant in everyone}  # the seam's ids are ints


def keeps_apart(tables: list[list[int]], entrants: dict[int, Entrant], pair: tuple[int, int]) -> bool:
    """Whether the pairing's optimiser keeps `pair` apart with fewer repeats (`pairing.repeats`)."""
    return _keeps_apart(tables, keyed(entrants), pair)


def quality_after_adjust(history: History, number: int, tables: list[list[int]], byes: list[int]) -> dict:
    """The quality report of an adjusted draft, measured against the history before round `number`."""
    by_id = dict(keyed(entrants_before(history, number)))
    report = quality_dict(round_quality([DrawTable(seats=tuple(seats)) for seats in tables], byes, by_id))
    report["adjusted"] = True
    return report


def planned_rounds(tournament: Tournament, history: History | None = None) -> int | None:
    """How many rounds a Swiss or round-robin tournament (or a stage sequence's first stage) plays;
    None for elimination, whose length the bracket decides. A round robin without a set number of rounds
    counts its field: from `history` when given, else from its registrations."""
    if tournament.format == Tournament.Format.SWISS:
        return tournament.rounds
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        if tournament.rounds:
            return tournament.rounds
        if history is None:
            history = load_history(tournament, names=False, played=False)
        field = _fixed_field(history) or _active(history)
        return default_rounds(len(field), table_spec(tournament)) if len(field) >= 2 else None
    return None


def table_points(tournament: Tournament, seats: Sequence[int], places: Mapping[int, int]) -> dict[int, float]:
    """The tournament points each player earns at one table (shared places share points)."""
    try:
        points = place_points(TableResult(seats=tuple(seats), places=keyed(places)), scoring_of(tournament))
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
