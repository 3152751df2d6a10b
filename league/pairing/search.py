"""The arrangement optimiser shared by Swiss, pods, round-robin pods and elimination pods.

An arrangement puts players 0..n-1 (ranking order) at tables of fixed sizes. Its cost has five terms,
compared in this priority order; all but the second are sums over every pair of players seated together:

1. repeat: m*m, where m is how many tables the pair has already shared (0 for a fresh pair);
2. short: when tables differ in size, the sum of the scores (above the lowest score) of the players at the
   smaller tables, so short tables go to the lowest scores unless that would force a repeat;
3. score: the squared difference of their scores, divided by the table's size. Summed over a table this
   is the sum of squared deviations of its players' scores from the table's mean, so a player far from
   everyone else costs the same at a short or a full table;
4. seat: over the best seating of the table, the total of each player's extra uses: how many more times
   they have sat in the seat given to them than in their least-used seat of that table (for 2-seat tables
   a term of the pair, for larger tables a term of the whole table);
5. seed, one of two kinds:
   - "reference" (Swiss, round robin): how far apart the two were in the reference arrangement (|table
     index - table index|), so that among otherwise equal arrangements the one closest to the reference
     (the Dutch fold, or the round robin's rotating grid) wins;
   - "balance" (elimination): the product of the two players' centred positions in the seeding order
     (position minus the middle one), plus a constant. Summed over a table's pairs this is, up to a
     constant, the square of the table's summed centred positions, so minimising it makes tables equally
     strong, as snake seeding does; among equally balanced arrangements, the distance from the reference
     (the snake) decides.

The terms are packed into one exact integer with weights larger than the largest possible sum of the lower
terms, so comparing integers compares the terms lexicographically.

The search starts from the reference arrangement and swaps players between tables while the cost drops
(first improvement, nearest tables first: `local_search`). Then swaps and 3-way moves (a player of each of
three tables moves on to the next of them) until none lowers the cost, over every pair and triple of tables
on fields of at most `FULL_SEARCH_PLAYERS` (`polish`); fields of at most `RESTART_PLAYERS` restart from the
best arrangement shaken by a few swaps of a fixed-seed pseudo-random sequence (`restart`). Small fields are
then solved exactly by branch and bound, and among arrangements of equal cost the first in ranking order
wins (the one whose first table, listed in ranking order, comes first, and so on). Every search counts its
steps and stops after a fixed number, never after a time, so the same input always gives the same
arrangement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import lcm
from random import Random
from typing import cast

LOCAL_SEARCH_WORK = 400_000
EXACT_SEARCH_WORK = 300_000
EXACT_SEARCH_PLAYERS = 14
NEIGHBOUR_SEATS = 60
NEAR_TABLES = 3
POLISH_WORK = 400_000
FULL_SEARCH_PLAYERS = 64
RESTART_PLAYERS = 32
RESTARTS = 12
SHAKE_SWAPS = 3
SHAKE_SEED = 47
RESTART_WORK = 1_000_000


@dataclass(frozen=True)
class Problem:
    """The pairwise facts the cost needs, for players 0..n-1 in ranking order.

    `meetings[p]` maps another player index to the number of tables shared; `scores` are tournament points;
    `seat_counts[p]` is (times in seat 0, times in seat 1), used only for 2-seat tables; `seat_usage[p]`
    counts p's uses of each seat of the largest table, used for larger tables; `reference[p]` is
    the player's table in the reference arrangement. `balance` selects the balance kind of seed term.
    """

    meetings: Sequence[dict[int, int]]
    scores: Sequence[float]
    seat_counts: Sequence[tuple[int, int]] | None
    reference: Sequence[int]
    balance: bool = False
    seat_usage: Sequence[tuple[int, ...]] | None = None


class CostModel:
    """Packs the five cost terms into one integer (see the module docstring)."""

    def __init__(self, problem: Problem, sizes: Sequence[int]):
        self.problem = problem
        self.largest = max(sizes, default=0)
        self.common = common = lcm(1, *sizes)
        # the score term of a pair is multiplied by common / size to keep it an integer
        self.size_factor = {size: common // size for size in set(sizes)}
        denominators = [Fraction(score).limit_denominator(10_000).denominator for score in problem.scores]
        self.scale = lcm(1, *denominators)
        self.units = [round(score * self.scale) for score in problem.scores]
        lowest = min(self.units, default=0)
        self.above_lowest = [units - lowest for units in self.units]
        pair_count = sum(size * (size - 1) // 2 for size in sizes)
        count = len(problem.scores)
        self.centred = [2 * position - (count - 1) for position in range(count)]
        self.offset = (count - 1) ** 2
        self.reference_bound = pair_count * (max(problem.reference, default=0) + 1) + 1
        widest = (
            (2 * self.offset + 1) * self.reference_bound
            if problem.balance
            else max(problem.reference, default=0)
        )
        seed_bound = pair_count * (widest + 1) + 1
        rounds = max((sum(counts) for counts in problem.seat_counts or ()), default=0)
        if problem.seat_usage is not None:
            rounds = max((sum(usage) for usage in problem.seat_usage), default=0)
        seat_bound = max(pair_count, count) * 2 * (rounds + 1) + 1
        self.within: dict[tuple[int, ...], list[int]] = {}  # `within` by table members, in their order
        # extra_uses[p][k][seat]: how many more times p sat in seat than in their least-used seat of k seats
        distinct = sorted(set(sizes))  # once, not once per player (thousands of tables)
        self.extra_uses = [
            {size: _extra(usage[:size]) for size in distinct} for usage in problem.seat_usage or ()
        ]
        spread = (max(self.units, default=0) - min(self.units, default=0)) ** 2
        score_bound = pair_count * spread * common + 1
        short_bound = len(self.units) * (max(self.above_lowest, default=0)) + 1
        self.seat_weight = seed_bound
        self.score_weight = seat_bound * seed_bound
        self.short_weight = score_bound * self.score_weight
        self.repeat_weight = short_bound * self.short_weight

    def short(self, player: int) -> int:
        """The packed short-table cost of seating `player` at a table smaller than the largest."""
        return self.above_lowest[player] * self.short_weight

    def pair(self, first: int, second: int, size: int) -> int:
        """The packed cost of seating `first` and `second` at the same table of `size` seats."""
        problem = self.problem
        met = problem.meetings[first].get(second, 0)
        difference = self.units[first] - self.units[second]
        cost = (
            met * met * self.repeat_weight
            + difference * difference * self.size_factor[size] * self.score_weight
        )
        if problem.seat_counts is not None:
            cost += self.seat_excess(first, second) * self.seat_weight
        distance = abs(problem.reference[first] - problem.reference[second])
        if problem.balance:
            return (
                cost
                + (self.centred[first] * self.centred[second] + self.offset) * self.reference_bound
                + distance
            )
        return cost + distance

    def seat_excess(self, first: int, second: int) -> int:
        """Over both ways to seat a 2-seat table, the fewest uses beyond each player's less-used seat."""
        seat_counts = cast("Sequence[tuple[int, int]]", self.problem.seat_counts)  # asked only when it is set
        zero_a, one_a = seat_counts[first]
        zero_b, one_b = seat_counts[second]
        least_a, least_b = min(zero_a, one_a), min(zero_b, one_b)
        first_starts = zero_a - least_a + one_b - least_b
        second_starts = one_a - least_a + zero_b - least_b
        return min(first_starts, second_starts)

    def seating_excess(self, members: Sequence[int]) -> int:
        """The packed seat term of a table of more than 2 seats: extra seat uses over its best seating
        (computed once per set of the members' seat-use rows: `_fewest_extra_uses_of`)."""
        if self.problem.seat_usage is None:
            return 0
        size = len(members)
        extra_uses = self.extra_uses
        return _fewest_extra_uses_of(tuple(sorted([extra_uses[member][size] for member in members]))) * (
            self.seat_weight
        )

    def within_costs(self, members: Sequence[int]) -> list[int]:
        """For each member of a table, the summed pair cost with the others (kept per table: a table is
        tried against many neighbours before it changes)."""
        key = tuple(members)
        known = self.within.get(key)
        if known is None:
            size, pair = len(key), self.pair
            known = [sum(pair(first, second, size) for second in key if second != first) for first in key]
            self.within[key] = known
        return known

    def table(self, members: Sequence[int]) -> int:
        """The packed cost of one table."""
        size = len(members)
        cost = sum(self.pair(first, second, size) for first, second in combinations(members, 2))
        if len(members) < self.largest:
            cost += sum(self.short(member) for member in members)
        return cost + self.seating_excess(members)

    def unpack(self, cost: int) -> tuple[float, float, float, int, int]:
        """The five terms (repeat, short in points, score in points squared, seat, seed) of a packed cost."""
        repeat, rest = divmod(cost, self.repeat_weight)
        short, rest = divmod(rest, self.short_weight)
        score, rest = divmod(rest, self.score_weight)
        seat, seed = divmod(rest, self.seat_weight)
        return repeat, short / self.scale, score / (self.scale * self.scale * self.common), seat, seed


