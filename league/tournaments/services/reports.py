"""Players report their own table's result, the others at the table confirm or dispute it (a tournament's
`result_reporting` is "self_report"); the organizers stay the referees of last resort.

- `table_report`: a seated, active player signed in as themselves (or holding their registration's private
  link: `holder`) reports places (and scores) for their
  table before any result is stored; at an elimination table whose places leave the cut undecided they say
  who goes through (the same rule and message as an organizer's entry). The report is pinned to the match's
  version and awaits every other seated active player (at 2 seats: the opponent, unless the tournament
  leaves 2-seat tables to its organizers).
- `table_confirm`: an awaited player confirms; the last confirmation stores the report through the same
  code path as an organizer's entry (`tables.table_record`: the decider, bracket flow), attributed to the
  reporter (`entered_by`) and the confirmers (the version's `report`).
- `table_report_withdraw`: the reporter takes a wrong report back before the last confirmation stores it;
  the table may be reported again.
- `table_dispute`: a seated player disputes the open report, or the stored one within the tournament's
  dispute window; the table is flagged to the organizers with both claims until an organizer's entry (a new
  version, `table_result`) settles it.

Events (league.core.events, sent after commit): `report_awaiting_confirmation` on a report,
`result_recorded` when a confirmed report is stored, `result_disputed` on a dispute.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, cast

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction

from league.core.catalogue import game_spec
from league.core.errors import Forbidden
from league.core.events import emit, report_awaiting_confirmation, result_disputed
from league.players.models import Player
from league.results.models import ResultDispute, ResultReport
from league.results.services import (
    dispute_open,
    report_confirm,
    report_locked,
    report_open,
    report_withdraw,
)
from league.tournaments.errors import StateConflict
from league.tournaments.formats import flows
from league.tournaments.link_selectors import linked_players
from league.tournaments.models import Registration, Round, Table, Tournament
from league.tournaments.services.audit import Action, audit
from league.tournaments.services.common import tournament_locked
from league.tournaments.services.forfeits import leavers_last
from league.tournaments.services.tables import _check_live, check_decider, table_record


def _table(table: Table) -> Table:
    """The table read afresh, published, live."""
    table = Table.objects.select_related("round__tournament", "match").get(pk=table.pk)
    if table.round.status == Round.Status.DRAFT or table.match_id is None:
        raise StateConflict(f"round {table.round.number} is a draft: its tables take no result yet")
    _check_live(table)
    return table


def _seated_player(
    table: Table, user: User | AnonymousUser | None, holder: Player | None = None
) -> tuple[Player, list[int], set[int]]:
    """The signed-in user's player (or `holder`, the player of a live private link of this tournament, which
    the caller found by its token), seated and active at `table`; (player, seat order, active players).
    403 otherwise (anonymous, no player, not seated here, dropped), and 403 where the tournament takes
    results from its organizers only."""
    tournament = table.round.tournament
    if holder is None and (user is None or not user.is_authenticated):
        raise Forbidden("sign in to report or confirm your table's result")
    if tournament.result_reporting != Tournament.Reporting.SELF_REPORT:
        raise Forbidden("in this tournament the organizers enter the results: players do not report them")
    player = holder if holder is not None else Player.objects.filter(user=cast(User, user)).first()
    seats = list(table.published_match.seats.order_by("seat").values_list("player_id", flat=True))
    if player is None or player.pk not in seats:
        raise Forbidden("only the players seated at this table report, confirm or dispute its result")
    active = set(
        Registration.objects.filter(
            tournament=tournament, player_id__in=seats, status=Registration.Status.ACTIVE
        ).values_list("player_id", flat=True)
    )
    if player.pk not in active:
        raise Forbidden("you are no longer playing in this tournament: an organizer enters this result")
    return player, seats, active


def _where(table: Table) -> dict[str, Any]:
    return {"round": table.round.number, "table": table.number, "label": table.label}


def _signed_in(by: User | AnonymousUser | None) -> User | None:
    """The account behind an action: None for a private link's holder without one."""
    return by if by is not None and by.is_authenticated else None


