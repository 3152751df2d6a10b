"""Final rankings of elimination: the bracket orders the players, the tie-breaks order each group it leaves.

A placement is a list of `PlacementGroup`s, best first; each names the rule that put its players together
(shown on the standings) and gives every player a key within the group (lower is better). Players with the
same key are ordered by the tournament's tie-breaks (their position in `compute_standings`), then seed.

- 2-seat brackets (`bracket_placement`): the champion; the finalist (the loser of the last grand final
  played); the third-place match, winner above loser (without one, the semi-final losers share third and
  the tie-breaks order them); then everyone else by the round they went out in, later first: the round of
  their only defeat in single elimination, of their losers'-bracket defeat in double elimination. Both
  players of a match where both were absent go out in that match's round (in double elimination, a
  winners' match: below the losers'-round group of the same number).
- Multi-seat elimination (`pod_placement`): the final table by place, then the players knocked out of
  earlier tables, by round (later first) and by place at their table.
- Stage sequences (`cut_placement`): the top cut's placement above everyone who did not make the cut, who
  keep their order in the first stage's standings.
- While the bracket is still being played, the players still in come first ("Still in").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import cast

from league.pairing.brackets import LOSER, Bracket
from league.pairing.elimination import bracket_states, table_order
from league.pairing.scoring import Standing
from league.pairing.types import Entrant, PlayerId, TableResult

CHAMPION = "Champion"
FINAL = "Final"
THIRD_PLACE = "Third-place match"
STILL_IN = "Still in"
NOT_PLACED = "Not in the bracket"
LABEL = re.compile(r"^([A-Z]+)(\d+)-(?:T)?\d+$")


@dataclass(frozen=True)
class PlacementGroup:
    """Players the bracket places together: `rule` says why; `keys` maps each player to their order within
    the group (lower first); equal keys are ordered by the tie-breaks."""

    rule: str
    keys: tuple[tuple[PlayerId, int], ...]

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return tuple(player for player, _ in self.keys)


def ordinal(number: int) -> str:
    """1 → "1st", 2 → "2nd", 11 → "11th", 23 → "23rd"."""
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{({1: 'st', 2: 'nd', 3: 'rd'}).get(number % 10, 'th')}"


def _single(rule: str, player: PlayerId | None) -> list[PlacementGroup]:
    return [PlacementGroup(rule, ((player, 0),))] if player is not None else []


def final_round_of(bracket: Bracket) -> int:
    """One after the last numbered round of a bracket (R<n>, W<n> or L<n>): where its final stands."""
    numbers = [LABEL.match(match.label) for match in bracket.matches]
    return 1 + max((int(found.group(2)) for found in numbers if found), default=0)


def _round_name(round_number: int, final_round: int, third_place: bool, offset: int = 0) -> str:
    if round_number == final_round - 1:
        return "Out in the semi-finals" + ("" if third_place else " (shared third)")
    if round_number == final_round - 2:
        return "Out in the quarter-finals"
    return f"Out in round {round_number + offset}"


def bracket_placement(
    bracket: Bracket, entrants: Sequence[Entrant], results: Sequence[TableResult], first_round: int = 1
) -> list[PlacementGroup]:
    """The placement of a 2-seat single- or double-elimination bracket, as far as `results` go.

    `first_round` is the tournament's number of the bracket's first round (a top cut after a first stage
    starts later): "Out in round N" names the tournament's round, as the round pages do."""
    states = bracket_states(bracket, entrants, results)
    champion = finalist = None
    if all(states[label].decided for label in bracket.deciding):
        for label in bracket.deciding:
            state = states[label]
            if state.winner is not None:
                champion, finalist = state.winner, state.loser
    fed_by_losers = {
        source.ref for match in bracket.matches for source in match.sources if source.kind == LOSER
    }
    third: list[PlacementGroup] = []
    exits: dict[tuple[str, int], list[PlayerId]] = {}
    for match in bracket.matches:
        state = states[match.label]
        if state.absent:
            found = cast("re.Match[str]", LABEL.match(match.label))  # every winners' match label fits LABEL
            if found is None:  # the final, a third-place or a grand final: just below its own places
                kind, number = f"A{match.label}", final_round_of(bracket)
            else:
                kind, number = ("WA" if match.label in fed_by_losers else found.group(1)), int(found.group(2))
            exits.setdefault((kind, number), []).extend(state.absent)
            continue
        if match.label == "3P" and state.decided and state.loser is None and state.winner is not None:
            third = [PlacementGroup(THIRD_PLACE, ((state.winner, 0),))]  # a walkover: nobody to beat
            continue
        if match.label in bracket.deciding or not state.decided or state.loser is None:
            continue
        if match.label == "3P":
            third = [PlacementGroup(THIRD_PLACE, ((state.winner, 0), (state.loser, 1)))]
        elif match.label not in fed_by_losers:
            found = cast("re.Match[str]", LABEL.match(match.label))  # every winners' match label fits LABEL
            exits.setdefault((found.group(1), int(found.group(2))), []).append(state.loser)
    winners_rounds = [
        cast("re.Match[str]", LABEL.match(match.label))
        for match in bracket.matches
        if match.label.startswith("R")
    ]
    final_round = 1 + max((int(found.group(2)) for found in winners_rounds), default=0)
    has_third = any(match.label == "3P" for match in bracket.matches)
    placed = {champion, finalist, *(player for group in third for player in group.players)}
    placed.update(player for players in exits.values() for player in players)
    still_in = [entrant.id for entrant in entrants if entrant.id not in placed]
    groups = _single(CHAMPION, champion) + _single(FINAL, finalist)
    if still_in:
        groups.append(PlacementGroup(STILL_IN, tuple((player, 0) for player in still_in)))
    groups += third
    for (kind, number), players in sorted(
        exits.items(), key=lambda item: (-item[0][1], item[0][0] == "WA", not item[0][0].startswith("A"))
    ):
        if kind.startswith("A"):
            rule = f"Absent at {kind[1:]}"
        elif kind == "WA":
            rule = f"Out in winners' round {number}, both absent"
        elif kind == "L":
            rule = f"Out in losers' round {number}"
        else:
            rule = _round_name(number, final_round, has_third, first_round - 1)
        groups.append(PlacementGroup(rule, tuple((player, 0) for player in players)))
    return groups