def _extra(usage: Sequence[int]) -> tuple[int, ...]:
    """Uses of each seat beyond the least-used one."""
    fewest = min(usage)
    return tuple(count - fewest for count in usage)


def _fewest_extra_uses(extra: Sequence[Sequence[int]]) -> int:
    """Assignment of players (rows) to seats (columns) with the smallest total. The answer does not depend
    on the order of the rows, and a field has few distinct rows (seat uses beyond the least-used seat are
    small numbers), so it is computed once per set of rows: a 10,000-player round asks it ~500,000 times."""
    return _fewest_extra_uses_of(tuple(sorted(map(tuple, extra))))


@lru_cache(maxsize=1 << 16)
def _fewest_extra_uses_of(extra: tuple[tuple[int, ...], ...]) -> int:
    """`_fewest_extra_uses` of sorted rows, by a DP over subsets."""
    size = len(extra)
    if all(row[seat] == 0 for seat, row in enumerate(extra)):
        return 0
    full = 1 << size
    best = [0] + [size * 1_000_000] * (full - 1)
    for mask in range(full - 1):
        current = best[mask]
        seat = mask.bit_count()
        for index in range(size):
            bit = 1 << index
            if not mask & bit:
                value = current + extra[index][seat]
                if value < best[mask | bit]:
                    best[mask | bit] = value
    return best[full - 1]


