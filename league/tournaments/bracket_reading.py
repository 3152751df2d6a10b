"""Reading a 2-seat bracket played match by match, for the services that open its matches
(`services/brackets.py`) and correct its results (`services/tables.py`) and for the pages: the drawn
bracket, the matches ready to open, its rounds, and what a correction would undo."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from league.core.errors import UserError
from league.pairing import Bracket as PairingBracket
from league.pairing import (
    Entrant,
    PairingError,
    TableResult,
    bracket_champion,
    bracket_feeds,
    bracket_states,
    flow_plan,
    ready_matches,
    table_order,
)
from league.tournaments import ranking, seam
from league.tournaments.formats import flows, table_cut
from league.tournaments.history import History, HistoryTable
from league.tournaments.models import Round, Tournament
from league.tournaments.models import Table as TableRow


def is_finished(history: History, completed: Round) -> bool:
    """Whether the tournament is over once `completed` (the latest round) is complete."""
    tournament = history.tournament
    planned = seam.planned_rounds(history.tournament, history)
    if planned is not None:
        return completed.number >= planned
    if not completed.final:
        return False
    elimination = (
        tournament.cut_format if tournament.format == Tournament.Format.STAGES else tournament.format
    )
    if elimination != Tournament.Format.DOUBLE_ELIMINATION:
        return True
    bracket = bracket_of(history)
    return (
        bracket is not None
        and bracket_champion(bracket.bracket, bracket.entrants, bracket.results) is not None
    )


@dataclass
class DrawnBracket:
    """A 2-seat bracket with the entrants and labelled results it is played with."""

    bracket: Any
    entrants: list[Entrant]
    results: list[TableResult]
    first_round: int


def bracket_of(history: History) -> DrawnBracket | None:
    """The drawn 2-seat bracket of an elimination tournament or a top cut, once its first round exists."""
    part = ranking.elimination_part(history)
    if part is None or history.tournament.table_size != 2:
        return None
    return DrawnBracket(
        ranking.drawn_bracket(history.tournament, part), part.entrants, part.results, part.first_round
    )


@dataclass(frozen=True)
class ReadyMatch:
    """A bracket match whose players are known and which has no table yet: its round (the bracket's column),
    its position in that column (from 1), its label and its players in seat order."""

    round_number: int
    position: int
    label: str
    seats: tuple[int, ...]


@dataclass(frozen=True)
class FlowRound:
    """A round of a bracket played match by match: its matches, whether every one is decided, whether it
    holds a deciding match, and who went through by walkover with it."""

    number: int
    labels: tuple[str, ...]
    decided: bool
    final: bool
    advanced: tuple[int, ...]


@dataclass
class BracketFlow:
    """Where a bracket played match by match stands: the matches ready to open, its rounds, whether the
    champion is decided, and the live table of each match that has one (a reset table is not live)."""

    ready: list[ReadyMatch]
    rounds: list[FlowRound]
    finished: bool
    live: dict[str, HistoryTable]
    feeds: dict[str, tuple[str, ...]]
    drawn: PairingBracket


def live_tables(history: History, first_round: int) -> dict[str, HistoryTable]:
    """The table each bracket match is played at (the latest; a table reset by a correction is not live)."""
    live: dict[str, HistoryTable] = {}
    for round_row in history.round_rows:
        if round_row.number < first_round:
            continue
        for table in history.tables[round_row.pk]:
            if table.label and table.closed_as != TableRow.Closed.RESET:
                live[table.label] = table
    return live


def bracket_flow(history: History) -> BracketFlow | None:
    """The state of a 2-seat bracket played match by match, once its first round is published; else None."""
    part = ranking.elimination_part(history)
    if (
        part is None
        or part.first_round not in history.rounds
        or not flows(history.tournament, part.first_round)
    ):
        return None
    drawn = DrawnBracket(
        ranking.drawn_bracket(history.tournament, part), part.entrants, part.results, part.first_round
    )  # bracket_of
    plan = flow_plan(drawn.bracket)
    live = live_tables(history, part.first_round)
    try:
        states = bracket_states(drawn.bracket, part.entrants, part.results)
        ready = ready_matches(drawn.bracket, part.entrants, part.results, set(live), states)
    except PairingError as exc:
        raise UserError(str(exc)) from None
    offset = part.first_round - 1
    opened = [
        ReadyMatch(
            offset + plan.round_of(table.label),
            plan.rounds[plan.round_of(table.label) - 1].index(table.label) + 1,
            table.label,
            seam.ids(table.seats),
        )
        for table in ready
    ]
    rounds = [
        FlowRound(
            number=offset + index,
            labels=labels,
            decided=all(states[label].decided for label in labels),
            final=any(label in drawn.bracket.deciding for label in labels),
            advanced=seam.ids(
                states[label].winner
                for label in (*plan.walkovers[index - 1], *labels)
                if states[label].decided and states[label].walkover and states[label].winner is not None
            ),
        )
        for index, labels in enumerate(plan.rounds, start=1)
    ]
    finished = all(states[label].decided for label in drawn.bracket.deciding)
    return BracketFlow(opened, rounds, finished, live, bracket_feeds(drawn.bracket), drawn.bracket)


def correction_resets(
    history: History, table: TableRow, places: Sequence[int], advancing: Sequence[int] | None
) -> list[HistoryTable]:
    """The live tables a correction at bracket table `table` would undo: when the new places (and decider)
    change who won or lost, every later match its result feeds (directly or through other matches) that
    already has a table, in round and table order. [] when the outcome stays."""
    flow = bracket_flow(history)
    if flow is None or flow.live.get(table.label) is None or flow.live[table.label].pk != table.pk:
        return []
    part = cast(
        ranking.EliminationPart, ranking.elimination_part(history)
    )  # a bracket flow comes from an elimination part
    match_id = cast(int, table.match_id)  # a live bracket table has its match
    seated = [seat.player_id for seat in history.seats.get(match_id, [])]
    corrected = TableResult(
        seats=tuple(seated),
        places=dict(zip(seated, places, strict=True)),
        label=table.label,
        advancing=tuple(advancing or ()),
    )
    downstream: list[str] = []
    waiting = list(flow.feeds[table.label])
    while waiting:
        label = waiting.pop(0)
        if label not in downstream:
            downstream.append(label)
            waiting.extend(flow.feeds[label])
    upstream = [
        result for result in part.results if result.label != table.label and result.label not in downstream
    ]
    before = bracket_states(flow.drawn, part.entrants, part.results)[table.label]
    after = bracket_states(flow.drawn, part.entrants, [*upstream, corrected])[table.label]
    if (before.winner, before.loser) == (after.winner, after.loser):
        return []
    undone = [flow.live[label] for label in downstream if label in flow.live]
    return sorted(undone, key=lambda row: (row.round_id, row.number))


def pod_correction_round(
    history: History, table: TableRow, places: Sequence[int], advancing: Sequence[int] | None
) -> Round | None:
    """At a multi-seat elimination table (not the final table), the later round that a correction changing
    who goes through would contradict: the first round after the table's that exists (a draft counts), when
    the new places (and decider) send other players through than the counting result. None otherwise (a
    2-seat bracket has its own rule: `correction_resets`)."""
    tournament = history.tournament
    number = table.round.number
    cut = table_cut(tournament, number, table.label)
    if tournament.table_size == 2 or cut is None or not table.match_id:
        return None
    later = next((row for row in history.round_rows if row.number > number), None)
    played = history.rounds.get(number)
    current = next(
        (result for result in (played.tables if played else ()) if result.label == table.label), None
    )
    part = ranking.elimination_part(history)
    if later is None or current is None or part is None:
        return None
    seeds = history.seeds
    rank = {entrant.id: entrant.rank_key() for entrant in part.entrants}
    rank.update({pid: (0, 0, seam.keyed(seeds).get(pid, 0)) for pid in current.seats if pid not in rank})
    corrected = TableResult(
        seats=current.seats,
        places=dict(zip(current.seats, places, strict=True)),
        label=table.label,
        advancing=tuple(advancing or ()),
    )
    before = set(table_order(current, rank)[:cut])
    after = set(table_order(corrected, rank)[:cut])
    return later if before != after else None
