"""Round robin: the circle method for 2-seat games, a spread-out schedule for multi-seat tables.

The schedule is fixed by the seeds alone, so round r is the same whichever results came in before it.

- 2 seats (Berger tables): seed 1 stays put and everyone else rotates one place per round; with an odd
  field a dummy joins and whoever meets it has the bye. Every pair meets exactly once in n - 1 rounds (n
  with the dummy). Seat 0 (who starts): seed 1 alternates, starting in round 1; in every other pair the
  player on the top row of the circle starts. Everyone starts in either floor((n-1)/2) or ceil((n-1)/2) games.
  More rounds than one cycle repeat the cycle with seats swapped (a double round robin).
- Multi-seat: each round starts from a rotating grid (players in seed order fill a grid of t columns; row
  i shifts by i*r columns in round r, so the classic social-golfer pattern) and the optimiser then swaps
  players to lower the repeat term, sum of m*m over pairs that already met m times, then the distance from
  the grid; last, swaps over the whole schedule even out how often pairs meet (sum of 4^m over all
  pairs, by a seeded simulated annealing of a fixed number of steps, see `_spread_schedule`), so the
  schedule depends on its length. Byes, when no arrangement seats everyone, go to the players with the
  fewest byes, highest seed number first. The report says how evenly opponents were spread (fewest and
  most meetings of any pair, and the pairs that have not met).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import combinations
from math import ceil

from league.pairing.quality import round_quality, schedule_balance
from league.pairing.search import LOCAL_SEARCH_WORK
from league.pairing.swiss import arrange
from league.pairing.tables import assign_seats, check_entrants, table_sizes
from league.pairing.types import DrawTable, Entrant, PairingError, PlayerId, RoundDraft, TableSpec


def circle_rounds(players: Sequence[PlayerId]) -> list[tuple[list[DrawTable], list[PlayerId]]]:
    """The full 2-seat round robin of `players` (seed order): per round, tables and the bye (if any)."""
    positions: list[PlayerId | None] = list(players)
    if len(positions) % 2:
        positions.append(None)
    count = len(positions)
    schedule = []
    for round_index in range(count - 1):
        tables: list[DrawTable] = []
        byes: list[PlayerId] = []
        for index in range(count // 2):
            first, second = positions[index], positions[count - 1 - index]
            if index == 0 and round_index % 2:
                first, second = second, first
            if first is None or second is None:
                byes.append(second if first is None else first)
            else:
                tables.append(DrawTable(seats=(first, second)))
        schedule.append((tables, byes))
        positions = [positions[0], positions[-1], *positions[1:-1]]
    return schedule


def default_rounds(players: int, spec: TableSpec) -> int:
    """Rounds for a full round robin: n - 1 (n if odd) at 2 seats, else ceil((n - 1) / (seats - 1))."""
    if spec.preferred == 2:
        return players - 1 + players % 2
    return ceil((players - 1) / (spec.preferred - 1))


def multi_seat_rounds(
    entrants: Sequence[Entrant], spec: TableSpec, rounds: int, work_limit: int = LOCAL_SEARCH_WORK
) -> list[tuple[tuple[DrawTable, ...], tuple[PlayerId, ...]]]:
    """The whole `rounds`-round schedule of a multi-seat round robin (tables and byes of each round).

    Built round by round (each from its rotating grid, optimised against the rounds before it), then
    polished over the whole schedule by `_spread_schedule`; seats are balanced last, round by round.
    """
    by_seed = sorted(entrants, key=lambda entrant: entrant.seed)
    opponents: dict[PlayerId, list[PlayerId]] = {entrant.id: [] for entrant in by_seed}
    byes_so_far = {entrant.id: 0 for entrant in by_seed}
    sizes, bye_count = table_sizes(len(by_seed), spec)
    groupings: list[list[list[PlayerId]]] = []
    round_byes: list[tuple[PlayerId, ...]] = []
    for round_index in range(rounds):
        bye_order = sorted(by_seed, key=lambda entrant: (byes_so_far[entrant.id], -entrant.seed))
        byes = {entrant.id for entrant in bye_order[:bye_count]}
        seated = [
            Entrant(id=entrant.id, seed=entrant.seed, opponents=tuple(opponents[entrant.id]))
            for entrant in by_seed
            if entrant.id not in byes
        ]
        reference = _rotated_grid(len(seated), sizes, round_index)
        tables, _cost = arrange(seated, sizes, reference, work_limit)
        grouping = [[seated[member].id for member in members] for members in tables]
        for members in grouping:
            for player in members:
                opponents[player].extend(other for other in members if other != player)
        for player in byes:
            byes_so_far[player] += 1
        groupings.append(grouping)
        round_byes.append(tuple(entrant.id for entrant in by_seed if entrant.id in byes))
    _spread_schedule(groupings)
    seats: dict[PlayerId, list[int]] = {entrant.id: [] for entrant in by_seed}
    rank_of = {entrant.id: position for position, entrant in enumerate(by_seed)}
    schedule: list[tuple[tuple[DrawTable, ...], tuple[PlayerId, ...]]] = []
    for grouping, sitting_out in zip(groupings, round_byes, strict=True):
        history = {player: Entrant(id=player, seed=1, seat_history=tuple(seats[player])) for player in seats}
        placed = tuple(DrawTable(seats=assign_seats(members, history, rank_of)) for members in grouping)
        for table in placed:
            for seat, player in enumerate(table.seats):
                seats[player].append(seat)
        schedule.append((placed, sitting_out))
    return schedule


SPREAD_STEPS = 20_000


def _spread_schedule(groupings: list[list[list[PlayerId]]], steps: int = SPREAD_STEPS) -> None:
    """Even out how often pairs meet by swapping two players of one round between tables.

    The cost is the sum over pairs of 4^m (m: times the pair meets over the schedule; pairs that never meet
    count 1). With the total number of meetings fixed, this steeply convex cost evens them out: moving one
    meeting from a pair that meets twice to a pair that never meets saves 8, and a pair meeting three times
    costs as much as four pairs meeting twice. The search is simulated annealing over a fixed number of
    steps, driven by a generator with a fixed seed (the field size and the number of rounds), so a schedule
    always comes out the same; the best schedule seen is kept.
    """
    together: dict[frozenset[PlayerId], int] = {}
    for grouping in groupings:
        for members in grouping:
            for first, second in combinations(members, 2):
                key = frozenset((first, second))
                together[key] = together.get(key, 0) + 1
    rounds = [grouping for grouping in groupings if len(grouping) > 1]
    if not rounds:
        return
    players = sum(len(members) for members in groupings[0])
    generator = random.Random(players * 1_000 + len(groupings))
    current = sum(4**count for count in together.values())
    best = current
    best_groupings = [[list(members) for members in grouping] for grouping in groupings]
    temperature = 2.0
    cooling = (0.02 / temperature) ** (1 / steps)
    for _ in range(steps):
        grouping = generator.choice(rounds)
        here, there = generator.sample(range(len(grouping)), 2)
        table_here, table_there = grouping[here], grouping[there]
        index_here = generator.randrange(len(table_here))
        index_there = generator.randrange(len(table_there))
        mover_here, mover_there = table_here[index_here], table_there[index_there]
        stay_here = [player for player in table_here if player != mover_here]
        stay_there = [player for player in table_there if player != mover_there]
        change = 0
        for stay, arriving, leaving in (
            (stay_here, mover_there, mover_here),
            (stay_there, mover_here, mover_there),
        ):
            for other in stay:
                gained = together.get(frozenset((arriving, other)), 0)
                lost = together[frozenset((leaving, other))]
                change += 3 * 4**gained - 3 * 4 ** (lost - 1)
        if change <= 0 or generator.random() < math.exp(-change / temperature):
            for stay, arriving, leaving in (
                (stay_here, mover_there, mover_here),
                (stay_there, mover_here, mover_there),
            ):
                for other in stay:
                    together[frozenset((leaving, other))] -= 1
                    key = frozenset((arriving, other))
                    together[key] = together.get(key, 0) + 1
            table_here[index_here], table_there[index_there] = mover_there, mover_here
            current += change
            if current < best:
                best = current
                best_groupings = [[list(members) for members in grouping] for grouping in groupings]
        temperature *= cooling
    groupings[:] = best_groupings


def _rotated_grid(count: int, sizes: Sequence[int], round_index: int) -> list[list[int]]:
    """Positions 0..count-1 on a grid of len(sizes) columns, row i shifted by i*round_index, cut into
    tables."""
    columns = len(sizes)
    order = sorted(
        range(count),
        key=lambda position: ((position % columns + (position // columns) * round_index) % columns, position),
    )
    tables = []
    start = 0
    for size in sizes:
        tables.append(sorted(order[start : start + size]))
        start += size
    return tables


def round_robin_round(
    entrants: Sequence[Entrant],
    spec: TableSpec,
    round_number: int,
    rounds: int | None = None,
    work_limit: int = LOCAL_SEARCH_WORK,
) -> RoundDraft:
    """Round `round_number` (from 1) of the round robin of `entrants`; `rounds` defaults to a full cycle."""
    check_entrants(entrants)
    total = rounds if rounds is not None else default_rounds(len(entrants), spec)
    if not 1 <= round_number <= total:
        raise PairingError(f"this round robin has rounds 1 to {total}, not {round_number}")
    by_id = {entrant.id: entrant for entrant in entrants}
    if spec.preferred == 2:
        if len(entrants) < 2:
            raise PairingError("a round robin needs at least 2 players")
        order = [entrant.id for entrant in sorted(entrants, key=lambda entrant: entrant.seed)]
        cycle = circle_rounds(order)
        repeat, index = divmod(round_number - 1, len(cycle))
        tables, byes = cycle[index]
        if repeat % 2:
            tables = [DrawTable(seats=tuple(reversed(table.seats))) for table in tables]
        return RoundDraft(tables=tuple(tables), byes=tuple(byes), quality=round_quality(tables, byes, by_id))
    schedule = multi_seat_rounds(entrants, spec, total, work_limit)
    drawn_tables, drawn_byes = schedule[round_number - 1]
    balance = schedule_balance(
        [entrant.id for entrant in entrants], (played for played, _ in schedule[:round_number])
    )
    return RoundDraft(
        tables=drawn_tables,
        byes=drawn_byes,
        quality=round_quality(drawn_tables, drawn_byes, by_id, schedule_balance=balance),
    )
