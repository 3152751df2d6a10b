"""Table sizes, rankings, the reference arrangements (fold and snake) and seat assignment."""

from __future__ import annotations

from collections.abc import Sequence
from math import ceil

from league.pairing.types import Entrant, PairingError, PlayerId, TableSpec


def table_sizes(players: int, spec: TableSpec) -> tuple[list[int], int]:
    """Split `players` into table sizes (largest first) and a number of byes.

    The rule, in order: seat everyone at tables of `spec.preferred` with as few short tables as possible,
    sizes differing by at most one (13 at tables of 4: 4, 3, 3, 3), as long as no table falls below
    `spec.minimum`; failing that, use long tables up to `spec.maximum` (5 at tables of 4 with a maximum of 5:
    one table of 5); failing that, give the fewest byes that make one of the above possible.
    """
    if players < spec.minimum:
        raise PairingError(f"too few players ({players}) for a table: the minimum is {spec.minimum}")
    for byes in range(players - spec.minimum + 1):
        seated = players - byes
        count = ceil(seated / spec.preferred)
        base, extra = divmod(seated, count)
        if base >= spec.minimum:
            return [base + 1] * extra + [base] * (count - extra), byes
        count = seated // spec.preferred
        if count:
            base, extra = divmod(seated, count)
            if base + (1 if extra else 0) <= spec.maximum:
                return [base + 1] * extra + [base] * (count - extra), byes
    raise PairingError(f"{players} players cannot be seated at tables of {spec.minimum}-{spec.maximum}")


def ranked(entrants: Sequence[Entrant]) -> list[Entrant]:
    """Entrants in ranking order: score, then standings position, then seed."""
    return sorted(entrants, key=Entrant.rank_key)


def check_entrants(entrants: Sequence[Entrant]) -> None:
    """Raise `PairingError` unless ids and seeds are unique and seeds are positive."""
    ids = [entrant.id for entrant in entrants]
    if len(set(ids)) != len(ids):
        raise PairingError("every entrant needs a distinct id")
    seeds = [entrant.seed for entrant in entrants]
    if len(set(seeds)) != len(seeds):
        raise PairingError("every entrant needs a distinct seed")
    if any(seed < 1 for seed in seeds):
        raise PairingError("seeds start at 1")


def deal(positions: int, sizes: Sequence[int], *, snake: bool) -> list[list[int]]:
    """Deal positions 0..positions-1 into tables of `sizes`, one per table per pass, like cards.

    Each pass goes over the tables that still have room, left to right; with `snake` every other pass goes
    right to left. With equal sizes and no snake, table j gets j, j+t, j+2t, ... (t tables): the fold of
    the Dutch system, where the i-th of the top half meets the i-th of the bottom half.
    """
    if sum(sizes) != positions:
        raise PairingError(
            f"cannot deal {positions} players into tables of {', '.join(str(size) for size in sizes)}"
        )
    tables: list[list[int]] = [[] for _ in sizes]
    position = 0
    forward = True
    while position < positions:
        open_tables = [index for index, size in enumerate(sizes) if len(tables[index]) < size]
        if not forward:
            open_tables.reverse()
        for index in open_tables:
            if position == positions:
                break
            tables[index].append(position)
            position += 1
        if snake:
            forward = not forward
    return tables


def fold_by_score(scores: Sequence[float], sizes: Sequence[int]) -> list[list[int]]:
    """The reference Swiss arrangement of players 0..n-1 (in ranking order, scores not increasing).

    Score groups are taken from the top. A bracket is the players floated down from above plus the next
    score group; it fills as many of the next tables (largest first) as it can, dealt with `deal` (the
    Dutch fold), and its lowest-ranked players that do not fit float down to the next bracket. The last
    bracket fills the remaining tables, so the short tables (listed last) take the lowest score group.
    """
    tables: list[list[int]] = [[] for _ in sizes]
    next_table = 0
    carried: list[int] = []
    position = 0
    count = len(scores)
    while position < count:
        end = position
        while end < count and scores[end] == scores[position]:
            end += 1
        bracket = carried + list(range(position, end))
        position = end
        taken: list[int] = []
        filled = 0
        while next_table + len(taken) < len(sizes):
            size = sizes[next_table + len(taken)]
            if filled + size > len(bracket) and position < count:
                break
            taken.append(size)
            filled += size
        for offset, members in enumerate(deal(filled, taken, snake=False)):
            tables[next_table + offset] = [bracket[member] for member in members]
        next_table += len(taken)
        carried = bracket[filled:]
    return tables


def assign_seats(
    members: Sequence[PlayerId], entrants: dict[PlayerId, Entrant], rank_of: dict[PlayerId, int]
) -> tuple[PlayerId, ...]:
    """Order a table's players into seats (seat 0 starts), balancing who sits where.

    Exact over all orders (a table has at most 7 seats): minimise first the number of times the players
    have already sat in the seat given to them, beyond their least-used seat of this table; then how many
    sit in the same seat as in their previous round; remaining ties go to the better-ranked player taking
    the earlier seat.
    """
    size = len(members)
    players = sorted(members, key=lambda player: rank_of[player])
    usage = []
    for player in players:
        history = entrants[player].seat_history
        counts = [history.count(seat) for seat in range(size)]
        least = min(counts)
        last = history[-1] if history else -1
        usage.append([(counts[seat] - least, 1 if last == seat else 0) for seat in range(size)])
    best: dict[int, tuple[int, int, tuple[int, ...]]] = {(1 << size) - 1: (0, 0, ())}
    for mask in sorted(range(1 << size), key=lambda value: -bin(value).count("1")):
        if mask in best:
            continue
        seat = bin(mask).count("1")
        options = []
        for index in range(size):
            if mask & (1 << index):
                continue
            excess, repeat, rest = best[mask | (1 << index)]
            seat_excess, seat_repeat = usage[index][seat]
            options.append((excess + seat_excess, repeat + seat_repeat, (index, *rest)))
        best[mask] = min(options)
    return tuple(players[index] for index in best[0][2])
