"""A season's table from its events' results: the points rules, pure (plain values in, plain values out).

An event's result for a player (`EventResult`): their final place, how many matches they played and how many
they won (a first place at a table; a first place shared by k counts 1/k). The organizer's rules (`Rules`):

- points per final place from a table (`place_points`; places beyond it score 0), optionally scaled by the
  field: points × (players who played at least one match) ÷ `reference_size` (16 by default), rounded to 0.01;
- `per_win` points for each match won;
- `participation` points for taking part (at least one match played; a no-show scores nothing and is not an
  attendance);
- each event's tier multiplier (`Event.multiplier`) times the sum;
- a player's best `best_of` results count (all when None); the rest are dropped, shown as dropped; among equal
  results the later event is dropped;
- `minimum_events` attended to qualify; qualification by rank (`qualify_top`: the first N qualified players)
  or by points (`qualify_points`: at least that total), or none;
- or, where the organizer ranks the season by settled ratings (`rank_by_rating`), the order is the players'
  settled ratings (highest first; a player without one after those with one, in points order); points are
  still shown, and qualification is decided on that order the same way;
- ties on the total are broken by the organizer's list of tie-breaks, in order: `events` (more events
  counted), `best` (the better best single result), `firsts` (more first places), `head_to_head` (among the
  tied players, who placed ahead of the others more often at events both played). Players still level share
  the rank.

Every figure is a `Decimal` rounded to 0.01 (per event), so a table by hand and the site's agree exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from itertools import combinations

CENT = Decimal("0.01")
TIE_BREAKS = ("events", "best", "firsts", "head_to_head")


def cents(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class EventResult:
    player: int
    place: int | None  # None: registered but never played (a no-show)
    played: int  # matches played
    wins: Decimal = Decimal(0)  # first places, a shared first counting 1/k


@dataclass(frozen=True)
class Event:
    id: int
    order: int  # the event's position in time (its start); a later event has a greater order
    results: Sequence[EventResult]
    multiplier: Decimal = Decimal(1)


@dataclass(frozen=True)
class Rules:
    place_points: Mapping[int, Decimal] = field(default_factory=dict)
    scale_by_field: bool = False
    reference_size: int = 16
    per_win: Decimal = Decimal(0)
    participation: Decimal = Decimal(0)
    best_of: int | None = None
    minimum_events: int = 0
    qualify_top: int | None = None
    qualify_points: Decimal | None = None
    tie_breaks: Sequence[str] = ()

    def problems(self) -> list[str]:
        """What is wrong with these rules, in the organizer's words (empty when nothing)."""
        found = []
        if any(place < 1 for place in self.place_points):
            found.append("places in the points table start at 1")
        if any(points < 0 for points in self.place_points.values()):
            found.append("points for a place are 0 or more")
        if self.reference_size < 1:
            found.append("the reference field size is at least 1")
        if self.per_win < 0 or self.participation < 0:
            found.append("points per win and for taking part are 0 or more")
        if self.best_of is not None and self.best_of < 1:
            found.append("best of counts at least 1 result")
        if self.minimum_events < 0:
            found.append("the minimum attendance is 0 or more")
        if self.qualify_top is not None and self.qualify_points is not None:
            found.append("qualify by rank or by points, not both")
        if self.qualify_top is not None and self.qualify_top < 1:
            found.append("qualifying by rank takes at least 1 player")
        unknown = [name for name in self.tie_breaks if name not in TIE_BREAKS]
        if unknown:
            found.append(f"unknown tie-break {unknown[0]!r} (choose from {', '.join(TIE_BREAKS)})")
        if len(set(self.tie_breaks)) != len(self.tie_breaks):
            found.append("each tie-break once")
        return found


@dataclass(frozen=True)
class Scored:
    """One player's result at one event, with where its points came from."""

    event: int
    order: int
    place: int | None
    place_points: Decimal
    win_points: Decimal
    participation: Decimal
    multiplier: Decimal
    points: Decimal  # (place + wins + participation) × multiplier, to 0.01


@dataclass(frozen=True)
class Row:
    player: int
    rank: int
    total: Decimal
    counted: tuple[Scored, ...]
    dropped: tuple[Scored, ...]
    attended: int
    qualifies: bool


def score_event(event: Event, rules: Rules) -> dict[int, Scored]:
    """Every attending player's points at `event` (no-shows score nothing and are left out)."""
    field_size = sum(1 for result in event.results if result.played > 0)
    scored = {}
    for result in event.results:
        if result.played <= 0:
            continue
        base = rules.place_points.get(result.place, Decimal(0)) if result.place is not None else Decimal(0)
        if rules.scale_by_field:
            base = cents(base * field_size / rules.reference_size)
        wins = rules.per_win * result.wins
        total = cents((base + wins + rules.participation) * event.multiplier)
        scored[result.player] = Scored(
            event=event.id,
            order=event.order,
            place=result.place,
            place_points=base,
            win_points=cents(wins),
            participation=rules.participation,
            multiplier=event.multiplier,
            points=total,
        )
    return scored


