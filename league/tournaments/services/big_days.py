"""Big days: "start the next round as soon as every table is in" (a tournament's `auto_next_round`).

When the last table of a round gets its result, `next_round.advance_when_every_table_is_in` queues
`round_advance` (the task `tasks.round_advance_task`). It completes the round, generates the next one and
publishes it only when its draft has no warning (`draft_warnings`) and no dispute is open in the
tournament; otherwise the round waits as a draft and the organizers are told (`events.round_waiting`), as
they are when the next round cannot be generated. It acts as the system (the audit log names no one) and is
safe to run twice: a round already complete whose next round exists is left alone.
"""

from __future__ import annotations

from django.db import transaction

from league.core import events
from league.core.errors import UserError
from league.matches.models import Match
from league.tournaments.draft_warnings import draft_warnings
from league.tournaments.formats import flows
from league.tournaments.models import Round, Tournament
from league.tournaments.report_selectors import open_disputes
from league.tournaments.services.audit import Action, audit
from league.tournaments.services.common import last_round, tournament_locked
from league.tournaments.services.rounds import complete_round, generate_round, publish_round


def round_advance(*, round_id: int) -> str:
    """Complete round `round_id` and start the next one as `auto_next_round` says; what happened, in a
    word: "published", "waiting" (a draft with warnings or an open dispute), "refused" (the next round
    could not be generated: the organizers are told why), or "nothing" (the setting is off, a table still
    waits, the tournament is over, or the next round exists already)."""
    round_row = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if round_row is None:
        return "nothing"
    with transaction.atomic():
        tournament = tournament_locked(round_row.tournament)
        locked = Round.objects.select_for_update().get(pk=round_id)
        if (
            not tournament.auto_next_round
            or tournament.status != Tournament.Status.RUNNING
            or flows(tournament, locked.number)
            or locked.status == Round.Status.DRAFT
        ):
            return "nothing"
        newest = last_round(tournament)
        if newest is None or newest.pk != locked.pk:
            return "nothing"  # the next round exists already (a second run, or an organizer was quicker)
        if locked.status == Round.Status.PUBLISHED:
            done = (Match.Status.FINISHED, Match.Status.VOID)
            if locked.tables.exclude(match__status__in=done).exists():
                return "nothing"
            complete_round(locked, None)
            tournament.refresh_from_db()
            if tournament.status != Tournament.Status.RUNNING:
                return "nothing"  # that was the last round
        try:
            with transaction.atomic():
                draft = generate_round(tournament, None)
        except UserError as exc:
            _waiting(tournament, locked.number + 1, problem=exc.message)
            return "refused"
        draft.tournament = tournament
        warnings = draft_warnings(draft)
        disputes = open_disputes(tournament)
        if warnings or disputes:
            _waiting(tournament, draft.number, warnings=len(warnings), disputes=len(disputes))
            return "waiting"
        publish_round(draft, None)
    return "published"


def _waiting(
    tournament: Tournament, number: int, *, warnings: int = 0, disputes: int = 0, problem: str = ""
) -> None:
    audit(
        tournament,
        None,
        Action.ROUND_WAITING,
        round=number,
        warnings=warnings,
        disputes=disputes,
        problem=problem,
    )
    events.emit(
        events.round_waiting,
        tournament_id=tournament.pk,
        round_number=number,
        warnings=warnings,
        disputes=disputes,
        problem=problem,
    )
