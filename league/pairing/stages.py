"""Stage sequences: a Swiss or round-robin stage, then an elimination top cut of a chosen size."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from league.pairing.tables import check_entrants, ranked
from league.pairing.types import Entrant, PairingError

FIRST_STAGES = ("swiss", "round_robin")
CUT_STAGES = ("single_elimination", "double_elimination")


@dataclass(frozen=True)
class StagePlan:
    """`first_rounds` rounds of `first` ("swiss" or "round_robin"), then a `cut` of the top players playing
    `elimination` ("single_elimination" or "double_elimination")."""

    first: str
    first_rounds: int
    cut: int
    elimination: str = "single_elimination"

    def __post_init__(self) -> None:
        if self.first not in FIRST_STAGES:
            raise PairingError(f"the first stage is one of {', '.join(FIRST_STAGES)}, not {self.first!r}")
        if self.elimination not in CUT_STAGES:
            raise PairingError(f"the top cut is one of {', '.join(CUT_STAGES)}, not {self.elimination!r}")
        if self.first_rounds < 1:
            raise PairingError("the first stage needs at least one round")
        if self.cut < 2:
            raise PairingError("a top cut needs at least 2 players")


def top_cut(entrants: Sequence[Entrant], cut: int) -> list[Entrant]:
    """The top `cut` players of the first stage's final standings, re-seeded 1..cut in that order.

    `entrants` must carry the standings at the end of the first stage (score and standings position).
    Ties at the cut are broken by the tie-breaks (the standings position), then seed.
    """
    check_entrants(entrants)
    if cut > len(entrants):
        raise PairingError(f"a top cut of {cut} needs at least {cut} players, there are {len(entrants)}")
    return [
        replace(entrant, seed=position) for position, entrant in enumerate(ranked(entrants)[:cut], start=1)
    ]
