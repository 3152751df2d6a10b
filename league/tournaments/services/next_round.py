"""The trigger of big days' "start the next round as soon as every table is in": a result stored (or a table
closed) at the last waiting table of a round queues the next round's task after the commit
(`big_days.round_advance`, run by `tasks.round_advance_task`, named rather than imported: services never
import tasks)."""

from __future__ import annotations

from celery import signature
from django.db import transaction

from league.matches.models import Match
from league.tournaments.formats import flows
from league.tournaments.models import Round, Table, Tournament

ADVANCE_TASK = "league.tournaments.tasks.round_advance_task"


def advance_when_every_table_is_in(round_id: int) -> bool:
    """Inside the transaction of a result at a table of round `round_id`: when its tournament starts the
    next round by itself and no table of the round still waits, queue the task after the commit. Whether it
    was queued. Brackets played match by match open their matches by themselves: never queued there."""
    round_row = Round.objects.select_related("tournament").get(pk=round_id)
    tournament = round_row.tournament
    if (
        not tournament.auto_next_round
        or tournament.status != Tournament.Status.RUNNING
        or round_row.status != Round.Status.PUBLISHED
        or flows(tournament, round_row.number)
    ):
        return False
    done = (Match.Status.FINISHED, Match.Status.VOID)
    if Table.objects.filter(round_id=round_id).exclude(match__status__in=done).exists():
        return False
    transaction.on_commit(lambda: signature(ADVANCE_TASK, args=(round_id,)).delay())
    return True