def local_search(model: CostModel, tables: list[list[int]], work_limit: int = LOCAL_SEARCH_WORK) -> int:
    """Improve `tables` in place by swapping two players of different tables; return the work spent.

    Tables are visited top to bottom. A table with any cost above the seed term tries its nearest tables
    first, as far as `NEIGHBOUR_SEATS` seats on each side (30 tables of 2, 15 of 4); a table with only a
    seed cost tries `NEAR_TABLES` on each side. The first swap that lowers the total cost is made, and
    both tables are visited again; a table where no swap helps is left alone until a swap changes it. The
    search ends when no table is left to visit or after `work_limit` evaluated swaps (player pairs).
    """
    costs = [model.table(members) for members in tables]
    wide = max(NEAR_TABLES, NEIGHBOUR_SEATS // max(model.largest, 1))
    visit = [True] * len(tables)
    work = 0
    while work < work_limit and any(visit):
        for here in range(len(tables)):
            if not visit[here]:
                continue
            visit[here] = False
            if costs[here] == 0:
                continue
            reach = wide if costs[here] >= model.seat_weight else NEAR_TABLES
            for distance in range(1, reach + 1):
                swapped_with = None
                for there in (here + distance, here - distance):
                    if not 0 <= there < len(tables):
                        continue
                    work += len(tables[here]) * len(tables[there])
                    if _try_swap(model, tables, costs, here, there):
                        swapped_with = there
                        break
                if swapped_with is not None:
                    visit[here] = visit[swapped_with] = True
                    break
                if work >= work_limit:
                    return work
    return work


def _try_swap(model: CostModel, tables: list[list[int]], costs: list[int], here: int, there: int) -> bool:
    """Make the first cost-lowering swap between two tables, if there is one."""
    pair = model.pair
    members_here, members_there = tables[here], tables[there]
    size_here, size_there = len(members_here), len(members_there)
    short_here = size_here < model.largest
    short_there = size_there < model.largest
    # across[i][j]: player i of here with player j of there, as if at a table of here's size (and of there's)
    across_here = [[pair(first, second, size_here) for second in members_there] for first in members_here]
    across_there = (
        across_here
        if size_here == size_there
        else [[pair(first, second, size_there) for second in members_there] for first in members_here]
    )
    within_here = model.within_costs(members_here)
    within_there = model.within_costs(members_there)
    column_here = [sum(row[index] for row in across_here) for index in range(size_there)]
    row_there = [sum(row) for row in across_there]
    seating = model.problem.seat_usage is not None
    if seating:
        seated_here = model.seating_excess(members_here)
        seated_there = model.seating_excess(members_there)
        extra, weight = model.extra_uses, model.seat_weight
        rows_here = [extra[member][size_here] for member in members_here]
        rows_there = [extra[member][size_there] for member in members_there]
        # each table's rows without one member, the member replaced by the one coming in
        without_here = [rows_here[:index] + rows_here[index + 1 :] for index in range(size_here)]
        without_there = [rows_there[:index] + rows_there[index + 1 :] for index in range(size_there)]
    for index_here, mover_here in enumerate(members_here):
        for index_there, mover_there in enumerate(members_there):
            out_here = within_here[index_here]
            out_there = within_there[index_there]
            in_here = column_here[index_there] - across_here[index_here][index_there]
            in_there = row_there[index_here] - across_there[index_here][index_there]
            if short_here:
                out_here += model.short(mover_here)
                in_here += model.short(mover_there)
            if short_there:
                out_there += model.short(mover_there)
                in_there += model.short(mover_here)
            change = in_here + in_there - out_here - out_there
            if seating and -model.score_weight // 2 < change < model.score_weight // 2:
                # the higher terms are even, so the seat term decides (the seed term cannot outweigh it)
                if change >= seated_here + seated_there:
                    continue  # the seat terms cannot fall below 0: this swap cannot lower the cost
                # `seating_excess` of each table after the swap, from the members' seat-use rows
                new_here = [*without_here[index_here], extra[mover_there][size_here]]
                new_there = [*without_there[index_there], extra[mover_here][size_there]]
                in_here += _fewest_extra_uses_of(tuple(sorted(new_here))) * weight - seated_here
                in_there += _fewest_extra_uses_of(tuple(sorted(new_there))) * weight - seated_there
                change = in_here + in_there - out_here - out_there
            if change < 0:
                members_here[index_here] = mover_there
                members_there[index_there] = mover_here
                costs[here] += in_here - out_here
                costs[there] += in_there - out_there
                return True
    return False


def exact_search(
    model: CostModel,
    sizes: Sequence[int],
    incumbent: int,
    work_limit: int = EXACT_SEARCH_WORK,
) -> list[list[int]] | None:
    """Branch and bound over every arrangement into tables of `sizes`; the best one of cost <= `incumbent`.

    Tables are built one at a time, each opened by the best-ranked player not yet seated and filled in
    ranking order, so the first arrangement found at the lowest cost is the first in ranking order.
    Returns None when nothing at most `incumbent` was found within `work_limit` steps.
    """
    count = sum(sizes)
    pair = model.pair
    seated = [False] * count
    remaining = sorted(sizes, reverse=True)
    best: list[list[int]] | None = None
    bound = incumbent
    work = 0
    current: list[list[int]] = []

    def open_table(cost: int) -> None:
        nonlocal best, bound
        if not remaining:
            if best is None or cost < bound:
                best = [list(members) for members in current]
                bound = cost
            return
        opener = seated.index(False)
        for size in sorted(set(remaining), reverse=True):
            remaining.remove(size)
            seated[opener] = True
            current.append([opener])
            fill(cost + (model.short(opener) if size < model.largest else 0), size, opener + 1)
            current.pop()
            seated[opener] = False
            remaining.append(size)
            remaining.sort(reverse=True)

    def fill(cost: int, size: int, start: int) -> None:
        nonlocal work
        members = current[-1]
        if len(members) == size:
            cost += model.seating_excess(members)
            if cost <= bound:
                open_table(cost)
            return
        for candidate in range(start, count):
            if work >= work_limit:
                return
            if seated[candidate]:
                continue
            work += 1
            added = cost + sum(pair(candidate, member, size) for member in members)
            if size < model.largest:
                added += model.short(candidate)
            if added > bound:
                continue
            seated[candidate] = True
            members.append(candidate)
            fill(added, size, candidate + 1)
            members.pop()
            seated[candidate] = False

    open_table(0)
    return best


class Polisher:
    """Swaps and 3-way moves on arrangements of one cost model (see `polish`); it keeps, by the two tables'
    members, what each table's cost becomes when one of its players is replaced by one of another table, so
    that restarts from a shaken arrangement price again only the tables the shake changed."""

    def __init__(self, model: CostModel, *, full: bool):
        self.model = model
        self.full = full
        # (members of x, members of y) -> (matrix, lowest): matrix[i][j] is the change of x's cost, seat
        # term aside, when x's i-th player leaves and y's j-th player takes the place
        self.changes: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[list[list[int]], int]] = {}
        self.pairs: dict[tuple[int, int, int], int] = {}  # (player, player, table size) -> `model.pair`
        self.work = 0

    def pair(self, first: int, second: int, size: int) -> int:
        key = (first, second, size)
        known = self.pairs.get(key)
        if known is None:
            known = self.pairs[key] = self.model.pair(first, second, size)
        return known

    def change(self, members_x: tuple[int, ...], members_y: tuple[int, ...]) -> tuple[list[list[int]], int]:
        known = self.changes.get((members_x, members_y))
        if known is not None:
            return known
        model = self.model
        size = len(members_x)
        pair = self.pair
        within = model.within_costs(members_x)
        short = size < model.largest
        into = [[pair(incoming, member, size) for member in members_x] for incoming in members_y]
        totals = [sum(row) for row in into]
        matrix = []
        for index, leaving in enumerate(members_x):
            row = []
            for column, incoming in enumerate(members_y):
                value = totals[column] - into[column][index] - within[index]
                if short:
                    value += model.short(incoming) - model.short(leaving)
                row.append(value)
            matrix.append(row)
        known = (matrix, min(min(row) for row in matrix))
        self.work += size * len(members_y)
        self.changes[(members_x, members_y)] = known
        return known

    def polish(self, tables: list[list[int]], work_limit: int, dirty: Sequence[int] | None = None) -> None:
        """Improve `tables` in place until no swap or 3-way move lowers the cost, or `work_limit` steps
        (counted from this polisher's start) are spent. Only moves involving a table of `dirty` (default:
        every table) or a table changed since are tried: the others were tried before and found wanting."""
        model = self.model
        count = len(tables)
        reach = count if self.full else NEAR_TABLES
        keys = [tuple(members) for members in tables]
        costs = [model.table(members) for members in tables]
        seated = [model.seating_excess(members) for members in tables]
        seating = model.problem.seat_usage is not None
        half = model.score_weight // 2
        # a move is tried when its change without the seat term is below `slack`: the seat terms of its
        # tables can fall at most to 0; on large fields only moves that lower a higher term are made
        # known[(x, y)]: the versions of tables x and y (moves made at each) and their `self.change`
        version = [0] * count
        known: dict[tuple[int, int], tuple[int, int, tuple[list[list[int]], int]]] = {}

        def change(x: int, y: int) -> tuple[list[list[int]], int]:
            entry = known.get((x, y))
            if entry is None or entry[0] != version[x] or entry[1] != version[y]:
                entry = known[(x, y)] = (version[x], version[y], self.change(keys[x], keys[y]))
            return entry[2]

        waiting = [False] * count
        for index in range(count) if dirty is None else dirty:
            if self.full or costs[index] >= model.score_weight:
                waiting[index] = True

        def seat_change(x: int, index: int, incoming: int) -> int:
            members = keys[x]
            size = len(members)
            extra = model.extra_uses
            rows = [extra[member][size] for position, member in enumerate(members) if position != index]
            rows.append(extra[incoming][size])
            return _fewest_extra_uses_of(tuple(sorted(rows))) * model.seat_weight - seated[x]

        def settle(moves: Sequence[tuple[int, int, int]], base: int) -> bool:
            """Make the moves ((table, position, incoming player) each) if they lower the cost; `base` is
            their change without the seat term."""
            if seating and -half < base < half:
                base += sum(seat_change(table, index, incoming) for table, index, incoming in moves)
            if base >= 0:
                return False
            for table, index, incoming in moves:
                tables[table][index] = incoming
            for table, _index, _incoming in moves:
                keys[table] = tuple(tables[table])
                version[table] += 1
                costs[table] = model.table(tables[table])
                seated[table] = model.seating_excess(tables[table])
                waiting[table] = True
            return True

        def try_swap(x: int, y: int) -> bool:
            matrix_x, lowest_x = change(x, y)
            matrix_y, lowest_y = change(y, x)
            self.work += 1
            slack = seated[x] + seated[y] if self.full else 1 - half
            if lowest_x + lowest_y - slack >= 0:
                return False
            for i, player_x in enumerate(keys[x]):
                for j, player_y in enumerate(keys[y]):
                    base = matrix_x[i][j] + matrix_y[j][i]
                    self.work += 1
                    if base - slack < 0 and settle(((x, i, player_y), (y, j, player_x)), base):
                        return True
            return False

        def try_cycle(a: int, b: int, c: int) -> bool:
            """A's player to B, B's to C, C's to A."""
            into_a, lowest_a = change(a, c)
            into_b, lowest_b = change(b, a)
            into_c, lowest_c = change(c, b)
            self.work += 1
            slack = seated[a] + seated[b] + seated[c] if self.full else 1 - half
            if lowest_a + lowest_b + lowest_c - slack >= 0:
                return False
            for i, player_a in enumerate(keys[a]):
                for k, player_c in enumerate(keys[c]):
                    first = into_a[i][k]
                    if first + lowest_b + lowest_c - slack >= 0:
                        continue
                    for j, player_b in enumerate(keys[b]):
                        base = first + into_b[j][i] + into_c[k][j]
                        self.work += 1
                        if base - slack < 0 and settle(
                            ((a, i, player_c), (b, j, player_a), (c, k, player_b)), base
                        ):
                            return True
            return False

        def visit(x: int) -> bool:
            """Try every swap and 3-way move of table x; make the first that lowers the cost."""
            near = [y for y in range(max(0, x - reach), min(count, x + reach + 1)) if y != x]
            for y in near:
                if try_swap(x, y):
                    return True
            for position, y in enumerate(near):
                for z in near[position + 1 :]:
                    if self.work >= work_limit:
                        return False
                    if try_cycle(x, y, z) or try_cycle(x, z, y):
                        return True
            return False

        while self.work < work_limit:
            x = next((index for index in range(count) if waiting[index]), None)
            if x is None:
                return
            if not visit(x) and self.work < work_limit:
                waiting[x] = False


