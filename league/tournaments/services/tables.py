"""Results at a published table, entered through the league's result service: a result or a correction (by
an organizer or a scorekeeper), or closing the table as a no-show or forfeit (organizers only: it drops
no-shows)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from league.core import events
from league.core.catalogue import game_spec
from league.core.errors import UserError, VersionConflict
from league.matches.models import Match
from league.players.models import Player
from league.results.models import ResultDispute, ResultVersion
from league.results.services import check_outcome, result_reopen, result_submit
from league.tournaments.bracket_reading import correction_resets, pod_correction_round
from league.tournaments.errors import StateConflict
from league.tournaments.formats import flows, table_cut
from league.tournaments.history import load_history
from league.tournaments.models import Registration, Round, Table, Tournament
from league.tournaments.services.audit import Action, audit
from league.tournaments.services.brackets import bracket_sync, tables_reset
from league.tournaments.services.checks import check_advancing
from league.tournaments.services.common import (
    bump_public_version,
    check_organizer,
    check_scorer,
    tournament_locked,
)
from league.tournaments.services.forfeits import close_table, leavers_last
from league.tournaments.services.lifecycle import undo_entry
from league.tournaments.services.next_round import advance_when_every_table_is_in


def _published_table(table: Table, by: User, *, check=check_organizer) -> Table:
    """The table read afresh (the caller's copy of its round may be stale), checked to be published, after
    `check` (the organizer check, or the scorekeeper check for results)."""
    table = Table.objects.select_related("round__tournament", "match").get(pk=table.pk)
    check(user=by, tournament=table.round.tournament)
    if table.round.status == Round.Status.DRAFT or table.match_id is None:
        raise StateConflict(f"round {table.round.number} is a draft: publish it before entering results")
    return table


def table_result(
    *,
    table: Table,
    by: User,
    expected_version: Any,
    places: Any = None,
    scores: Any = None,
    reason: str = "",
    advancing: Any = None,
    reset: bool = False,
) -> Table:
    """Enter (or correct) a table's result through the league's result service. A correction of an earlier
    round is allowed: standings, tie-breaks and ratings follow. Organizers and the tournament's scorekeepers
    do this.

    At an elimination table whose places leave the cut undecided (a tie between the last player who would
    go through and the first who would not), `advancing` names who goes through; it is stored with the
    result version. Without it such a result is refused (`check_advancing`).

    In a bracket played match by match (`brackets`), the result opens the matches it makes ready. A
    correction that changes who won, once the players of a later match come from it, is refused (409) unless
    `reset` is true: then the later matches are reset first (`brackets.tables_reset`) and open again with
    the corrected players. Elsewhere published pairings stay as they are."""
    table = _published_table(table, by, check=check_scorer)
    return table_record(
        table=table,
        by=by,
        expected_version=expected_version,
        places=places,
        scores=scores,
        reason=reason,
        advancing=advancing,
        reset=reset,
    )


def check_decider(
    table: Table, places: Any, scores: Any, advancing: Any
) -> tuple[list[int] | None, list[int] | None]:
    """(places checked, decider) of a result at `table`: at an elimination table whose places leave the cut
    undecided, `advancing` must say who goes through (`check_advancing`, 400 otherwise); (None, None)
    where no cut applies and no decider is given."""
    tournament = table.round.tournament
    if not advancing and table_cut(tournament, table.round.number, table.label) is None:
        return None, None
    seated = list(table.published_match.seats.order_by("seat").values_list("player_id", "player__name"))
    spec = game_spec(tournament.game_id)
    checked, _ = check_outcome(
        num_seats=len(seated), score_order=spec.score_order, places=places, scores=scores
    )
    ids = [pid for pid, _ in seated]
    decider = check_advancing(
        tournament, table.round.number, table.label, ids, checked, advancing, dict(seated)
    )
    return checked, decider


def table_record(
    *,
    table: Table,
    by: User | None,
    expected_version: Any,
    places: Any = None,
    scores: Any = None,
    reason: str = "",
    advancing: Any = None,
    reset: bool = False,
    report_id: int | None = None,
) -> Table:
    """Store a result at a published `table` (read afresh, the caller checked who may): the one code path
    of an organizer's entry (`table_result`) and of a players' report confirmed by everyone it awaited
    (`reports.table_confirm`, with `report_id`, entered by the reporter). Checks the decider, resets or
    refuses what a correction changes, stores the version, reopens a closed table and, in a bracket played
    match by match, opens the matches the result makes ready. At a table a dropped player left during its
    round (`absent` on a table still open), the leavers are placed last (`forfeits.leavers_last`)."""
    _check_live(table)
    tournament = table.round.tournament
    if table.absent and not table.closed_as:
        seats = list(table.published_match.seats.order_by("seat").values_list("player_id", flat=True))
        places = leavers_last(table, seats, places, scores, game_spec(tournament.game_id).score_order)
    checked, decider = check_decider(table, places, scores, advancing)
    flowing = flows(tournament, table.round.number)
    with transaction.atomic():
        if flowing:
            tournament_locked(tournament)
            undone = _later_matches(table, checked, decider)
            if undone and not reset:
                raise StateConflict(_reset_message(table.label, undone), field="reset")
            tables_reset(tournament=tournament, tables=undone, by=by, cause=table.label)
        elif checked is not None and table.published_match.result_version:
            _check_later_round(tournament, table, checked, decider)
        version = result_submit(
            match_id=table.published_match_id,
            expected_version=expected_version,
            places=places,
            scores=scores,
            entered_by=by,
            reason=reason,
            advancing=decider,
            report_id=report_id,
            owner=Match.Owner.TABLE,
        )
        bump_public_version(tournament.pk)
        _audit_result(tournament, table, by, version)
        events.emit(
            events.result_recorded, tournament_id=tournament.pk, table_id=table.pk, version_id=version.pk
        )
        if table.closed_as:
            table.closed_as = Table.Closed.NO
            table.absent = []
            table.save(update_fields=["closed_as", "absent"])
        if flowing:
            bracket_sync(tournament=tournament, by=by)
        else:
            advance_when_every_table_is_in(table.round_id)
    return table


def _audit_result(tournament: Tournament, table: Table, by: User | None, version: ResultVersion) -> None:
    """Log a correction (a version after the first that counted) and the dispute an entry settles; a first
    result is not logged (the results themselves are the record)."""
    where = {"round": table.round.number, "table": table.number, "label": table.label}
    settled = ResultDispute.objects.filter(settled_by=version).values_list("pk", flat=True).first()
    if settled is not None:
        audit(tournament, by, Action.DISPUTE_SETTLED, **where, version=version.version, dispute_id=settled)
    elif version.version > 1 and table.published_match.status != Match.Status.SCHEDULED:
        audit(
            tournament,
            by,
            Action.RESULT_CORRECTED,
            **where,
            version=version.version,
            places=version.places,
            reason=version.reason,
        )


def _check_live(table: Table) -> None:
    if table.closed_as == Table.Closed.RESET:
        raise StateConflict(
            f"table {table.number} of round {table.round.number} was reset by a correction: "
            f"{table.label} is played at its new table"
        )


def _later_matches(table: Table, places: list[int] | None, advancing: list[int] | None) -> list[Table]:
    """The live tables of later matches whose players a new result at `table` (`places`) would change."""
    if places is None or not table.published_match.result_version:
        return []
    later = correction_resets(load_history(table.round.tournament, names=False), table, places, advancing)
    if not later:
        return []
    # the rows themselves, to reset (the history holds their values)
    rows = Table.objects.select_related("round", "match").in_bulk([row.pk for row in later])
    return [rows[row.pk] for row in later]


def _check_later_round(
    tournament: Tournament, table: Table, places: list[int], decider: list[int] | None
) -> None:
    """Refuse a correction at a multi-seat elimination table that changes who goes through once a later
    round exists (`pod_correction_round`): that round was seated from the result being corrected. A
    draft can be discarded first; a published round stays, so such a correction is refused for good."""
    tournament_locked(tournament)
    later = pod_correction_round(load_history(tournament, names=False), table, places, decider)
    if later is None:
        return
    head = f"the result of {table.label} already sent players to round {later.number}"
    if later.status == Round.Status.DRAFT:
        raise StateConflict(
            f"{head} (a draft): correcting who goes through changes that round; discard the draft of round "
            f"{later.number} first, then correct the result",
            field="places",
        )
    raise StateConflict(
        f"{head}, which is published: a correction that changes who goes through cannot be made "
        "once the next round is published (a correction that keeps who goes through can)",
        field="places",
    )


def _reset_message(label: str, undone: Sequence[Table]) -> str:
    labels = [later.label for later in undone]
    named = labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} and {labels[-1]}"
    first = undone[0]
    return (
        f"the result of {label} already plays on in {first.label} (round {first.round.number}, table "
        f"{first.number}): correcting who won resets {named} (voided, then played again with the right "
        "players); confirm the reset to correct it"
    )


def table_close(
    *, table: Table, by: User, absent: Any, kind: str, reason: str = "", advancing: Any = None
) -> Table:
    """Close a table as a no-show or forfeit. Absent players share last place and present players share
    first; with nobody present the match is void and nobody scores. No-shows are paired no more.

    At an elimination table where more players are present than go through (they share first place: a tie
    at the cut), `advancing` names who goes through, as for a result (`check_advancing`); without it
    the close is refused. A 2-seat match has one player present at most, so it never needs one."""
    table = _published_table(table, by)
    _check_live(table)
    if kind not in (Table.Closed.NO_SHOW, Table.Closed.FORFEIT):
        raise UserError("close a table as no_show or forfeit", field="kind")
    seats = list(table.published_match.seats.order_by("seat").values_list("player_id", flat=True))
    if not isinstance(absent, list | tuple) or not absent or not all(pid in seats for pid in absent):
        raise UserError("name the absent players among the table's players", field="absent")
    tournament = table.round.tournament
    decider = None
    if len(set(absent)) < len(seats):
        names = dict(table.published_match.seats.values_list("player_id", "player__name"))
        present_places = [len(seats) - len(set(absent)) + 1 if pid in absent else 1 for pid in seats]
        decider = check_advancing(
            tournament, table.round.number, table.label, seats, present_places, advancing, names
        )
    elif advancing:
        raise UserError("nobody is present at this table: nobody goes through", field="advancing")
    flowing = flows(tournament, table.round.number)
    with transaction.atomic():
        if flowing:
            tournament_locked(tournament)
            places = [len(seats) if pid in absent else 1 for pid in seats]
            undone = _later_matches(table, places if len(set(absent)) < len(seats) else None, None)
            if undone:
                raise StateConflict(_reset_message(table.label, undone), field="reset")
        elif table.published_match.result_version and len(set(absent)) < len(seats):
            places = [len(seats) - len(set(absent)) + 1 if pid in absent else 1 for pid in seats]
            _check_later_round(tournament, table, places, decider)
        close_table(table, seats, absent, kind, by, reason, decider)
        no_shows: list[int] = []
        if kind == Table.Closed.NO_SHOW:
            marked = Registration.objects.filter(
                tournament=tournament, player_id__in=absent, status=Registration.Status.ACTIVE
            )
            no_shows = sorted(marked.values_list("player_id", flat=True))
            marked.update(status=Registration.Status.NO_SHOW, left_after_round=table.round.number)
        names = dict(Player.objects.filter(pk__in=absent).values_list("pk", "name"))
        audit(
            tournament,
            by,
            Action.TABLE_CLOSED,
            round=table.round.number,
            table=table.number,
            label=table.label,
            kind=kind,
            absent=[names[pid] for pid in absent],
            # what its undo (`table_close_undo`) puts back
            table_id=table.pk,
            version=Match.objects.values_list("result_version", flat=True).get(pk=table.published_match_id),
            no_shows=no_shows,
        )
        if flowing:
            bracket_sync(tournament=tournament, by=by)
    return table


def table_close_undo(*, table: Table, by: User) -> Table:
    """Undo an organizer's closing of `table` as a no-show or forfeit within `UNDO_MINUTES` of it: the table
    waits for its result again, and the players the closing marked no-shows play on. Refused (409) once its
    result changed since, its round is complete, or in a bracket played match by match (whose later
    matches the closing may have opened: correct the result instead)."""
    table = _published_table(table, by)
    tournament = table.round.tournament
    if table.closed_as not in (Table.Closed.NO_SHOW, Table.Closed.FORFEIT):
        raise StateConflict(
            f"table {table.number} of round {table.round.number} is not closed", field="status"
        )
    if table.round.status == Round.Status.COMPLETE:
        raise StateConflict(
            f"round {table.round.number} is complete: correct the result instead", field="status"
        )
    if flows(tournament, table.round.number):
        raise StateConflict(
            "in a bracket played match by match a closing is not undone: correct the result instead",
            field="status",
        )
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        entry = undo_entry(tournament, Action.TABLE_CLOSED, "closing of this table", table_id=table.pk)
        try:
            result_reopen(
                match_id=table.published_match_id,
                expected_version=entry.details["version"],
                entered_by=by,
                reason="the closing was undone",
                owner=Match.Owner.TABLE,
            )
        except VersionConflict:
            raise StateConflict(
                "the table's result changed since it was closed: correct the result instead", field="status"
            ) from None
        no_shows = entry.details.get("no_shows", [])
        Registration.objects.filter(
            tournament=tournament, player_id__in=no_shows, status=Registration.Status.NO_SHOW
        ).update(status=Registration.Status.ACTIVE, left_after_round=None)
        table.closed_as = Table.Closed.NO
        table.absent = []
        table.save(update_fields=["closed_as", "absent"])
        audit(
            tournament,
            by,
            Action.TABLE_CLOSE_UNDONE,
            round=table.round.number,
            table=table.number,
            label=table.label,
            kind=entry.details.get("kind"),
            absent=entry.details.get("absent", []),
        )
    return table
