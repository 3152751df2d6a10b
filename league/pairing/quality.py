"""The quality report of a generated round (kept with the round and shown to organizers)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from league.pairing.types import (
    DrawTable,
    Entrant,
    PlayerId,
    RoundQuality,
    ScheduleBalance,
    TableQuality,
)


def round_quality(
    tables: Sequence[DrawTable],
    byes: Iterable[PlayerId],
    entrants: dict[PlayerId, Entrant],
    cost: tuple[float, ...] = (),
    schedule_balance: ScheduleBalance | None = None,
) -> RoundQuality:
    """Measure a round against the entrants' history (see `RoundQuality` for each figure)."""
    per_table = []
    worst_imbalance = 0
    for table in tables:
        players = [entrants[player] for player in table.seats]
        repeats = sum(1 for first, second in combinations(players, 2) if first.meetings_with(second.id))
        scores = [player.score for player in players]
        excess = 0
        for seat, player in enumerate(players):
            counts = [player.seat_count(index) for index in range(len(players))]
            excess += counts[seat] - min(counts)
            counts[seat] += 1
            worst_imbalance = max(worst_imbalance, max(counts) - min(counts))
        per_table.append(TableQuality(repeats, max(scores) - min(scores), excess))
    spreads = [table.score_spread for table in per_table]
    return RoundQuality(
        tables=len(per_table),
        repeat_pairs=sum(table.repeat_pairs for table in per_table),
        max_score_spread=max(spreads, default=0.0),
        total_score_spread=sum(spreads),
        seat_excess=sum(table.seat_excess for table in per_table),
        max_seat_imbalance=worst_imbalance,
        byes=len(tuple(byes)),
        per_table=tuple(per_table),
        cost=cost,
        schedule_balance=schedule_balance,
    )


def schedule_balance(players: Sequence[PlayerId], rounds: Iterable[Sequence[DrawTable]]) -> ScheduleBalance:
    """Count how often each pair of `players` shared a table over `rounds`: the fewest, the most, the
    zeros."""
    together: dict[frozenset[PlayerId], int] = {}
    for tables in rounds:
        for table in tables:
            for first, second in combinations(table.seats, 2):
                key = frozenset((first, second))
                together[key] = together.get(key, 0) + 1
    counts = [together.get(frozenset(pair), 0) for pair in combinations(players, 2)]
    return ScheduleBalance(
        min_meetings=min(counts, default=0),
        max_meetings=max(counts, default=0),
        pairs_never_met=sum(1 for count in counts if count == 0),
    )