def _places(result: TableResult) -> dict[PlayerId, int]:
    """Competition places at a table (1, 2, 2, 4) whatever numbers the result used (1, 2, 2, 3)."""
    return {
        player: 1 + sum(1 for other in result.seats if result.places[other] < result.places[player])
        for player in result.seats
    }


def pod_placement(
    entrants: Sequence[Entrant], advance: int, results: Sequence[TableResult], first_round: int = 1
) -> list[PlacementGroup]:
    """The placement of a multi-seat elimination (tables labelled R<round>-T<table>, the final "Final").

    Labels count the elimination's own rounds; the groups name the tournament's round, `first_round` being
    the tournament's number of the elimination's first round (a top cut after a first stage starts later).
    """
    rank = {entrant.id: entrant.rank_key() for entrant in entrants}
    final: PlacementGroup | None = None
    knocked_out: dict[int, list[tuple[PlayerId, int]]] = {}
    for result in results:
        places = _places(result)
        if result.label == "Final":
            final = PlacementGroup(
                "Final table, by place", tuple((player, places[player]) for player in result.seats)
            )
            continue
        found = LABEL.match(result.label)
        if found is None:
            continue
        out = table_order(result, rank)[advance:]
        knocked_out.setdefault(int(found.group(2)), []).extend((player, places[player]) for player in out)
    placed = set(final.players) if final else set()
    placed.update(player for players in knocked_out.values() for player, _ in players)
    still_in = [entrant.id for entrant in entrants if entrant.id not in placed]
    groups = [final] if final else []
    if still_in:
        groups.append(PlacementGroup(STILL_IN, tuple((player, 0) for player in still_in)))
    for number in sorted(knocked_out, reverse=True):
        groups.append(
            PlacementGroup(
                f"Out in round {number + first_round - 1}, by place at the table", tuple(knocked_out[number])
            )
        )
    return groups


MISSED_CUT = "Did not make the cut"  # the rule of the group after a top cut's placement begins so


def cut_placement(
    cut: Sequence[PlacementGroup], first_stage: Sequence[Standing], first_stage_name: str
) -> list[PlacementGroup]:
    """The top cut's placement, then everyone else in the order of the first stage's standings."""
    in_cut = {player for group in cut for player in group.players}
    missed = tuple((standing.id, standing.rank) for standing in first_stage if standing.id not in in_cut)
    groups = list(cut)
    if missed:
        groups.append(PlacementGroup(f"{MISSED_CUT}: by the {first_stage_name} standings", missed))
    return groups


def placed_standings(standings: Sequence[Standing], groups: Sequence[PlacementGroup]) -> list[Standing]:
    """The standings reordered by the placement: group by group, within a group by key, then by the
    tie-breaks (the standings' own order). Each line carries its group's rule; ranks are renumbered."""
    position = {standing.id: index for index, standing in enumerate(standings)}
    by_id = {standing.id: standing for standing in standings}
    ordered: list[tuple[Standing, str]] = []
    seen: set[PlayerId] = set()
    for group in groups:
        members = [(player, key) for player, key in group.keys if player in by_id and player not in seen]
        for player, _key in sorted(members, key=lambda item: (item[1], position[item[0]])):
            ordered.append((by_id[player], group.rule))
            seen.add(player)
    ordered += [(standing, NOT_PLACED) for standing in standings if standing.id not in seen]
    return [
        replace(standing, rank=rank, group=rule) for rank, (standing, rule) in enumerate(ordered, start=1)
    ]
