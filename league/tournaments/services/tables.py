"""Results at a published table, entered through the league's result service: a result or a correction (by
an organizer or a scorekeeper), or closing the table as a no-show or forfeit (organizers only: it drops
no-shows)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from league.core.catalogue import game_spec
from league.core.errors import UserError
from league.matches.models import Match, MatchSeat
from league.players.models import Player
from league.results.services import check_outcome, result_submit, result_void
from league.tournaments import seam
from league.tournaments.errors import StateConflict
from league.tournaments.models import Registration, Round, Table, Tournament
from league.tournaments.services.audit import Action, audit
from league.tournaments.services.brackets import bracket_sync, tables_reset
from league.tournaments.services.common import check_organizer, check_scorer, tournament_locked


def _published_table(table: Table, by: AbstractBaseUser, *, check=check_organizer) -> Table:
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
    by: AbstractBaseUser,
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
    result version. Without it such a result is refused (`seam.check_advancing`).

    In a bracket played match by match (`brackets`), the result opens the matches it makes ready. A
    correction that changes who won, once the players of a later match come from it, is refused (409) unless
    `reset` is true: then the later matches are reset first (`brackets.tables_reset`) and open again with
    the corrected players. Elsewhere published pairings stay as they are."""
    table = _published_table(table, by, check=check_scorer)
    _check_live(table)
    tournament = table.round.tournament
    decider = None
    checked = None
    if advancing or seam.table_cut(tournament, table.round.number, table.label) is not None:
        seated = list(table.match.seats.order_by("seat").values_list("player_id", "player__name"))
        spec = game_spec(tournament.game_id)
        checked, _ = check_outcome(num_seats=len(seated), score_order=spec.score_order, places=places, scores=scores)
        ids = [pid for pid, _ in seated]
        decider = seam.check_advancing(tournament, table.round.number, table.label, ids, checked, advancing,
                                       dict(seated))  # fmt: skip
    flowing = seam.flows(tournament, table.round.number)
    with transaction.atomic():
        if flowing:
            tournament_locked(tournament)
            undone = _later_matches(table, checked, decider)
            if undone and not reset:
                raise StateConflict(_reset_message(table.label, undone), field="reset")
            tables_reset(tournament=tournament, tables=undone, by=by)
        result_submit(
            match_id=table.match_id,
            expected_version=expected_version,
            places=places,
            scores=scores,
            entered_by=by,
            reason=reason,
            advancing=decider,
        )
        if table.closed_as:
            table.closed_as = Table.Closed.NO
            table.absent = []
            table.save(update_fields=["closed_as", "absent"])
        if flowing:
            bracket_sync(tournament=tournament, by=by)
    return table


def _check_live(table: Table) -> None:
    if table.closed_as == Table.Closed.RESET:
        raise StateConflict(
            f"table {table.number} of round {table.round.number} was reset by a correction: "
            f"{table.label} is played at its new table"
        )


def _later_matches(table: Table, places: list[int] | None, advancing: list[int] | None) -> list[Table]:
    """The live tables of later matches whose players a new result at `table` (`places`) would change."""
    if places is None or not table.match.result_version:
        return []
    return seam.correction_resets(seam.load_history(table.round.tournament), table, places, advancing)


def _reset_message(label: str, undone: Sequence[Table]) -> str:
    labels = [later.label for later in undone]
    named = labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} and {labels[-1]}"
    first = undone[0]
    return (
        f"the result of {label} already plays on in {first.label} (round {first.round.number}, table "
        f"{first.number}): correcting who won resets {named} (voided, then played again with the right "
        "players); confirm the reset to correct it"
    )


