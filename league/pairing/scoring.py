"""Points per place, standings with ordered tie-breaks, and the entrants a pairing needs, from results.

- Points per place are configurable per table size; the default at a table of k is k - place (a table of 4
  gives 3, 2, 1, 0; a 2-seat game gives 1 for a win, 0 for a loss).
- Shared places share points: players tied for places p..p+m-1 each get the average of those places'
  points (a 2-seat draw gives 0.5 each; two players tied for second at a table of 4 get (2 + 1) / 2 = 1.5).
- A Swiss or round-robin bye scores as a win: the first place's points at a table of the preferred size.
- Tie-breaks, in the order the tournament chooses (seed is always the last resort):
  `points`; `opponents_points` (the sum over every table played of the other players' total points,
  Buchholz-like; a bye adds nothing); `wins` (tables finished alone in first place, plus byes);
  `head_to_head` (among the players still tied: +1 for each tied player finished ahead of at a shared
  table, -1 for each finished behind); `seed` (lower seed number first).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from league.pairing.types import Entrant, PairingError, PlayedRound, PlayerId, TableResult

TIEBREAKS = ("points", "opponents_points", "wins", "head_to_head", "seed")
DEFAULT_TIEBREAKS = TIEBREAKS


def default_points(table_size: int) -> tuple[float, ...]:
    """Points for places 1..k at a table of k: k - 1, k - 2, ..., 0."""
    return tuple(float(table_size - place) for place in range(1, table_size + 1))


@dataclass(frozen=True)
class Scoring:
    """Points per place by table size; sizes missing from `points_by_size` use `default_points`."""

    points_by_size: Mapping[int, tuple[float, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for size, points in self.points_by_size.items():
            if len(points) != size:
                raise PairingError(f"a table of {size} needs {size} place points, got {len(points)}")
            if any(later > earlier for earlier, later in zip(points, points[1:], strict=False)):
                raise PairingError(f"place points for a table of {size} must not increase: {list(points)}")

    def points(self, table_size: int) -> tuple[float, ...]:
        """Points for places 1..table_size."""
        return tuple(self.points_by_size.get(table_size, default_points(table_size)))

    def bye_points(self, table_size: int) -> float:
        """A bye scores as a win: first place's points at a table of `table_size` (the preferred size)."""
        return self.points(table_size)[0]


def finishing_order(result: TableResult) -> list[list[PlayerId]]:
    """The players of a table grouped by shared place, best first. Raises on inconsistent input."""
    if set(result.places) != set(result.seats) or len(result.seats) != len(set(result.seats)):
        raise PairingError(
            f"the places of table {result.label or list(result.seats)} must name each seated player once"
        )
    groups: dict[int, list[PlayerId]] = {}
    for player in result.seats:
        place = result.places[player]
        if not isinstance(place, int) or place < 1:
            raise PairingError(f"places are whole numbers from 1, got {place!r}")
        groups.setdefault(place, []).append(player)
    return [groups[place] for place in sorted(groups)]


def place_points(result: TableResult, scoring: Scoring) -> dict[PlayerId, float]:
    """Points each player earns at one table; tied players share the average of their places' points."""
    points = scoring.points(len(result.seats))
    earned: dict[PlayerId, float] = {}
    position = 0
    for group in finishing_order(result):
        share = sum(points[position : position + len(group)]) / len(group)
        for player in group:
            earned[player] = share
        position += len(group)
    return earned


@dataclass(frozen=True)
class Standing:
    """One line of the standings: rank 1 is the leader; every tie-break column the tournament can use.
    `group` names the rule of an elimination's placement that put the player there (`placement`); empty
    when the tie-breaks alone order the standings."""

    id: PlayerId
    seed: int
    rank: int
    points: float
    opponents_points: float
    wins: int
    head_to_head: int
    played: int
    byes: int
    group: str = ""


@dataclass
class _Tally:
    points: float = 0.0
    wins: int = 0
    played: int = 0
    byes: int = 0
    tables: list[TableResult] = field(default_factory=list)


