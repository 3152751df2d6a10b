"""Points per place, standings with ordered tie-breaks, and the entrants a pairing needs, from results.

- Points per place are configurable per table size; the default at a table of k is k - place (a table of 4
  gives 3, 2, 1, 0; a 2-seat game gives 1 for a win, 0 for a loss).
- Scaled points (`Scoring.scale_to`, the preferred table size): a table of another size scores its points
  per place times (first place at the preferred size) / (first place at that size), so winning a short
  table of 3 is worth a win at 4. With the default points that factor is (preferred - 1) / (size - 1).
- Shared places share points: players tied for places p..p+m-1 each get the average of those places'
  points (a 2-seat draw gives 0.5 each; two players tied for second at a table of 4 get (2 + 1) / 2 = 1.5).
- A Swiss or round-robin bye scores as a win: the first place's points at a table of the preferred size.
  A bye the player asked for scores as the tournament says: a win, half a win, or zero.
- Tie-breaks, in the order the tournament chooses (seed is always the last resort), every one documented
  with a worked example in docs/tournaments.md: `points`; `opponents_points` (the sum over every table
  played of the other players' total points, Buchholz-like; a bye adds nothing); `opponents_points_average`
  (that sum divided by the number of opponents met); `buchholz_cut1` and `buchholz_median` (the sum
  without the lowest, or the lowest and the highest, single opponent); `sonneborn_berger` (each opponent's
  points if finished ahead of them, half if level); `opponents_match_win_percentage` (the average over the
  opponents met of their share of the points they could have won, each at least 33%); `cumulative` (the
  running total after each round, summed); `wins` (tables finished alone in first place, plus byes scored
  as a win); `head_to_head` (among the players still tied: +1 for each tied player finished ahead of at a
  shared table, -1 for each finished behind); `seed` (lower seed number first).

Sums of scaled points are fractions that floats cannot always hold exactly (thirds), so every tie-break
value is rounded to 9 decimals before it is compared or reported: players who are level stay level.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from league.pairing.types import Entrant, PairingError, PlayedRound, PlayerId, TableResult

TIEBREAKS = (
    "points",
    "opponents_points",
    "opponents_points_average",
    "buchholz_cut1",
    "buchholz_median",
    "sonneborn_berger",
    "opponents_match_win_percentage",
    "cumulative",
    "wins",
    "head_to_head",
    "seed",
)
DEFAULT_TIEBREAKS = ("points", "opponents_points", "wins", "head_to_head", "seed")
REQUESTED_BYE_SCORES = ("win", "half", "zero")
MATCH_WIN_FLOOR = (
    0.33  # a player's match-win percentage counts at least this much in their opponents' average
)
DECIMALS = 9


def _tidy(value: float) -> float:
    if value == int(value):  # most figures are whole: no rounding needed (and round() is slow at 10,000s)
        return float(value) + 0.0
    return round(value, DECIMALS) + 0.0  # + 0.0 turns -0.0 into 0.0


def default_points(table_size: int) -> tuple[float, ...]:
    """Points for places 1..k at a table of k: k - 1, k - 2, ..., 0."""
    return tuple(float(table_size - place) for place in range(1, table_size + 1))


@dataclass(frozen=True)
class Scoring:
    """Points per place by table size; sizes missing from `points_by_size` use `default_points`.

    With `scale_to` (the preferred table size), tables of other sizes are scaled so that their first place
    earns what first place earns at the preferred size (no scaling when either first place is worth 0 or
    less).
    """

    points_by_size: Mapping[int, tuple[float, ...]] = field(default_factory=dict)
    scale_to: int | None = None

    def __post_init__(self) -> None:
        for size, points in self.points_by_size.items():
            if len(points) != size:
                raise PairingError(f"a table of {size} needs {size} place points, got {len(points)}")
            if any(later > earlier for earlier, later in zip(points, points[1:], strict=False)):
                shown = ", ".join(f"{value:g}" for value in points)
                raise PairingError(f"place points for a table of {size} must not increase: {shown}")

    def place_points(self, table_size: int) -> tuple[float, ...]:
        """The configured (unscaled) points for places 1..table_size."""
        return tuple(self.points_by_size.get(table_size, default_points(table_size)))

    def points(self, table_size: int) -> tuple[float, ...]:
        """Points for places 1..table_size, scaled to the preferred size when `scale_to` is set."""
        points = self.place_points(table_size)
        if self.scale_to is None or table_size == self.scale_to:
            return points
        target, own = self.place_points(self.scale_to)[0], points[0]
        if target <= 0 or own <= 0:
            return points
        return tuple(value * target / own for value in points)

    def bye_points(self, table_size: int) -> float:
        """A bye scores as a win: first place's points at a table of `table_size` (the preferred size)."""
        return self.points(table_size)[0]

    def requested_bye_points(self, score: str, table_size: int) -> float:
        """What a bye the player asked for scores: a win, half a win or zero (`REQUESTED_BYE_SCORES`)."""
        if score not in REQUESTED_BYE_SCORES:
            raise PairingError(
                f"a requested bye scores one of {', '.join(REQUESTED_BYE_SCORES)}, not {score!r}"
            )
        return {"win": 1.0, "half": 0.5, "zero": 0.0}[score] * self.bye_points(table_size)


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


    `byes` counts the byes the pairing gave, `requested_byes` the byes the player asked for.
    `opponents_match_win_percentage` is a fraction (0.5 is 50%).
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
    opponents_points_average: float = 0.0
    buchholz_cut1: float = 0.0
    buchholz_median: float = 0.0
    sonneborn_berger: float = 0.0
    opponents_match_win_percentage: float = 0.0
    cumulative: float = 0.0
    requested_byes: int = 0
    group: str = ""
    penalty: float = 0.0  # points taken off by penalties (already out of `points`)