def table_report(
    *,
    table: Table,
    by: User | AnonymousUser | None,
    expected_version: Any,
    places: Any = None,
    scores: Any = None,
    advancing: Any = None,
    holder: Player | None = None,
) -> ResultReport:
    """Report the result of `table` as one of its players (see the module). 403 for anyone else, 400 for
    bad places or a missing decider, 409 when a report is open already (the body carries it), when a result
    is stored already (or an organizer's entry moved the version on), or when the table is disputed."""
    table = _table(table)
    player, seats, active = _seated_player(table, by, holder)
    tournament = table.round.tournament
    if len(seats) == 2 and tournament.two_seat_confirmation == Tournament.TwoSeatConfirmation.ORGANIZER:
        raise Forbidden("at tables of 2 in this tournament an organizer enters the result")
    awaiting = [pid for pid in seats if pid != player.pk and pid in active]
    users = dict(Player.objects.filter(pk__in=awaiting).values_list("pk", "user_id"))
    linked = linked_players(tournament, [pid for pid in awaiting if users.get(pid) is None])
    without = [pid for pid in awaiting if users.get(pid) is None and pid not in linked]
    if without:
        names = ", ".join(
            Player.objects.filter(pk__in=without).order_by("name").values_list("name", flat=True)
        )
        raise StateConflict(
            f"{names} cannot confirm (no account, no private link): ask an organizer to enter this result"
        )
    if not awaiting:
        raise StateConflict("nobody else at this table is still playing to confirm: ask an organizer")
    if table.absent and not table.closed_as:  # a dropped player left during the round: placed last
        places = leavers_last(table, seats, places, scores, game_spec(tournament.game_id).score_order)
    _, decider = check_decider(table, places, scores, advancing)
    with transaction.atomic():
        report = report_open(
            match_id=table.published_match_id,
            expected_version=expected_version,
            reporter_id=player.pk,
            reported_by=_signed_in(by),
            places=places,
            scores=scores,
            advancing=decider,
            awaiting=awaiting,
        )
        audit(
            tournament, by, Action.RESULT_REPORTED, player=player.name, places=report.places, **_where(table)
        )
        emit(
            report_awaiting_confirmation,
            tournament_id=tournament.pk,
            table_id=table.pk,
            report_id=report.pk,
            user_ids=[users[pid] for pid in awaiting if users.get(pid) is not None],
        )
    return report


def table_confirm(
    *, table: Table, by: User | AnonymousUser | None, report_id: Any, holder: Player | None = None
) -> ResultReport:
    """Confirm the open report `report_id` of `table` as a player it awaits; the last confirmation stores it
    (see the module). 403 for the reporter and players not awaited, 404 for a report of another table, 409
    once an organizer entered the result (or the report is stored or disputed)."""
    table = _table(table)
    player, _, _ = _seated_player(table, by, holder)
    tournament = table.round.tournament
    with transaction.atomic():
        if flows(tournament, table.round.number):
            tournament_locked(tournament)  # first, as an organizer's entry takes it (`tables.table_record`)
        report = report_locked(report_id, table.published_match_id)
        remaining = report_confirm(
            report=report,
            player_id=player.pk,
            user=_signed_in(by),
        )
        if not remaining:
            table_record(
                table=table,
                by=report.reported_by,
                expected_version=report.expected_version,
                places=report.places,
                scores=report.scores,
                advancing=report.advancing,
                report_id=report.pk,
            )
            names = dict(
                Player.objects.filter(pk__in=[report.reporter_id, *report.awaiting]).values_list("pk", "name")
            )
            audit(
                tournament,
                by,
                Action.RESULT_CONFIRMED,
                reporter=names[report.reporter_id],
                confirmed_by=[names[pid] for pid in report.awaiting],
                **_where(table),
            )
        report.refresh_from_db()
    return report


def table_report_withdraw(
    *, table: Table, by: User | AnonymousUser | None, report_id: Any, holder: Player | None = None
) -> ResultReport:
    """Take back the open report `report_id` of `table` as the player who made it (see the module). 403 for
    anyone else, 404 for a report of another table, 409 once it is stored, disputed or overtaken."""
    table = _table(table)
    player, _, _ = _seated_player(table, by, holder)
    with transaction.atomic():
        report = report_locked(report_id, table.published_match_id)
        report_withdraw(report=report, player_id=player.pk)
        audit(table.round.tournament, by, Action.RESULT_WITHDRAWN, player=player.name, **_where(table))
    return report


def table_dispute(
    *,
    table: Table,
    by: User | AnonymousUser | None,
    report_id: Any = None,
    places: Any = None,
    scores: Any = None,
    note: Any = "",
) -> ResultDispute:
    """Dispute `table`'s open report, or its stored report within the dispute window, as a seated player,
    with the places you claim and/or a note (see the module). `report_id` defaults to the table's latest
    report. 403 for anyone else, 409 after the window, after an organizer's newer entry, or when the table is
    disputed already."""
    table = _table(table)
    player, _, _ = _seated_player(table, by)
    tournament = table.round.tournament
    with transaction.atomic():
        if report_id is None:
            latest = (
                ResultReport.objects.filter(match_id=table.published_match_id)
                .order_by("-created_at", "-id")
                .first()
            )
            if latest is None:
                raise StateConflict("nobody reported this table's result: there is nothing to dispute")
            report_id = latest.pk
        report = report_locked(report_id, table.published_match_id)
        dispute = dispute_open(
            report=report,
            player_id=player.pk,
            user=cast(User, by),  # _seated_player let only a signed-in user through
            window=timedelta(minutes=tournament.dispute_window_minutes),
            places=places,
            scores=scores,
            note=note,
        )
        audit(
            tournament, by, Action.RESULT_DISPUTED, player=player.name, places=dispute.places, **_where(table)
        )
        emit(result_disputed, tournament_id=tournament.pk, table_id=table.pk, dispute_id=dispute.pk)
    return dispute