def _split(results: list[Scored], best_of: int | None) -> tuple[tuple[Scored, ...], tuple[Scored, ...]]:
    """The counted and the dropped results: the best `best_of` by points, the earlier kept among equals."""
    ranked = sorted(results, key=lambda s: (-s.points, s.order, s.event))
    keep = len(ranked) if best_of is None else best_of
    counted = tuple(sorted(ranked[:keep], key=lambda s: (s.order, s.event)))
    dropped = tuple(sorted(ranked[keep:], key=lambda s: (s.order, s.event)))
    return counted, dropped


def _head_to_head(group: list[int], places: Mapping[int, Mapping[int, int]]) -> dict[int, int]:
    """For each player of `group`: how many times they placed ahead of another of the group at an event
    both played."""
    ahead = dict.fromkeys(group, 0)
    for a, b in combinations(group, 2):
        for event, place_a in places[a].items():
            place_b = places[b].get(event)
            if place_b is None:
                continue
            if place_a < place_b:
                ahead[a] += 1
            elif place_b < place_a:
                ahead[b] += 1
    return ahead


def season_table(events: Sequence[Event], rules: Rules) -> list[Row]:
    """The season's table, best first; players level after every tie-break share a rank."""
    problems = rules.problems()
    if problems:
        raise ValueError("; ".join(problems))
    by_player: dict[int, list[Scored]] = {}
    places: dict[int, dict[int, int]] = {}
    for event in sorted(events, key=lambda e: (e.order, e.id)):
        for player, scored in score_event(event, rules).items():
            by_player.setdefault(player, []).append(scored)
            if scored.place is not None:
                places.setdefault(player, {})[event.id] = scored.place
    split = {player: _split(results, rules.best_of) for player, results in by_player.items()}
    total = {player: sum((s.points for s in counted), Decimal(0)) for player, (counted, _) in split.items()}

    def key(player: int) -> tuple:
        counted = split[player][0]
        parts: list = [-total[player]]
        for name in rules.tie_breaks:
            if name == "events":
                parts.append(-len(counted))
            elif name == "best":
                parts.append(-max((s.points for s in counted), default=Decimal(0)))
            elif name == "firsts":
                parts.append(-sum(1 for s in by_player[player] if s.place == 1))
            elif name == "head_to_head":
                parts.append(0)  # filled in per tied group below
        return tuple(parts)

    full = {player: key(player) for player in by_player}
    # head to head is a property of the tied group, not of a player alone: it is filled in group by group,
    # a group being the players level on everything before it
    if "head_to_head" in rules.tie_breaks:
        position = 1 + list(rules.tie_breaks).index("head_to_head")
        groups: dict[tuple, list[int]] = {}
        for player in by_player:
            groups.setdefault(full[player][:position], []).append(player)
        for group in groups.values():
            ahead = _head_to_head(group, {p: places.get(p, {}) for p in group})
            for player in group:
                parts = list(full[player])
                parts[position] = -ahead[player]
                full[player] = tuple(parts)
    players = sorted(by_player, key=lambda p: (full[p], p))

    def level(a: int, b: int) -> bool:
        return full[a] == full[b]

    rows: list[Row] = []
    qualified = 0
    for index, player in enumerate(players):
        rank = rows[-1].rank if rows and level(players[index - 1], player) else index + 1
        counted, dropped = split[player]
        attended = len(by_player[player])
        eligible = attended >= rules.minimum_events
        if rules.qualify_top is not None:
            qualifies = eligible and qualified < rules.qualify_top
        elif rules.qualify_points is not None:
            qualifies = eligible and total[player] >= rules.qualify_points
        else:
            qualifies = False
        qualified += qualifies
        rows.append(Row(player, rank, total[player], counted, dropped, attended, qualifies))
    return rows


def rank_by_rating(rows: Sequence[Row], ratings: Mapping[int, float], rules: Rules) -> list[Row]:
    """The table `rows` (in points order) ranked by settled rating instead: highest first, players without a
    rating after those with one (in their points order); equal ratings share a rank; qualification decided
    on this order as `season_table` decides it on points."""
    order = {row.player: index for index, row in enumerate(rows)}
    rated = sorted(
        (row for row in rows if row.player in ratings), key=lambda r: (-ratings[r.player], order[r.player])
    )
    unrated = [row for row in rows if row.player not in ratings]
    ranked: list[Row] = []
    qualified = 0
    for index, row in enumerate(rated + unrated):
        rating = ratings.get(row.player)
        previous = ranked[-1] if ranked else None
        level = previous is not None and rating is not None and ratings.get(previous.player) == rating
        rank = previous.rank if previous is not None and level else index + 1
        eligible = row.attended >= rules.minimum_events
        if rules.qualify_top is not None:
            qualifies = eligible and rating is not None and qualified < rules.qualify_top
        elif rules.qualify_points is not None:
            qualifies = eligible and row.total >= rules.qualify_points
        else:
            qualifies = False
        qualified += qualifies
        ranked.append(Row(row.player, rank, row.total, row.counted, row.dropped, row.attended, qualifies))
    return ranked
