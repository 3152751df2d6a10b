"""Whether a repeat meeting of a round could have been avoided, asked of the pairing's own optimiser.

A draft seats two players who met before. Could another arrangement of the same players at the same table
sizes keep them apart without repeating more elsewhere? `keeps_apart` asks the optimiser (`search`, with the
Swiss cost of `swiss.cost_model`) for the best arrangement once the pair counts as having met so often that
any arrangement keeping them apart beats any that seats them together; the answer is yes when the
arrangement found keeps them apart and its true repeat cost (the sum over the pairs seated together of
m*m, m their earlier meetings: the optimiser's first term) is below the draft's. On small fields the
optimiser ends with its exact search, so a "no" there is proven; on larger ones it is as good as the search
that drew the round (the same work limit rule: a fixed amount of work, so the answer reproduces).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import combinations
from math import isqrt

from league.pairing.swiss import arrange
from league.pairing.tables import fold_by_score, ranked
from league.pairing.types import Entrant, PlayerId

KEEP_APART_WORK = 100_000


def repeat_cost(tables: Sequence[Sequence[PlayerId]], entrants: Mapping[PlayerId, Entrant]) -> int:
    """The optimiser's repeat term of an arrangement: over every pair seated together, m*m where m is how
    many tables they shared before."""
    return sum(
        entrants[first].meetings_with(second) ** 2
        for table in tables
        for first, second in combinations(table, 2)
    )


def keeps_apart(
    tables: Sequence[Sequence[PlayerId]],
    entrants: Mapping[PlayerId, Entrant],
    pair: tuple[PlayerId, PlayerId],
    work_limit: int = KEEP_APART_WORK,
) -> bool:
    """Whether the optimiser finds an arrangement of the players of `tables` at tables of the same sizes
    that seats `pair` apart with a lower repeat cost than `tables` (see the module docstring)."""
    first, second = pair
    drawn = repeat_cost(tables, entrants)
    players = [player for table in tables for player in table]
    everything = sum(
        entrants[a].meetings_with(b) ** 2 for a, b in combinations(players, 2)
    )  # the most any arrangement can repeat
    heavy = isqrt(everything) + 2  # heavy**2 > everything: apart beats together, whatever else repeats
    extra_first = (second,) * (heavy - entrants[first].meetings_with(second))
    extra_second = (first,) * (heavy - entrants[second].meetings_with(first))
    weighted = dict(entrants)
    weighted[first] = replace(entrants[first], opponents=entrants[first].opponents + extra_first)
    weighted[second] = replace(entrants[second], opponents=entrants[second].opponents + extra_second)
    seated = ranked([weighted[player] for player in players])
    sizes = sorted((len(table) for table in tables), reverse=True)
    reference = fold_by_score([entrant.score for entrant in seated], sizes)
    found, _ = arrange(seated, sizes, reference, work_limit)
    arranged = [[seated[member].id for member in members] for members in found]
    together = any(first in table and second in table for table in arranged)
    return not together and repeat_cost(arranged, entrants) < drawn


__all__ = ("KEEP_APART_WORK", "keeps_apart", "repeat_cost")
