"""Seeded tournament histories for the optimiser's tests: random places (with shared places), drops after
round 1, and the cost model of the next Swiss round, built as `swiss_round` builds it."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from random import Random

from league.pairing import Entrant, PlayedRound, RoundDraft, Scoring, TableResult, TableSpec
from league.pairing.scoring import entrants_from_history
from league.pairing.search import CostModel
from league.pairing.swiss import choose_byes, cost_model, swiss_round
from league.pairing.tables import fold_by_score, ranked, table_sizes
from league.pairing.types import PlayerId

PODS = TableSpec(preferred=4, minimum=3, maximum=4)
PAIRS = TableSpec()


@dataclass(frozen=True)
class NextRound:
    """The entrants of the next round, its table spec and the cost model of its seated players."""

    entrants: list[Entrant]
    spec: TableSpec
    model: CostModel
    index: dict[PlayerId, int]  # player id -> position in the model
    reference: list[list[int]]  # the reference arrangement (the Dutch fold by score group)

    def cost(self, draft: RoundDraft) -> int:
        return sum(self.model.table([self.index[player] for player in table.seats]) for table in draft.tables)

    def entrant_at(self, position: int) -> PlayerId:
        """The id of the player at `position` in the model."""
        return next(player for player, index in self.index.items() if index == position)

    def tables(self, draft: RoundDraft) -> list[list[int]]:
        return [sorted(self.index[player] for player in table.seats) for table in draft.tables]


def random_places(seats: tuple, rng: Random) -> dict:
    """Places in a random order; one time in four two neighbours share a place."""
    order = list(seats)
    rng.shuffle(order)
    places = {player: position for position, player in enumerate(order, start=1)}
    if len(order) > 1 and rng.random() < 0.25:
        tied = rng.randrange(len(order) - 1)
        places[order[tied + 1]] = places[order[tied]]
    return places


def scoring_for(spec: TableSpec) -> Scoring:
    return Scoring(scale_to=spec.preferred) if spec.preferred > 2 else Scoring()


def next_round(players: int, spec: TableSpec, played: int, seed: int, drops: int = 0) -> NextRound:
    """Play `played` Swiss rounds of `players` with seeded random places, `drops` players leaving after the
    first; return the next round's inputs."""
    rng = Random(seed)
    seeds: dict[PlayerId, int] = {f"p{number}": number for number in range(1, players + 1)}
    scoring = scoring_for(spec)
    rounds: list[PlayedRound] = []
    gone: set[str] = set()
    entrants = entrants_from_history(seeds, rounds, scoring, bye_table_size=spec.preferred)
    for number in range(played):
        if number == 1 and drops:
            gone = set(rng.sample(sorted(f"p{number}" for number in range(1, players + 1)), drops))
        present = [entrant for entrant in entrants if entrant.id not in gone]
        draft = swiss_round(present, spec)
        rounds.append(
            PlayedRound(
                tables=tuple(
                    TableResult(seats=table.seats, places=random_places(table.seats, rng))
                    for table in draft.tables
                ),
                byes=draft.byes,
            )
        )
        entrants = entrants_from_history(seeds, rounds, scoring, bye_table_size=spec.preferred)
    present = [entrant for entrant in entrants if entrant.id not in gone]
    return inputs_of(present, spec)


def inputs_of(entrants: list[Entrant], spec: TableSpec) -> NextRound:
    """The cost model of the next Swiss round of `entrants`, as `swiss_round` measures it."""
    order = ranked(entrants)
    sizes, bye_count = table_sizes(len(order), spec)
    bye_ids = {entrant.id for entrant in choose_byes(order, bye_count)}
    seated = [entrant for entrant in order if entrant.id not in bye_ids]
    reference = fold_by_score([entrant.score for entrant in seated], sizes)
    model = cost_model(seated, sizes, reference)
    index = {entrant.id: position for position, entrant in enumerate(seated)}
    return NextRound(entrants, spec, model, index, reference)


def better_swap(model: CostModel, tables: list[list[int]]) -> tuple | None:
    """A swap of two players of different tables that lowers the cost, tried by brute force; None if none."""
    costs = [model.table(members) for members in tables]
    for x in range(len(tables)):
        for y in range(x + 1, len(tables)):
            for i in range(len(tables[x])):
                for j in range(len(tables[y])):
                    new_x = [*tables[x][:i], tables[y][j], *tables[x][i + 1 :]]
                    new_y = [*tables[y][:j], tables[x][i], *tables[y][j + 1 :]]
                    if model.table(new_x) + model.table(new_y) < costs[x] + costs[y]:
                        return (x, i, y, j)
    return None


def better_cycle(model: CostModel, tables: list[list[int]]) -> tuple | None:
    """A 3-way move (a player of each of three tables moves to the next of them) that lowers the cost,
    tried by brute force; None if none."""
    costs = [model.table(members) for members in tables]
    count = len(tables)
    for a in range(count):
        for b in range(a + 1, count):
            for c in range(b + 1, count):
                for first, second, third in ((a, b, c), (a, c, b)):
                    before = costs[first] + costs[second] + costs[third]
                    for i, mover_a in enumerate(tables[first]):
                        for j, mover_b in enumerate(tables[second]):
                            for k, mover_c in enumerate(tables[third]):
                                new_a = [*tables[first][:i], mover_c, *tables[first][i + 1 :]]
                                new_b = [*tables[second][:j], mover_a, *tables[second][j + 1 :]]
                                new_c = [*tables[third][:k], mover_b, *tables[third][k + 1 :]]
                                after = model.table(new_a) + model.table(new_b) + model.table(new_c)
                                if after < before:
                                    return (first, i, second, j, third, k)
    return None


def optimum(model: CostModel, sizes: list[int]) -> int:
    """The lowest cost of any arrangement into tables of `sizes`, by dynamic programming over the sets of
    seated players (the table of the lowest unseated player is chosen at each step)."""
    count = sum(sizes)
    full = (1 << count) - 1
    memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def best(mask: int, remaining: tuple[int, ...]) -> int:
        if mask == full:
            return 0
        key = (mask, remaining)
        if key in memo:
            return memo[key]
        opener = next(player for player in range(count) if not mask >> player & 1)
        free = [player for player in range(opener + 1, count) if not mask >> player & 1]
        lowest = None
        for size in set(remaining):
            rest = list(remaining)
            rest.remove(size)
            for others in combinations(free, size - 1):
                members = [opener, *others]
                taken = mask | sum(1 << member for member in members)
                value = model.table(members) + best(taken, tuple(rest))
                if lowest is None or value < lowest:
                    lowest = value
        memo[key] = lowest if lowest is not None else 0
        return memo[key]

    return best(0, tuple(sorted(sizes)))