@dataclass
class _Tally:
    points: float = 0.0
    wins: int = 0
    played: int = 0
    byes: int = 0
    requested_byes: int = 0
    cumulative: float = 0.0
    won: float = 0.0  # points at tables and pairing byes: the match-win percentage's numerator
    winnable: float = 0.0  # first place's points at those tables and byes: its denominator
    tables: list[TableResult] = field(default_factory=list)


def _tally(
    seeds: Mapping[PlayerId, int], rounds: Sequence[PlayedRound], scoring: Scoring, bye_table_size: int
) -> dict[PlayerId, _Tally]:
    tallies = {player: _Tally() for player in seeds}

    def tally_of(player: PlayerId, what: str) -> _Tally:
        if player not in tallies:
            raise PairingError(f"{what} {player!r}, who is not registered")
        return tallies[player]

    bye = scoring.bye_points(bye_table_size)
    points_by_size: dict[int, tuple[float, ...]] = {}
    for played_round in rounds:
        for result in played_round.tables:
            for player in result.seats:
                tally_of(player, "result names")
            order = finishing_order(result)
            size = len(result.seats)
            if size not in points_by_size:
                points_by_size[size] = scoring.points(size)
            table_points = points_by_size[size]
            best = table_points[0]
            position = 0
            for group in order:  # as `place_points`: tied players share the average of their places' points
                share = sum(table_points[position : position + len(group)]) / len(group)
                position += len(group)
                for player in group:
                    tally = tallies[player]
                    tally.points += share
                    tally.won += share
                    tally.winnable += best
                    tally.played += 1
                    tally.tables.append(result)
            if len(order[0]) == 1:
                tallies[order[0][0]].wins += 1
        for player in played_round.byes:
            tally = tally_of(player, "bye given to")
            tally.points += bye
            tally.won += bye
            tally.winnable += bye
            tally.wins += 1
            tally.byes += 1
        for player, score in played_round.requested_byes:
            tally = tally_of(player, "bye requested by")
            tally.points += scoring.requested_bye_points(score, bye_table_size)
            tally.wins += 1 if score == "win" else 0
            tally.requested_byes += 1
        for tally in tallies.values():
            tally.cumulative += tally.points
    return tallies


def _opponent_values(player: PlayerId, tally: _Tally, tallies: Mapping[PlayerId, _Tally]) -> dict[str, float]:
    """The tie-breaks read from the players met: one value per opponent per table shared."""
    met: list[float] = []
    match_wins: list[float] = []
    sonneborn_berger = 0.0
    for result in tally.tables:
        place = result.places[player]
        for other in result.seats:
            if other == player:
                continue
            theirs = tallies[other]
            met.append(theirs.points)
            match_wins.append(
                max(MATCH_WIN_FLOOR, theirs.won / theirs.winnable if theirs.winnable > 0 else 0.0)
            )
            if place < result.places[other]:
                sonneborn_berger += theirs.points
            elif place == result.places[other]:
                sonneborn_berger += theirs.points / 2
    ordered = sorted(met)
    return {
        "opponents_points": sum(met),
        "opponents_points_average": sum(met) / len(met) if met else 0.0,
        "buchholz_cut1": sum(ordered[1:]),
        "buchholz_median": sum(ordered[1:-1]),
        "sonneborn_berger": sonneborn_berger,
        "opponents_match_win_percentage": sum(match_wins) / len(match_wins) if match_wins else 0.0,
    }


