"""Playing elimination: advancing through a drawn 2-seat bracket (`brackets`), and multi-seat elimination
(top k advance).

2-seat brackets:
- A match with one player is a walkover (that player advances without playing); with none it is void. A
  match whose players were both absent (a `void` result) sends nobody on: the match it feeds is a walkover
  for the other feeder's winner (void too when that side has nobody either), and both players are out.
- A round is every match whose players are known and that has no result yet; walkovers are settled at once.
  A drawn 2-seat elimination match is decided like a tie at a cut: better standing, then better seed.

Multi-seat elimination re-seeds every round rather than following a fixed bracket:
- Table sizes follow `table_sizes`; when some players cannot be seated, the top seeds get the byes.
- Players are dealt to tables by snake seeding (table 1 gets seeds 1, 2t, 2t+1, ...) so tables are even,
  then the optimiser avoids players who shared a table in earlier rounds where it can, keeping the tables
  as evenly matched as possible (the "balance" seed term of `search`).
- The top `advance` of each table go through; a tie at the cut is broken by standing (score, then
  standings position), then seed. The next round re-seeds the survivors by place at their table (a bye
  counts as first), then seed.
- Once no more players remain than one table's preferred size, they play the final table, whose places
  are the final ranking.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, cast

from league.pairing.brackets import SEED, WINNER, Bracket
from league.pairing.quality import round_quality
from league.pairing.search import LOCAL_SEARCH_WORK
from league.pairing.swiss import arrange, seat_tables
from league.pairing.tables import assign_seats, check_entrants, deal, table_sizes
from league.pairing.types import (
    DrawTable,
    Entrant,
    PairingError,
    PlayerId,
    RoundDraft,
    TableResult,
    TableSpec,
)


@dataclass
class MatchState:
    """How far a bracket match is settled: its players once known (None for an empty slot), whether it is
    decided (played, a walkover, void, or a reset that was not needed), its winner and loser, and the players
    who were both absent at a void match (`absent`: out, nobody goes through)."""

    players: tuple[PlayerId | None, PlayerId | None] | None = None
    decided: bool = False
    walkover: bool = False
    winner: PlayerId | None = None
    loser: PlayerId | None = None
    absent: tuple[PlayerId, ...] = ()


@dataclass(frozen=True)
class BracketRound:
    """One round of a bracket: the labels of the matches to play and who advanced by walkover first."""

    labels: tuple[str, ...]
    walkovers: tuple[PlayerId, ...] = field(default=())


def _resolve(
    bracket: Bracket,
    by_seed: Mapping[int, PlayerId],
    results: Mapping[str, TableResult],
    rank: Mapping[PlayerId, tuple[Any, ...]],
) -> dict[str, MatchState]:
    """Settle every match the given results allow, in playing order."""
    states: dict[str, MatchState] = {}
    for match in bracket.matches:
        state = MatchState()
        states[match.label] = state
        players: list[PlayerId | None] = []
        for source in match.sources:
            if source.kind == SEED:
                players.append(by_seed.get(cast(int, source.ref)))
                continue
            feeder = states[cast(str, source.ref)]
            if not feeder.decided:
                break
            players.append(feeder.winner if source.kind == WINNER else feeder.loser)
        else:
            state.players = (players[0], players[1])
        if state.players is None:
            continue
        if match.reset:
            grand_final = states["GF"]
            if not grand_final.decided:
                state.players = None
                continue
            if grand_final.winner != state.players[1]:
                state.decided = True
                continue
        present = [player for player in state.players if player is not None]
        if len(present) < 2:
            state.decided = True
            state.walkover = bool(present)
            state.winner = present[0] if present else None
            continue
        result = results.get(match.label)
        if result is None:
            continue
        if set(result.seats) != set(present):
            raise PairingError(
                f"the result of {match.label} names {sorted(map(str, result.seats))}, "
                f"but the match is {present[0]} v {present[1]}"
            )
        if result.void:
            state.decided = True
            state.absent = tuple(present)
            continue
        ordered = table_order(result, rank)
        state.decided = True
        state.winner, state.loser = ordered
    return states


def table_order(result: TableResult, rank: Mapping[PlayerId, tuple[Any, ...]]) -> list[PlayerId]:
    """The players of an elimination table in the order they go through: the decider's players first
    (`result.advancing`), then by place; a tie left undecided (a table closed as a forfeit) by `rank`
    (standing, then seed)."""
    chosen = set(result.advancing)
    return sorted(
        result.seats, key=lambda player: (player not in chosen, result.places[player], rank[player])
    )


@dataclass(frozen=True)
class OpenCut:
    """A tie across the cut of an elimination table: `tied` share `place`; `needed` of them go through,
    after `through` (who go through by their places)."""

    place: int
    tied: tuple[PlayerId, ...]
    needed: int
    through: tuple[PlayerId, ...]


def open_cut(seats: Sequence[PlayerId], places: Mapping[PlayerId, int], advance: int) -> OpenCut | None:
    """Whether the places of a table going `advance` through leave the cut undecided: the last player who
    goes through by place ties with the first who does not. None when the places decide it."""
    order = sorted(seats, key=lambda player: places[player])
    if advance >= len(order) or places[order[advance - 1]] != places[order[advance]]:
        return None
    place = places[order[advance - 1]]
    through = tuple(player for player in order if places[player] < place)
    tied = tuple(player for player in order if places[player] == place)
    return OpenCut(1 + len(through), tied, advance - len(through), through)


def bracket_states(
    bracket: Bracket, entrants: Sequence[Entrant], results: Sequence[TableResult]
) -> dict[str, MatchState]:
    """Every match of the bracket, by label, settled as far as `results` allow."""
    ordered = sorted(entrants, key=lambda entrant: entrant.seed)
    by_seed = {position: entrant.id for position, entrant in enumerate(ordered, start=1)}
    rank = {entrant.id: entrant.rank_key() for entrant in entrants}
    return _resolve(bracket, by_seed, {result.label: result for result in results}, rank)


def bracket_rounds(
    bracket: Bracket, entrants: Sequence[Entrant], results: Sequence[TableResult]
) -> list[BracketRound]:
    """The rounds played so far and the next one, as far as the results allow.

    A round is every match whose players are known, that has no result yet and whose due round has come
    (`_earliest_rounds`); rounds with nothing to play are skipped. Stops at the first round with a missing
    result, or when nothing is left to play.
    """
    check_entrants(entrants)
    if len(entrants) != bracket.players:
        raise PairingError(f"the bracket was drawn for {bracket.players} players, not {len(entrants)}")
    ordered = sorted(entrants, key=lambda entrant: entrant.seed)
    by_seed = {position: entrant.id for position, entrant in enumerate(ordered, start=1)}
    rank = {entrant.id: entrant.rank_key() for entrant in entrants}
    by_label = {}
    labels = {match.label for match in bracket.matches}
    for result in results:
        if result.label not in labels:
            raise PairingError(f"there is no match {result.label!r} in this bracket")
        by_label[result.label] = result
    known: dict[str, TableResult] = {}
    reported: set[str] = set()
    rounds: list[BracketRound] = []
    earliest = _earliest_rounds(bracket)
    wave = 1
    while True:
        states = _resolve(bracket, by_seed, known, rank)
        waiting = [
            match.label
            for match in bracket.matches
            if states[match.label].players is not None and not states[match.label].decided
        ]
        if not waiting:
            return rounds
        ready = tuple(label for label in waiting if earliest[label] <= wave)
        wave += 1
        if not ready:
            continue
        walkovers = tuple(
            state.winner
            for label, state in states.items()
            if state.walkover and label not in reported and state.winner is not None
        )
        reported.update(label for label, state in states.items() if state.decided)
        rounds.append(BracketRound(labels=ready, walkovers=walkovers))
        if any(label not in by_label for label in ready):
            return rounds
        known.update((label, by_label[label]) for label in ready)


def _earliest_rounds(bracket: Bracket) -> dict[str, int]:
    """The round a match is due in: one after the latest of the matches feeding it (round 1 for seeds).

    A player who advanced by walkover still waits for that round, so a bye means sitting out round 1.
    """
    earliest: dict[str, int] = {}
    for match in bracket.matches:
        feeders = [earliest[cast(str, source.ref)] for source in match.sources if source.kind != SEED]
        earliest[match.label] = 1 + max(feeders, default=0)
    return earliest


@dataclass(frozen=True)
class FlowPlan:
    """The rounds of a 2-seat bracket played match by match: `rounds[i]` holds the labels of the matches
    played in round i + 1, in bracket order (the bracket's columns: matches grouped by the round they are
    due in, rounds with nothing to play skipped, as `bracket_rounds` numbers them); `walkovers[i]` the
    walkover matches settled with that round. A grand-final reset (GF2) has a round, played only if needed."""

    rounds: tuple[tuple[str, ...], ...]
    walkovers: tuple[tuple[str, ...], ...]

    def round_of(self, label: str) -> int:
        """The round (from 1) of a played match."""
        for number, labels in enumerate(self.rounds, start=1):
            if label in labels:
                return number
        raise PairingError(f"{label} is not a match to play in this bracket")


@lru_cache(maxsize=64)  # fixed when the bracket is drawn (a frozen Bracket)
def flow_plan(bracket: Bracket) -> FlowPlan:
    """Which matches are played and in which round. Whether a match is played, a walkover or void depends
    only on where the byes sit (a bye's match sends nobody to the losers' bracket), so the plan is fixed
    when the bracket is drawn."""
    earliest = _earliest_rounds(bracket)
    winner: dict[str, bool] = {}
    loser: dict[str, bool] = {}
    played: dict[int, list[str]] = {}
    walkovers: list[tuple[int, str]] = []
    for match in bracket.matches:
        present = 0
        for source in match.sources:
            if source.kind == SEED:
                present += cast(int, source.ref) <= bracket.players
            else:
                present += (winner if source.kind == WINNER else loser)[cast(str, source.ref)]
        winner[match.label], loser[match.label] = present >= 1, present == 2
        due = earliest["GF"] + 1 if match.reset else earliest[match.label]  # the reset follows GF's result
        if present == 2:
            played.setdefault(due, []).append(match.label)
        elif present == 1:
            walkovers.append((due, match.label))
    waves = sorted(played)
    settled: list[list[str]] = [[] for _ in waves]
    for wave, label in walkovers:
        index = next((number for number, due in enumerate(waves) if due >= wave), len(waves) - 1)
        settled[index].append(label)
    return FlowPlan(
        rounds=tuple(tuple(played[wave]) for wave in waves),
        walkovers=tuple(tuple(labels) for labels in settled),
    )


def ready_matches(
    bracket: Bracket,
    entrants: Sequence[Entrant],
    results: Sequence[TableResult],
    opened: Collection[str],
    states: Mapping[str, MatchState] | None = None,
) -> list[DrawTable]:
    """The matches that can be played now and have no table yet (`opened` lists those that have one): both
    players known from the results (a semi-final is ready as soon as its two quarter-finals have results,
    whatever the rest of the bracket), no result yet. Seats as in `bracket_round`; bracket order. `states`:
    `bracket_states` of the same bracket, entrants and results, when the caller has them already."""
    if states is None:
        states = bracket_states(bracket, entrants, results)
    by_id = {entrant.id: entrant for entrant in entrants}
    ordered = sorted(entrants, key=lambda entrant: entrant.seed)
    rank_of = {entrant.id: position for position, entrant in enumerate(ordered)}
    tables = []
    for match in bracket.matches:
        state = states[match.label]
        if match.label in opened or state.decided or state.players is None or None in state.players:
            continue
        tables.append(DrawTable(seats=assign_seats(list(state.players), by_id, rank_of), label=match.label))
    return tables


def bracket_feeds(bracket: Bracket) -> dict[str, tuple[str, ...]]:
    """For every match, the matches its result feeds (its winner's and loser's next matches; GF feeds the
    reset GF2, which is played or not by GF's winner)."""
    return dict(_feeds(bracket))


@lru_cache(maxsize=64)
def _feeds(bracket: Bracket) -> tuple[tuple[str, tuple[str, ...]], ...]:
    feeds: dict[str, list[str]] = {match.label: [] for match in bracket.matches}
    for match in bracket.matches:
        for source in match.sources:
            if source.kind != SEED:
                feeds[cast(str, source.ref)].append(match.label)
        if match.reset:
            feeds["GF"].append(match.label)
    return tuple((label, tuple(dict.fromkeys(fed))) for label, fed in feeds.items())


def bracket_champion(
    bracket: Bracket, entrants: Sequence[Entrant], results: Sequence[TableResult]
) -> PlayerId | None:
    """The winner of the bracket, or None while it is still being played."""
    states = bracket_states(bracket, entrants, results)
    champion = None
    for label in bracket.deciding:
        state = states[label]
        if not state.decided:
            return None
        if state.winner is not None:
            champion = state.winner
    return champion


def bracket_round(
    bracket: Bracket, entrants: Sequence[Entrant], results: Sequence[TableResult], round_number: int
) -> RoundDraft:
    """Round `round_number` (from 1) of a 2-seat bracket; earlier rounds must all have results."""
    rounds = bracket_rounds(bracket, entrants, results)
    result_labels = {result.label for result in results}
    if round_number < 1:
        raise PairingError("rounds are numbered from 1")
    if round_number > len(rounds):
        if rounds and any(label not in result_labels for label in rounds[-1].labels):
            missing = [label for label in rounds[-1].labels if label not in result_labels]
            raise PairingError(f"round {len(rounds)} is not complete: no result for {', '.join(missing)}")
        raise PairingError(f"the bracket is finished after {len(rounds)} rounds")
    current = rounds[round_number - 1]
    by_id = {entrant.id: entrant for entrant in entrants}
    rank = {entrant.id: entrant.rank_key() for entrant in entrants}
    ordered = sorted(entrants, key=lambda entrant: entrant.seed)
    by_seed = {position: entrant.id for position, entrant in enumerate(ordered, start=1)}
    known = {
        result.label: result
        for result in results
        if any(result.label in r.labels for r in rounds[: round_number - 1])
    }
    states = _resolve(bracket, by_seed, known, rank)
    rank_of = {entrant.id: position for position, entrant in enumerate(ordered)}
    tables = []
    for label in current.labels:
        players = [
            player
            for player in cast("tuple[PlayerId | None, ...]", states[label].players)
            if player is not None
        ]
        tables.append(DrawTable(seats=assign_seats(players, by_id, rank_of), label=label))
    final = any(label in bracket.deciding for label in current.labels)
    return RoundDraft(
        tables=tuple(tables),
        byes=(),
        advanced=current.walkovers,
        final=final,
        quality=round_quality(tables, current.walkovers, by_id),
    )


def pod_elimination_round(
    entrants: Sequence[Entrant],
    spec: TableSpec,
    advance: int,
    results: Sequence[TableResult],
    round_number: int,
    work_limit: int = LOCAL_SEARCH_WORK,
) -> RoundDraft:
    """Round `round_number` (from 1) of a multi-seat elimination where the top `advance` of each table go on.

    Earlier rounds are rebuilt from the seeds and `results` (labelled R<round>-T<table>, the final table
    "Final"), so every earlier round must have a result for each of its tables.
    """
    check_entrants(entrants)
    if round_number < 1:
        raise PairingError("rounds are numbered from 1")
    if advance < 1:
        raise PairingError("at least one player per table must advance")
    pod_elimination_plan(len(entrants), spec, advance)
    by_id = {entrant.id: entrant for entrant in entrants}
    rank = {entrant.id: entrant.rank_key() for entrant in entrants}
    by_label = {result.label: result for result in results}
    opponents = {entrant.id: list(entrant.opponents) for entrant in entrants}
    seats = {entrant.id: list(entrant.seat_history) for entrant in entrants}
    field_ids = [entrant.id for entrant in sorted(entrants, key=lambda entrant: entrant.seed)]
    number = 1
    while True:
        if len(field_ids) <= spec.preferred:
            if number != round_number:
                raise PairingError(f"this elimination ends with the final table in round {number}")
            current = _history_entrants(field_ids, by_id, opponents, seats)
            placed = seat_tables(
                [list(range(len(current)))], current, {entrant.id: entrant for entrant in current}
            )
            final = (DrawTable(seats=placed[0].seats, label="Final"),)
            return RoundDraft(tables=final, byes=(), final=True, quality=round_quality(final, (), by_id))
        sizes, bye_count = table_sizes(len(field_ids), spec)
        advanced = field_ids[:bye_count]
        seated = _history_entrants(field_ids[bye_count:], by_id, opponents, seats)
        arranged, _cost = arrange(
            seated, sizes, deal(len(seated), sizes, snake=True), work_limit, balance=True
        )
        placed = seat_tables(arranged, seated, {entrant.id: entrant for entrant in seated})
        tables = tuple(
            DrawTable(seats=table.seats, label=f"R{number}-T{index}")
            for index, table in enumerate(placed, start=1)
        )
        if number == round_number:
            return RoundDraft(
                tables=tables,
                byes=(),
                advanced=tuple(advanced),
                quality=round_quality(tables, advanced, by_id),
            )
        survivors = [(1, by_id[player].seed, player) for player in advanced]
        for table in tables:
            result = by_label.get(table.label)
            if result is None:
                raise PairingError(f"round {number} is not complete: no result for {table.label}")
            if set(result.seats) != set(table.seats):
                raise PairingError(f"the result of {table.label} does not name the players of that table")
            order = table_order(result, rank)
            survivors.extend(
                (place, by_id[player].seed, player) for place, player in enumerate(order[:advance], 1)
            )
            for seat, player in enumerate(table.seats):
                seats[player].append(seat)
                opponents[player].extend(other for other in table.seats if other != player)
        field_ids = [player for _place, _seed, player in sorted(survivors)]
        number += 1


def pod_elimination_plan(players: int, spec: TableSpec, advance: int) -> list[tuple[list[int], int]]:
    """Table sizes and byes of every round of a multi-seat elimination, the final table last.

    The plan depends only on the field size, since exactly `advance` players leave each table. Raises
    `PairingError` for a configuration that eliminates nobody or ends below the game's minimum table size,
    so the organizer hears it before round 1.
    """
    plan = []
    remaining = players
    while remaining > spec.preferred:
        sizes, byes = table_sizes(remaining, spec)
        if min(sizes) <= advance:
            raise PairingError(f"a table of {min(sizes)} with {advance} advancing would eliminate nobody")
        plan.append((sizes, byes))
        remaining = byes + advance * len(sizes)
    if remaining < spec.minimum:
        raise PairingError(
            f"{remaining} players would reach the final, fewer than a table's minimum of {spec.minimum}; "
            "let more players advance per table"
        )
    plan.append(([remaining], 0))
    return plan


def _history_entrants(
    players: Sequence[PlayerId],
    by_id: Mapping[PlayerId, Entrant],
    opponents: Mapping[PlayerId, list[PlayerId]],
    seats: Mapping[PlayerId, list[int]],
) -> list[Entrant]:
    """Entrants with equal scores (elimination ignores points) and the history gathered so far."""
    return [
        Entrant(
            id=player,
            seed=by_id[player].seed,
            opponents=tuple(opponents[player]),
            seat_history=tuple(seats[player]),
        )
        for player in players
    ]
