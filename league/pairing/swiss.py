"""Swiss rounds: 2-seat pairings and multi-seat pods, one algorithm for both.

Rules (documented in docs/tournaments.md):
- Players are ranked by score, then standings position, then seed.
- Table sizes follow `table_sizes`; Swiss byes exist only when no arrangement seats everyone (an odd field
  at 2-seat tables). Each bye goes to the lowest-ranked player among those with the fewest byes so far, so
  nobody gets a second bye while someone has none; a bye scores as a win (see `scoring.bye_points`).
- The reference arrangement is the Dutch fold by score group (`tables.fold_by_score`): within a score
  group the i-th of the top half meets the i-th of the bottom half (pods: table j gets the j-th, (j+t)-th,
  ... player of the group), the lowest-ranked players of a group that does not fill whole tables float down,
  and short tables are filled last, from the bottom score group.
- The optimiser (`search`) then minimises, in priority order: repeat meetings, scores at short tables,
  score differences at a table, seat balance, distance from the reference. Seats at each table are then
  assigned (`tables.assign_seats`).
"""

from __future__ import annotations

from collections.abc import Sequence

from league.pairing.quality import round_quality
from league.pairing.search import LOCAL_SEARCH_WORK, CostModel, Problem, optimise
from league.pairing.tables import assign_seats, check_entrants, fold_by_score, ranked, table_sizes
from league.pairing.types import DrawTable, Entrant, PlayerId, RoundDraft, TableSpec


def choose_byes(order: Sequence[Entrant], count: int) -> list[Entrant]:
    """The `count` lowest-ranked players among those with the fewest byes (`order` is the ranking)."""
    position = {entrant.id: index for index, entrant in enumerate(order)}
    candidates = sorted(order, key=lambda entrant: (entrant.byes, -position[entrant.id]))
    return sorted(candidates[:count], key=lambda entrant: position[entrant.id])


def cost_model(
    seated: Sequence[Entrant], sizes: Sequence[int], reference: list[list[int]], balance: bool = False
) -> CostModel:
    """The cost of arranging `seated` (ranking order) at tables of `sizes`, measured against `reference`.

    `balance` uses the balanced-tables seed term (elimination) instead of the distance from `reference`.
    """
    index = {entrant.id: position for position, entrant in enumerate(seated)}
    meetings: list[dict[int, int]] = []
    for entrant in seated:
        met: dict[int, int] = {}
        for opponent in entrant.opponents:
            if opponent in index:
                met[index[opponent]] = met.get(index[opponent], 0) + 1
        meetings.append(met)
    reference_table = [0] * len(seated)
    for table_index, members in enumerate(reference):
        for member in members:
            reference_table[member] = table_index
    two_seats = all(size == 2 for size in sizes)
    seat_counts = (
        [(entrant.seat_count(0), entrant.seat_count(1)) for entrant in seated] if two_seats else None
    )
    largest = max(sizes, default=0)
    seat_usage = (
        None
        if two_seats
        else [tuple(entrant.seat_count(seat) for seat in range(largest)) for entrant in seated]
    )
    return CostModel(
        Problem(
            meetings=meetings,
            scores=[entrant.score for entrant in seated],
            seat_counts=seat_counts,
            reference=reference_table,
            balance=balance,
            seat_usage=seat_usage,
        ),
        sizes,
    )


def arrange(
    seated: Sequence[Entrant],
    sizes: Sequence[int],
    reference: list[list[int]],
    work_limit: int,
    balance: bool = False,
) -> tuple[list[list[int]], tuple[float, ...]]:
    """Optimise an arrangement of `seated` (ranking order) starting from `reference`; tables and cost terms.

    `balance` uses the balanced-tables seed term (elimination) instead of the distance from `reference`.
    """
    model = cost_model(seated, sizes, reference, balance)
    tables = optimise(model, reference, sizes, work_limit)
    total = sum(model.table(members) for members in tables)
    return tables, model.unpack(total)


def seat_tables(
    tables: Sequence[Sequence[int]], seated: Sequence[Entrant], entrants: dict[PlayerId, Entrant]
) -> tuple[DrawTable, ...]:
    """Turn index tables into `DrawTable`s with balanced seats."""
    rank_of = {entrant.id: position for position, entrant in enumerate(seated)}
    return tuple(
        DrawTable(seats=assign_seats([seated[member].id for member in members], entrants, rank_of))
        for members in tables
    )


def swiss_round(
    entrants: Sequence[Entrant], spec: TableSpec, work_limit: int = LOCAL_SEARCH_WORK
) -> RoundDraft:
    """Generate the next Swiss round (2-seat pairings when `spec` is 2 seats, pods otherwise)."""
    check_entrants(entrants)
    order = ranked(entrants)
    sizes, bye_count = table_sizes(len(order), spec)
    byes = choose_byes(order, bye_count)
    bye_ids = {entrant.id for entrant in byes}
    seated = [entrant for entrant in order if entrant.id not in bye_ids]
    reference = fold_by_score([entrant.score for entrant in seated], sizes)
    tables, cost = arrange(seated, sizes, reference, work_limit)
    by_id = {entrant.id: entrant for entrant in entrants}
    seated_tables = seat_tables(tables, seated, by_id)
    bye_list = tuple(entrant.id for entrant in byes)
    return RoundDraft(
        tables=seated_tables,
        byes=bye_list,
        quality=round_quality(seated_tables, bye_list, by_id, cost),
    )
