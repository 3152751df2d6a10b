"""2-seat brackets played match by match (single and double elimination, a stage sequence's 2-seat top cut).

After the bracket's first round is published, nobody generates rounds: every result (an entry, a correction,
a table closed, a player leaving) opens the matches whose players are now known, at once and in their round
(the bracket's column), so a semi-final starts while the other quarter-final is still being played. Rounds
complete by themselves when every match of their column is decided, and the tournament finishes when the
champion is known (or runs again when a correction reopens the final).

A correction that changes who won a match whose players already play on is refused unless the organizer
resets the later matches: each later table's match is voided by a new result version (the versions before it
stay, the match no longer counts, and a rated one is replayed out of its pool), the table is marked reset,
and the match opens again at a new table with the players the corrected result gives.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db.models import Max
from django.utils import timezone

from league.core import events
from league.matches.models import Match
from league.matches.services import check_owned
from league.results.services import matches_create, result_void
from league.tournaments.bracket_reading import BracketFlow, bracket_flow
from league.tournaments.history import load_history
from league.tournaments.models import Round, Table, Tournament
from league.tournaments.services.audit import Action, audit
from league.tournaments.services.common import tournament_locked
from league.tournaments.services.forfeits import tables_forfeit_departed


def bracket_sync(*, tournament: Tournament, by: User | None) -> list[Table]:
    """Open every bracket match that is ready, update the rounds' and the tournament's status; the tables
    opened. A match opened for a player who already left the tournament closes as a forfeit at once
    (`forfeits.tables_forfeit_departed`; with both players gone it is void and the match it feeds is a
    walkover), and the matches that makes ready open in turn. Does nothing for other formats. Call inside a
    transaction (it takes the tournament row lock)."""
    tournament = tournament_locked(tournament)
    opened: list[Table] = []
    while True:
        history = load_history(tournament, names=False)
        flow = bracket_flow(history)
        if flow is None:
            return []
        rows = {row.number: row for row in history.round_rows}
        batch = _open(tournament, flow, rows, by)
        opened += batch
        if not batch or not tables_forfeit_departed(tournament=tournament, tables=batch, by=by):
            break
    _update_rounds(tournament, flow, rows, batch)  # the tables of the last batch wait for results
    ready = [table.pk for table in opened if not table.closed_as]
    if ready:
        events.emit(events.table_ready, tournament_id=tournament.pk, table_ids=ready)
    if flow.finished and tournament.status == Tournament.Status.RUNNING:
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        audit(tournament, None, Action.FINISHED, after_round=max(rows), early=False)
        events.emit(events.tournament_finished, tournament_id=tournament.pk)
    elif not flow.finished and tournament.status == Tournament.Status.FINISHED:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return opened


def _open(tournament: Tournament, flow: BracketFlow, rows: dict[int, Round], by: User | None) -> list[Table]:
    """Open the ready matches of `flow` at new tables of their rounds (a round created when it has none
    yet)."""
    now = timezone.now()
    opened: list[Table] = []
    for number in sorted({ready.round_number for ready in flow.ready}):
        round_row = rows.get(number)
        if round_row is None:
            round_row = Round.objects.create(
                tournament=tournament, number=number, status=Round.Status.PUBLISHED, published_at=now
            )
            rows[number] = round_row
        taken = set(round_row.tables.values_list("number", flat=True))
        top = round_row.tables.aggregate(top=Max("number"))["top"] or 0
        for ready in (ready for ready in flow.ready if ready.round_number == number):
            table_number = ready.position if ready.position not in taken else max(top, *taken) + 1
            taken.add(table_number)
            opened.append(
                Table(
                    round=round_row, number=table_number, label=ready.label, planned_seats=list(ready.seats)
                )
            )
    if opened:
        match_ids = matches_create(
            game_id=tournament.game_id,
            options=tournament.options,
            rated=tournament.rated,
            tables=[table.planned_seats for table in opened],
            played_at=now,
            created_by=by,
        )
        check_owned(match_ids=match_ids, owner=Match.Owner.TABLE)
        for table, match_id in zip(opened, match_ids, strict=True):
            table.match_id = match_id
        Table.objects.bulk_create(opened)
    return opened


def _update_rounds(
    tournament: Tournament, flow: BracketFlow, rows: dict[int, Round], opened: list[Table]
) -> None:
    """Each bracket round complete exactly when every match of its column is decided; walkovers listed."""
    now = timezone.now()
    for plan in flow.rounds:
        round_row = rows.get(plan.number)
        if round_row is None or round_row.status == Round.Status.DRAFT:
            continue
        complete = plan.decided and not any(table.round_id == round_row.pk for table in opened)
        status = Round.Status.COMPLETE if complete else Round.Status.PUBLISHED
        changed = {"final": plan.final, "advanced": list(plan.advanced), "status": status}
        if status == Round.Status.COMPLETE and round_row.status != status:
            changed["completed_at"] = now
            audit(tournament, None, Action.ROUND_COMPLETED, round=round_row.number)
        if status == Round.Status.PUBLISHED:
            changed["completed_at"] = None
            changed["published_at"] = round_row.published_at or now
        if any(getattr(round_row, name) != value for name, value in changed.items()):
            for name, value in changed.items():
                setattr(round_row, name, value)
            round_row.save(update_fields=list(changed))


def tables_reset(*, tournament: Tournament, tables: Sequence[Table], by: User | None, cause: str) -> None:
    """Reset bracket tables (`by` confirmed it) because the result of the match labelled `cause` is
    corrected: each match is voided by a new result version (entered by `by`, reason "reset: <label> is
    played again after a correction of <cause>"; the versions before it stay; a rated one that counted is
    replayed out of its pool), the table marked reset, and the reset logged (`result.reset`). Call inside a
    transaction holding the tournament row lock."""
    for table in tables:
        if Match.objects.filter(pk=table.published_match_id).exclude(status=Match.Status.VOID).exists():
            result_void(
                match_id=table.published_match_id,
                entered_by=by,
                reason=f"reset: {table.label} is played again after a correction of {cause}",
                owner=Match.Owner.TABLE,
            )
        table.closed_as = Table.Closed.RESET
        table.save(update_fields=["closed_as"])
        audit(
            tournament,
            by,
            Action.RESULT_RESET,
            round=table.round.number,
            table=table.number,
            label=table.label,
        )