def compute_standings(
    seeds: Mapping[PlayerId, int],
    rounds: Sequence[PlayedRound],
    scoring: Scoring | None = None,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    bye_table_size: int = 2,
) -> list[Standing]:
    """Standings from played rounds, ordered by `tiebreaks` (then seed). Every player in `seeds` appears.

    A late entry simply has no results for the rounds before they joined, so they start at zero points.
    """
    scoring = scoring or Scoring()
    unknown = [name for name in tiebreaks if name not in TIEBREAKS]
    if unknown:
        raise PairingError(f"unknown tie-break {unknown[0]!r}; choose from {', '.join(TIEBREAKS)}")
    tallies = {player: _Tally() for player in seeds}
    for played_round in rounds:
        for result in played_round.tables:
            for player in result.seats:
                if player not in tallies:
                    raise PairingError(f"result names {player!r}, who is not registered")
            order = finishing_order(result)
            earned = place_points(result, scoring)
            for player, points in earned.items():
                tally = tallies[player]
                tally.points += points
                tally.played += 1
                tally.tables.append(result)
            if len(order[0]) == 1:
                tallies[order[0][0]].wins += 1
        for player in played_round.byes:
            if player not in tallies:
                raise PairingError(f"bye given to {player!r}, who is not registered")
            tally = tallies[player]
            tally.points += scoring.bye_points(bye_table_size)
            tally.wins += 1
            tally.byes += 1
    opponents_points = {
        player: sum(
            tallies[other].points for result in tally.tables for other in result.seats if other != player
        )
        for player, tally in tallies.items()
    }
    values = {
        player: {
            "points": tally.points,
            "opponents_points": opponents_points[player],
            "wins": tally.wins,
            "seed": -seeds[player],
        }
        for player, tally in tallies.items()
    }
    head_to_head = dict.fromkeys(tallies, 0)
    ordered = _order(list(tallies), list(tiebreaks), values, tallies, head_to_head, seeds)
    return [
        Standing(
            id=player,
            seed=seeds[player],
            rank=position,
            points=tallies[player].points,
            opponents_points=opponents_points[player],
            wins=tallies[player].wins,
            head_to_head=head_to_head[player],
            played=tallies[player].played,
            byes=tallies[player].byes,
        )
        for position, player in enumerate(ordered, start=1)
    ]


def _order(group, criteria, values, tallies, head_to_head, seeds) -> list:
    """Order a group tied so far by the next criterion, splitting ties further; seed settles the rest."""
    if len(group) <= 1 or not criteria:
        return sorted(group, key=lambda player: seeds[player])
    criterion, rest = criteria[0], criteria[1:]
    if criterion == "head_to_head":
        scores = _head_to_head(group, tallies)
        head_to_head.update(scores)
        key = scores.__getitem__
    else:
        key = lambda player: values[player][criterion]  # noqa: E731
    tied: dict = {}  # each value's players in group order, in one pass (a scan per value is quadratic)
    for player in group:
        tied.setdefault(key(player), []).append(player)
    ordered: list = []
    for value in sorted(tied, reverse=True):
        ordered.extend(_order(tied[value], rest, values, tallies, head_to_head, seeds))
    return ordered


def _head_to_head(group: list, tallies: dict[PlayerId, _Tally]) -> dict[PlayerId, int]:
    """+1 per tied player finished ahead of at a shared table, -1 per tied player finished behind."""
    members = set(group)
    scores = dict.fromkeys(group, 0)
    seen: set[int] = set()
    for player in group:
        for result in tallies[player].tables:
            if id(result) in seen:
                continue
            seen.add(id(result))
            present = [other for other in result.seats if other in members]
            for first in present:
                for second in present:
                    if result.places[first] < result.places[second]:
                        scores[first] += 1
                        scores[second] -= 1
    return scores


def entrants_from_history(
    seeds: Mapping[PlayerId, int],
    rounds: Sequence[PlayedRound],
    scoring: Scoring | None = None,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    bye_table_size: int = 2,
) -> list[Entrant]:
    """The `Entrant`s for the next round: score, standings position, opponents, seats and byes so far."""
    standings = compute_standings(seeds, rounds, scoring, tiebreaks, bye_table_size)
    opponents: dict[PlayerId, list[PlayerId]] = {player: [] for player in seeds}
    seats: dict[PlayerId, list[int]] = {player: [] for player in seeds}
    for played_round in rounds:
        for result in played_round.tables:
            for seat, player in enumerate(result.seats):
                seats[player].append(seat)
                opponents[player].extend(other for other in result.seats if other != player)
    return [
        Entrant(
            id=standing.id,
            seed=standing.seed,
            score=standing.points,
            standing=standing.rank,
            opponents=tuple(opponents[standing.id]),
            seat_history=tuple(seats[standing.id]),
            byes=standing.byes,
        )
        for standing in standings
    ]