def table_close(*, table: Table, by: AbstractBaseUser, absent: Any, kind: str, reason: str = "") -> Table:
    """Close a table as a no-show or forfeit. Absent players share last place and present players share
    first; with nobody present the match is void and nobody scores. No-shows are paired no more."""
    table = _published_table(table, by)
    _check_live(table)
    if kind not in (Table.Closed.NO_SHOW, Table.Closed.FORFEIT):
        raise UserError("close a table as no_show or forfeit", field="kind")
    seats = list(table.match.seats.order_by("seat").values_list("player_id", flat=True))
    if not isinstance(absent, list | tuple) or not absent or not all(pid in seats for pid in absent):
        raise UserError("name the absent players among the table's players", field="absent")
    tournament = table.round.tournament
    flowing = seam.flows(tournament, table.round.number)
    with transaction.atomic():
        if flowing:
            tournament_locked(tournament)
            places = [len(seats) if pid in absent else 1 for pid in seats]
            undone = _later_matches(table, places if len(set(absent)) < len(seats) else None, None)
            if undone:
                raise StateConflict(_reset_message(table.label, undone), field="reset")
        _close(table, seats, absent, kind, by, reason)
        if kind == Table.Closed.NO_SHOW:
            Registration.objects.filter(
                tournament=tournament, player_id__in=absent, status=Registration.Status.ACTIVE
            ).update(status=Registration.Status.NO_SHOW, left_after_round=table.round.number)
        names = dict(Player.objects.filter(pk__in=absent).values_list("pk", "name"))
        audit(tournament, by, Action.TABLE_CLOSED, round=table.round.number, table=table.number,
              label=table.label, kind=kind, absent=[names[pid] for pid in absent])  # fmt: skip
        if flowing:
            bracket_sync(tournament=tournament, by=by)
    return table


def _close(table: Table, seats: list[int], absent: Any, kind: str, by: AbstractBaseUser, reason: str) -> None:
    """Close `table` (published; its match locked here) with `absent` players placed last; inside a
    transaction."""
    absent = sorted(set(absent), key=seats.index)
    match = Match.objects.select_for_update().get(pk=table.match_id)
    if len(absent) == len(seats):
        result_void(match_id=match.pk)
    else:
        places = [len(seats) - len(absent) + 1 if pid in absent else 1 for pid in seats]
        label = Table.Closed(kind).label.lower()
        result_submit(
            match_id=match.pk,
            expected_version=match.result_version,
            places=places,
            entered_by=by,
            reason=reason or (f"closed as {label}" if match.result_version else ""),
        )
    table.closed_as = kind
    table.absent = absent
    table.save(update_fields=["closed_as", "absent"])


DEPARTED = (Registration.Status.DROPPED, Registration.Status.NO_SHOW)


def tables_forfeit_departed(
    *, tournament: Tournament, tables: Sequence[Table], by: AbstractBaseUser
) -> list[Table]:
    """Close as forfeits the published tables still waiting for a result at which a player who left the
    tournament (dropped, or a no-show) sits: the players who left share last place, the others first (with
    nobody left to play, the match is void). Returns the tables closed.

    A fixed field (round robin, elimination, a top cut) keeps a player who left in its schedule, so their
    later tables are published and closed at once; a table already out when they leave closes then. Call
    inside a transaction holding the tournament row lock.
    """
    waiting = [table for table in tables if table.match_id is not None and not table.closed_as]
    if not waiting:
        return []
    # Who left first (few, usually nobody), then the seats of only their waiting tables: a round of
    # thousands of tables is never listed in a query.
    left = dict(
        Registration.objects.filter(tournament=tournament, status__in=DEPARTED).values_list("player_id", "player__name")
    )  # fmt: skip
    if not left:
        return []
    waiting_ids = {table.match_id for table in waiting}
    touched = {
        match_id
        for match_id in MatchSeat.objects.filter(
            player_id__in=left, match__status=Match.Status.SCHEDULED, match__tournament_table__round__tournament=tournament
        ).values_list("match_id", flat=True)
        if match_id in waiting_ids
    }  # fmt: skip
    seats: dict[int, list[int]] = {}
    for match_id, player_id in (
        MatchSeat.objects.filter(match_id__in=touched).order_by("match_id", "seat").values_list("match_id", "player_id")
    ):  # fmt: skip
        seats.setdefault(match_id, []).append(player_id)
    closed = []
    for table in waiting:
        absent = [pid for pid in seats.get(table.match_id, []) if pid in left]
        if absent:
            names = ", ".join(left[pid] for pid in absent)
            _close(
                table, seats[table.match_id], absent, Table.Closed.FORFEIT, by, f"{names} left the tournament"
            )
            audit(tournament, by, Action.TABLE_CLOSED, round=table.round.number, table=table.number,
                  label=table.label, kind=Table.Closed.FORFEIT, absent=[left[pid] for pid in absent])  # fmt: skip
            closed.append(table)
    return closed
