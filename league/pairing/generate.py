"""The one seam: `generate_round(format, inputs)` picks the pairing algorithm for a tournament's format."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from league.pairing.brackets import double_elimination_bracket, single_elimination_bracket
from league.pairing.elimination import bracket_round, pod_elimination_round
from league.pairing.round_robin import round_robin_round
from league.pairing.search import LOCAL_SEARCH_WORK
from league.pairing.stages import StagePlan, top_cut
from league.pairing.swiss import swiss_round
from league.pairing.types import Entrant, PairingError, RoundDraft, TableResult, TableSpec


class Format(StrEnum):
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"
    SINGLE_ELIMINATION = "single_elimination"
    DOUBLE_ELIMINATION = "double_elimination"
    STAGES = "stages"


@dataclass(frozen=True)
class RoundInputs:
    """Everything a generator may need. Fields a format does not use are ignored.

    `entrants`: the active players with their history and current standing. `round_number`: the round to
    generate, from 1 (for stages, counted over the whole tournament). `results`: the labelled results of the
    elimination rounds so far. `rounds`: a round robin's length (default: one full cycle). `advance`: how many
    of each multi-seat elimination table go through. `third_place`, `grand_final_reset`: elimination options.
    `stage`: the plan of a stage sequence. `work_limit`: the optimiser's step budget.
    """

    entrants: Sequence[Entrant]
    round_number: int
    table: TableSpec = TableSpec()
    results: Sequence[TableResult] = ()
    rounds: int | None = None
    advance: int = 1
    third_place: bool = False
    grand_final_reset: bool = True
    stage: StagePlan | None = None
    work_limit: int = LOCAL_SEARCH_WORK


def generate_round(format: Format | str, inputs: RoundInputs) -> RoundDraft:
    """Generate round `inputs.round_number` of a tournament of `format`. Raises `PairingError` on bad
    input."""
    try:
        chosen = Format(format)
    except ValueError:
        raise PairingError(f"unknown format {format!r}; choose from {', '.join(Format)}") from None
    if inputs.round_number < 1:
        raise PairingError("rounds are numbered from 1")
    if chosen is Format.STAGES:
        return _stage_round(inputs)
    return _format_round(chosen, inputs.entrants, inputs.round_number, inputs)


def _format_round(
    chosen: Format, entrants: Sequence[Entrant], round_number: int, inputs: RoundInputs
) -> RoundDraft:
    spec = inputs.table
    if chosen is Format.SWISS:
        return swiss_round(entrants, spec, inputs.work_limit)
    if chosen is Format.ROUND_ROBIN:
        return round_robin_round(entrants, spec, round_number, inputs.rounds, inputs.work_limit)
    if chosen is Format.DOUBLE_ELIMINATION:
        if spec.preferred != 2:
            raise PairingError("double elimination is for 2-seat games")
        bracket = double_elimination_bracket(len(entrants), inputs.grand_final_reset)
        return bracket_round(bracket, entrants, inputs.results, round_number)
    if chosen is Format.SINGLE_ELIMINATION:
        if spec.preferred == 2:
            bracket = single_elimination_bracket(len(entrants), inputs.third_place)
            return bracket_round(bracket, entrants, inputs.results, round_number)
        return pod_elimination_round(
            entrants, spec, inputs.advance, inputs.results, round_number, inputs.work_limit
        )
    raise PairingError(f"{chosen.value} cannot be nested in a stage sequence")


def _stage_round(inputs: RoundInputs) -> RoundDraft:
    plan = inputs.stage
    if plan is None:
        raise PairingError("a stage sequence needs its plan (first stage, rounds, cut size)")
    if inputs.round_number <= plan.first_rounds:
        rounds = inputs.rounds if inputs.rounds is not None else plan.first_rounds
        return _format_round(
            Format(plan.first), inputs.entrants, inputs.round_number, replace(inputs, rounds=rounds)
        )
    cut = top_cut(inputs.entrants, plan.cut)
    return _format_round(Format(plan.elimination), cut, inputs.round_number - plan.first_rounds, inputs)
