"""Where a tournament's standings come from: its history (`history.py`) ranked by the pure scoring and
tie-breaks (`league.pairing.scoring`) and, once an elimination (or a stage sequence's top cut) has a
published round, by its placement (`league.pairing.placement`). Pages read them through the standings
snapshot (`snapshots.py`), which stores what this computes."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, cast

from league.core.errors import UserError
from league.pairing import (
    MISSED_CUT,
    Entrant,
    PairingError,
    PlacementGroup,
    Standing,
    TableResult,
    bracket_placement,
    compute_standings,
    cut_placement,
    double_elimination_bracket,
    placed_standings,
    pod_placement,
    single_elimination_bracket,
    top_cut,
)
from league.tournaments import floor_selectors, seam
from league.tournaments.history import History
from league.tournaments.models import Tournament


@dataclass(frozen=True, kw_only=True)
class StandingRow(Standing):
    """A line of the standings as pages and the API show it: the pairing's `Standing` with the player's
    name, page (`slug`) and registration status."""

    name: str
    slug: str
    status: str

    @property
    def player_id(self) -> int:
        return cast(int, self.id)  # the seam's player ids are ints

    @classmethod
    def of(cls, standing: Standing, *, name: str, slug: str, status: str) -> StandingRow:
        # A page of standings builds hundreds of rows: the standing's fields are copied as its __dict__ (a
        # frozen dataclass's __init__ sets each of the 20 fields through object.__setattr__, four times the
        # cost; neither class has a __post_init__ nor slots).
        row = object.__new__(cls)
        values = row.__dict__
        values.update(standing.__dict__)
        values["name"], values["slug"], values["status"] = name, slug, status
        return row


def standings_of(history: History, *, last_round: int | None = None) -> list[Standing]:
    """Standings of every player who took part, ordered by the tournament's tie-breaks, then seed, with the
    points of points penalties taken off (`floor_selectors.penalty_points`: the standings only, never
    ratings; `Standing.penalty` says how many); once an
    elimination (or a stage sequence's top cut) has a published round, ordered by its placement (the
    bracket), each line naming the rule of its group (`league.pairing.placement`)."""
    tournament = history.tournament
    seeds = history.seeds
    if not seeds:
        return []
    try:
        ordered = compute_standings(
            seam.keyed(seeds),
            history.played(last=last_round),
            seam.scoring_of(tournament),
            seam.tiebreaks_of(tournament),
            bye_table_size=tournament.table_size,
            penalties=floor_selectors.penalty_points(tournament.pk, last_round=last_round),
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
        plan = seam.stage_plan(tournament)
        first_round, elimination = plan.first_rounds + 1, plan.elimination
    elif tournament.is_elimination:
        first_round, elimination = 1, tournament.format
    else:
        return None
    if not any(row.number >= first_round for row in history.round_rows):
        return None
    entrants = list(seam.round_inputs(history, first_round).entrants)
    if tournament.format == Tournament.Format.STAGES:
        entrants = top_cut(entrants, plan.cut)
    return EliminationPart(elimination, first_round, entrants, bracket_results(history, first_round))


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
    first = {row.id: row for row in standings_of(history, last_round=tournament.rounds or 0)}
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
        groups = bracket_placement(
            drawn_bracket(tournament, part), part.entrants, part.results, part.first_round
        )
    else:
        groups = pod_placement(part.entrants, tournament.advance, part.results, part.first_round)
    if tournament.format == Tournament.Format.STAGES:
        first_stage = standings_of(history, last_round=part.first_round - 1)
        name = "Swiss" if tournament.first_stage == "swiss" else "round-robin"
        groups = cut_placement(groups, first_stage, name)
    return groups


def drawn_bracket(tournament: Tournament, part: EliminationPart) -> Any:
    if part.elimination == Tournament.Format.DOUBLE_ELIMINATION:
        return double_elimination_bracket(len(part.entrants), tournament.grand_final_reset)
    return single_elimination_bracket(len(part.entrants), tournament.third_place)


def bracket_results(history: History, first: int) -> list[TableResult]:
    """The labelled results of the elimination from round `first`, with its void matches (both absent)."""
    played = [result for played in history.played(first=first) for result in played.tables]
    voided = [
        result for number, results in sorted(history.voided.items()) if number >= first for result in results
    ]
    return played + voided