def polish(
    model: CostModel, tables: list[list[int]], work_limit: int = POLISH_WORK, *, full: bool = False
) -> int:
    """Improve `tables` in place by swaps and 3-way moves until neither lowers the cost; return the work.

    A swap exchanges two players of two tables; a 3-way move takes one player from each of three tables
    and moves each to the next table of the three (A's to B, B's to C, C's to A, or the other way round).
    With `full` every pair and every triple of tables is tried; otherwise only tables at most `NEAR_TABLES`
    apart, around a table with a repeat, short or score cost, and only moves that lower one of these
    three terms are made. Tables are visited top first; a table where
    no move helps is left until a move changes it. Stops after `work_limit` steps (one per player pair
    priced, per bound checked and per move evaluated).
    """
    polisher = Polisher(model, full=full)
    polisher.polish(tables, work_limit)
    return polisher.work


def restart(model: CostModel, tables: list[list[int]], work_limit: int = RESTART_WORK) -> list[list[int]]:
    """Iterated search from `tables`: polish them (every pair and triple of tables), then `RESTARTS`
    times shake the best arrangement found by `SHAKE_SWAPS` swaps of players of random tables (a
    pseudo-random sequence of fixed seed) and polish it again; keep it when it costs less. Stops once
    `work_limit` steps are spent."""
    polisher = Polisher(model, full=True)
    best = [list(members) for members in tables]
    polisher.polish(best, work_limit)
    best_cost = sum(model.table(members) for members in best)
    if len(best) < 2:
        return best
    shaker = Random(SHAKE_SEED)
    for _attempt in range(RESTARTS):
        if polisher.work >= work_limit:
            break
        trial = [list(members) for members in best]
        shaken: set[int] = set()
        for _swap in range(SHAKE_SWAPS):
            here, there = shaker.sample(range(len(trial)), 2)
            i = shaker.randrange(len(trial[here]))
            j = shaker.randrange(len(trial[there]))
            trial[here][i], trial[there][j] = trial[there][j], trial[here][i]
            shaken.update((here, there))
        polisher.polish(trial, work_limit, sorted(shaken))
        cost = sum(model.table(members) for members in trial)
        if cost < best_cost:
            best, best_cost = trial, cost
    return best


def optimise(
    model: CostModel, reference: list[list[int]], sizes: Sequence[int], work_limit: int
) -> list[list[int]]:
    """Swaps from the reference arrangement, then swaps and 3-way moves (`polish`), then on fields of at
    most `FULL_SEARCH_PLAYERS` restarts (`restart`), then the exact search on small fields.

    Returns the tables ordered full tables first, each group by its best-ranked player (top table first),
    with each table's players in ranking order.
    """
    tables = [list(members) for members in reference]
    local_search(model, tables, work_limit)
    if sum(sizes) <= RESTART_PLAYERS:
        tables = restart(model, tables, min(work_limit, RESTART_WORK))
    else:
        polish(model, tables, min(work_limit, POLISH_WORK), full=sum(sizes) <= FULL_SEARCH_PLAYERS)
    if sum(sizes) <= EXACT_SEARCH_PLAYERS:
        incumbent = sum(model.table(members) for members in tables)
        exact = exact_search(model, sizes, incumbent, min(work_limit, EXACT_SEARCH_WORK))
        if exact is not None:
            tables = exact
    return sorted((sorted(members) for members in tables), key=lambda members: (-len(members), members[0]))