def compute_standings(
    seeds: Mapping[PlayerId, int],
    rounds: Sequence[PlayedRound],
    scoring: Scoring | None = None,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    bye_table_size: int = 2,
    penalties: Mapping[Any, float] | None = None,
) -> list[Standing]:
    """Standings from played rounds, ordered by `tiebreaks` (then seed). Every player in `seeds` appears.

    A late entry simply has no results for the rounds before they joined, so they start at zero points.
    `penalties` (player → points) come off the players' points before anything is ranked, so their
    opponents' tie-breaks see them too; each line says how many (`Standing.penalty`).
    """
    scoring = scoring or Scoring()
    unknown = [name for name in tiebreaks if name not in TIEBREAKS]
    if unknown:
        raise PairingError(f"unknown tie-break {unknown[0]!r}; choose from {', '.join(TIEBREAKS)}")
    tallies = _tally(seeds, rounds, scoring, bye_table_size)
    penalties = {player: points for player, points in (penalties or {}).items() if player in tallies}
    for player, points in penalties.items():
        tallies[player].points -= points
    values: dict[PlayerId, dict[str, Any]] = {}
    for player, tally in tallies.items():
        line = {
            "points": tally.points,
            "cumulative": tally.cumulative,
            **_opponent_values(player, tally, tallies),
        }
        values[player] = {name: _tidy(value) for name, value in line.items()}
        values[player].update(wins=tally.wins, seed=-seeds[player])
    head_to_head = dict.fromkeys(tallies, 0)
    ordered = _order(list(tallies), list(tiebreaks), values, tallies, head_to_head, seeds)
    return [
        Standing(
            id=player,
            seed=seeds[player],
            rank=position,
            points=values[player]["points"],
            opponents_points=values[player]["opponents_points"],
            wins=tallies[player].wins,
            head_to_head=head_to_head[player],
            played=tallies[player].played,
            byes=tallies[player].byes,
            opponents_points_average=values[player]["opponents_points_average"],
            buchholz_cut1=values[player]["buchholz_cut1"],
            buchholz_median=values[player]["buchholz_median"],
            sonneborn_berger=values[player]["sonneborn_berger"],
            opponents_match_win_percentage=values[player]["opponents_match_win_percentage"],
            cumulative=values[player]["cumulative"],
            requested_byes=tallies[player].requested_byes,
            penalty=_tidy(penalties.get(player, 0.0)),
        )
        for position, player in enumerate(ordered, start=1)
    ]


def _order(
    group: list[PlayerId],
    criteria: list[str],
    values: Mapping[PlayerId, Mapping[str, Any]],
    tallies: Mapping[PlayerId, _Tally],
    head_to_head: dict[PlayerId, int],
    seeds: Mapping[PlayerId, int],
) -> list[PlayerId]:
    """Order a group tied so far by the next criterion, splitting ties further; seed settles the rest."""
    if len(group) <= 1 or not criteria:
        return sorted(group, key=lambda player: seeds[player])
    criterion, rest = criteria[0], criteria[1:]
    key: Callable[[PlayerId], Any]
    if criterion == "head_to_head":
        scores = _head_to_head(group, tallies)
        head_to_head.update(scores)
        key = scores.__getitem__
    else:
        key = lambda player: values[player][criterion]  # noqa: E731
    tied: dict[
        Any, list[PlayerId]
    ] = {}  # each value's players in group order, in one pass (not a scan per value)
    for player in group:
        tied.setdefault(key(player), []).append(player)
    ordered: list[PlayerId] = []
    for value in sorted(tied, reverse=True):
        ordered.extend(_order(tied[value], rest, values, tallies, head_to_head, seeds))
    return ordered


def _head_to_head(group: list[PlayerId], tallies: Mapping[PlayerId, _Tally]) -> dict[PlayerId, int]:
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
