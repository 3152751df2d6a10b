"""Stage sequences: a Swiss or round-robin stage, then an elimination top cut of a chosen size."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from league.pairing.brackets import DOUBLE_ELIMINATION_PLAYERS
from league.pairing.tables import check_entrants, ranked
from league.pairing.types import Entrant, PairingError, TableSpec

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


POINTS_TOLERANCE = 1e-9  # scaled points are sums of fractions: 7.499999999 reaches a threshold of 7.5


def threshold_cut(entrants: Sequence[Entrant], points: float) -> list[Entrant]:
    """A Day 2 by points, not by a number of places: the players with at least `points` (the standings at
    the end of Day 1 that `entrants` carry), in ranking order, their seeds kept. Everyone on the threshold
    goes through, however many they are."""
    check_entrants(entrants)
    return [entrant for entrant in ranked(entrants) if entrant.score >= points - POINTS_TOLERANCE]


# The largest cut the settings take (a bound of the cut size's setting), and how many playable sizes a
# refusal suggests.
CUT_SIZE_LIMIT = 1024
SUGGESTED_CUTS = 5


def cut_problem(
    cut: int, table: TableSpec, advance: int, elimination: str = "single_elimination"
) -> str | None:
    """Why a top cut of `cut` players cannot be played, or None when it can (docs/tournaments.md, "The size
    of a top cut").

    At tables of 2 any cut of 2 or more is a bracket (byes fill it out; double elimination takes at most 256).
    At tables of `t` > 2 with `advance` going through from each table: `advance` is below `t`; while more than
    `t` players remain, they fill whole tables of `t` and the top `advance` of each go on; the players left
    (at most `t`) play the final table, which needs at least the table rule's minimum. A refusal of a size
    names the first few sizes that work.
    """
    problem = _cut_problem(cut, table, advance, elimination)
    if problem is None or cut < 2 or table.preferred == 2 or advance >= table.preferred:
        return problem
    cuts = playable_cuts(table, advance, elimination)[:SUGGESTED_CUTS]
    if not cuts:
        return problem
    more = " ..." if len(cuts) == SUGGESTED_CUTS else ""
    return f"{problem} (cuts that work: {', '.join(map(str, cuts))}{more})"


def _cut_problem(cut: int, table: TableSpec, advance: int, elimination: str) -> str | None:
    if cut < 2:
        return "a top cut needs at least 2 players"
    size = table.preferred
    if size == 2:
        if elimination == "double_elimination" and cut > DOUBLE_ELIMINATION_PLAYERS:
            return f"a double-elimination top cut takes at most {DOUBLE_ELIMINATION_PLAYERS} players"
        return None
    if advance >= size:
        return f"with tables of {size}, fewer than {size} players must advance from each table"
    remaining, round_number = cut, 1
    while remaining > size:
        if remaining % size:
            where = "is not" if round_number == 1 else f"has {remaining} players in its round {round_number},"
            return (
                f"a top cut of {cut} at tables of {size} with {advance} advancing {where} "
                f"a whole number of tables of {size}"
            )
        remaining = remaining // size * advance
        round_number += 1
    if remaining < table.minimum:
        return (
            f"a top cut of {cut} at tables of {size} with {advance} advancing leaves {remaining} for the "
            f"final table, fewer than its minimum of {table.minimum}"
        )
    return None


def playable_cuts(table: TableSpec, advance: int, elimination: str = "single_elimination") -> list[int]:
    """Every cut size up to the settings' limit that can be played, smallest first."""
    return [
        cut for cut in range(2, CUT_SIZE_LIMIT + 1) if _cut_problem(cut, table, advance, elimination) is None
    ]


def largest_cut(
    players: int, table: TableSpec, advance: int, elimination: str = "single_elimination"
) -> int | None:
    """The largest cut `players` can fill that can be played, or None when there is none."""
    return next(
        (
            cut
            for cut in range(min(players, CUT_SIZE_LIMIT), 1, -1)
            if _cut_problem(cut, table, advance, elimination) is None
        ),
        None,
    )
