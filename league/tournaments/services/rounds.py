"""A round's life: generate a draft through the pairing seam, adjust it (swap or move seats), discard it,
publish it (each table becomes a scheduled match), complete it once every table has a result."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from league.core import bulk, events
from league.core.catalogue import game_spec
from league.core.checks import is_int
from league.core.errors import UserError
from league.matches.models import Match
from league.matches.services import check_owned
from league.players.models import Player
from league.results.services import matches_create
from league.tournaments import seam, snapshots
from league.tournaments.bracket_reading import is_finished
from league.tournaments.errors import StateConflict
from league.tournaments.formats import flows, is_swiss_round
from league.tournaments.history import History, load_history
from league.tournaments.models import ByeRequest, Registration, Round, Table, Tournament
from league.tournaments.services.audit import Action, audit
from league.tournaments.services.brackets import bracket_sync
from league.tournaments.services.common import check_organizer, last_round, tournament_locked
from league.tournaments.services.forfeits import DEPARTED, tables_forfeit_departed
from league.tournaments.services.seating import physical_assign


def round_generate(*, tournament: Tournament, by: User) -> Round:
    """Generate the next round as a draft. 409 while the last round is not complete or the tournament is not
    running, and once a 2-seat bracket has started (its matches open by themselves); 400 when the format
    cannot pair the field (the pairing layer's message). In a Swiss round the players who asked for a bye or
    to sit out are left out, and the round records them (a bye with the score the tournament gives one)."""
    check_organizer(user=by, tournament=tournament)
    return generate_round(tournament, by)


def generate_round(tournament: Tournament, by: User | None) -> Round:
    """`round_generate` without its check of who asks (`by` None: the system, `big_days`)."""
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        if tournament.status != Tournament.Status.RUNNING:
            what = "finished" if tournament.status == Tournament.Status.FINISHED else "not started yet"
            raise StateConflict(
                f"the tournament is {what}: rounds are generated while it runs", field="status"
            )
        last = last_round(tournament)
        if last is not None and last.status != Round.Status.DRAFT and flows(tournament, last.number):
            raise StateConflict(
                "the bracket opens each match as soon as its players are known: "
                "enter the results and the next matches follow"
            )
        if last is not None and last.status != Round.Status.COMPLETE:
            raise StateConflict(
                f"round {last.number} is not complete yet: the next round waits for every result"
            )
        number = 1 if last is None else last.number + 1
        history = load_history(tournament, names=False)
        planned = seam.planned_rounds(history.tournament, history)
        if planned is not None and number > planned and tournament.format != Tournament.Format.STAGES:
            raise StateConflict(f"all {planned} rounds are played: finish the tournament")
        requests = _requests_for(history, number)
        values = seam.draft_values(seam.generate(history, number, frozenset(requests)))
        score = tournament.requested_bye_score
        round_row = Round.objects.create(
            tournament=tournament,
            number=number,
            byes=values["byes"],
            requested_byes=[[pid, score] for pid, kind in requests.items() if kind == ByeRequest.Kind.BYE],
            sat_out=[pid for pid, kind in requests.items() if kind == ByeRequest.Kind.SIT_OUT],
            advanced=values["advanced"],
            final=values["final"],
            quality=values["quality"],
        )
        bulk.insert(
            Table,
            ("number", "label", "planned_seats"),
            [
                (index, table["label"], table["seats"])
                for index, table in enumerate(values["tables"], start=1)
            ],
            round_id=round_row.pk,
            closed_as=Table.Closed.NO,
            absent=[],
            fixed=False,
        )
        physical_assign(round_row, carry=True)
        audit(tournament, by, Action.ROUND_GENERATED, round=number, tables=len(values["tables"]))
    return round_row


def _requests_for(history: History, number: int) -> dict[int, str]:
    """The active players who asked to miss Swiss round `number`, in seed order, with the kind asked for
    (requests for a round that is not paired Swiss are not used)."""
    tournament = history.tournament
    if not is_swiss_round(tournament, number):
        return {}
    asked = dict(tournament.bye_requests.filter(round_number=number).values_list("player_id", "kind"))
    field = seam.swiss_field(history, number)  # on Day 2, the players who qualified
    return {
        reg.player_id: asked[reg.player_id]
        for reg in history.registrations
        if reg.player_id in asked and reg.status == Registration.Status.ACTIVE and reg.player_id in field
    }


def _draft_round(round_row: Round, by: User) -> Round:
    check_organizer(user=by, tournament=round_row.tournament)
    return _locked_draft(round_row)


def _locked_draft(round_row: Round) -> Round:
    tournament_locked(round_row.tournament)
    locked = Round.objects.select_for_update().get(pk=round_row.pk)
    if locked.status != Round.Status.DRAFT:
        raise StateConflict(
            f"round {locked.number} is {locked.get_status_display().lower()}: only drafts change"
        )
    return locked


def round_discard(*, round_row: Round, by: User) -> None:
    """Delete a draft round (to regenerate it after registrations changed)."""
    with transaction.atomic():
        locked = _draft_round(round_row, by)
        audit(locked.tournament, by, Action.ROUND_DISCARDED, round=locked.number)
        locked.delete()


def _table_of(round_row: Round, number: Any) -> Table:
    table = round_row.tables.filter(number=number).first() if is_int(number) else None
    if table is None:
        raise UserError(f"round {round_row.number} has no table {number}", field="table")
    return table


def _check_adjustable(round_row: Round, tournament: Tournament, *, between_tables: bool) -> None:
    elimination = tournament.is_elimination or (
        tournament.format == Tournament.Format.STAGES and round_row.number > (tournament.rounds or 0)
    )
    if elimination and between_tables:
        raise StateConflict("elimination tables follow the bracket: only seats within a table can be swapped")


def _store_adjusted(round_row: Round, tables: list[Table]) -> None:
    Table.objects.bulk_update(tables, ["planned_seats"])
    history = load_history(round_row.tournament, names=False)
    ordered = sorted(tables, key=lambda table: table.number)
    round_row.quality = seam.quality_after_adjust(
        history, round_row.number, [table.planned_seats for table in ordered], list(round_row.byes)
    )
    round_row.save(update_fields=["quality", "byes"])
    physical_assign(round_row)


def round_swap(
    *,
    round_row: Round,
    by: User,
    first_table: Any,
    first_seat: Any,
    second_table: Any,
    second_seat: Any,
) -> Round:
    """Swap two seats of a draft round (within one table, or between two tables). Seats count from 1; a seat
    named twice is refused (nothing would change)."""
    with transaction.atomic():
        locked = _draft_round(round_row, by)
        numbers = (_table_of(locked, first_table).number, _table_of(locked, second_table).number)
        _check_adjustable(locked, locked.tournament, between_tables=numbers[0] != numbers[1])
        tables = list(locked.tables.all())
        by_number = {table.number: table for table in tables}
        first, second = by_number[numbers[0]], by_number[numbers[1]]
        for table, seat in ((first, first_seat), (second, second_seat)):
            if not is_int(seat) or not 1 <= seat <= len(table.planned_seats):
                raise UserError(
                    f"table {table.number} has seats 1 to {len(table.planned_seats)}", field="seat"
                )
        if first.number == second.number and first_seat == second_seat:
            raise UserError("that is one seat twice: choose two different seats to swap", field="seat")
        a, b = first_seat - 1, second_seat - 1
        names = _names([first.planned_seats[a], second.planned_seats[b]])
        audit(
            locked.tournament,
            by,
            Action.SEATS_SWAPPED,
            round=locked.number,
            first={"table": first.number, "seat": first_seat, "player": names[first.planned_seats[a]]},
            second={"table": second.number, "seat": second_seat, "player": names[second.planned_seats[b]]},
        )
        first.planned_seats[a], second.planned_seats[b] = second.planned_seats[b], first.planned_seats[a]
        _store_adjusted(locked, tables)
    return locked


def _names(player_ids: list[int]) -> dict[int, str]:
    return dict(Player.objects.filter(pk__in=player_ids).values_list("pk", "name"))


def round_move(*, round_row: Round, by: User, player_id: Any, to_table: Any) -> Round:
    """Move a player of a draft round (seated, or with a bye) to the last seat of another table.
    No table may fall below or rise above the game's player range."""
    with transaction.atomic():
        locked = _draft_round(round_row, by)
        tournament = locked.tournament
        _check_adjustable(locked, tournament, between_tables=True)
        target = _table_of(locked, to_table)
        if not is_int(player_id):
            raise UserError("name the player to move by id", field="player")
        tables = list(locked.tables.all())
        source = next((table for table in tables if player_id in table.planned_seats), None)
        if source is None and player_id not in locked.byes:
            raise UserError(f"player {player_id} is not in round {locked.number}", field="player")
        if source is not None and source.number == target.number:
            raise UserError(f"the player already sits at table {target.number}", field="table")
        low, high = game_spec(tournament.game_id).players_allowed(tournament.options)
        target = next(table for table in tables if table.number == target.number)
        if len(target.planned_seats) + 1 > high:
            raise UserError(f"table {target.number} is full: the game seats at most {high}", field="table")
        if source is not None:
            if len(source.planned_seats) - 1 < low:
                raise UserError(
                    f"table {source.number} would fall below the game's minimum of {low}", field="table"
                )
            source.planned_seats.remove(player_id)
        else:
            locked.byes = [pid for pid in locked.byes if pid != player_id]
        target.planned_seats.append(player_id)
        _store_adjusted(locked, tables)
        audit(
            tournament,
            by,
            Action.SEAT_MOVED,
            round=locked.number,
            player=_names([player_id])[player_id],
            player_id=player_id,
            from_table=source.number if source else None,
            to_table=target.number,
        )
    return locked


def round_publish(*, round_row: Round, by: User) -> Round:
    """Publish a draft: each table becomes a scheduled match of the league (rated as the tournament is), in
    bulk. A table of a player who left a fixed field (round robin, elimination) closes at once as a forfeit.
    Publishing the first round of a 2-seat bracket starts its match-by-match flow (`brackets`)."""
    check_organizer(user=by, tournament=round_row.tournament)
    return publish_round(round_row, by)


def publish_round(round_row: Round, by: User | None) -> Round:
    """`round_publish` without its check of who asks (`by` None: the system, `big_days`)."""
    with transaction.atomic():
        locked = _locked_draft(round_row)
        tournament = locked.tournament
        now = timezone.now()
        physical_assign(locked)  # fixed seats set since the draft was made hold too
        rows = list(
            locked.tables.order_by("number").values_list("pk", "planned_seats")
        )  # values: 1000s of tables
        match_ids = matches_create(
            game_id=tournament.game_id,
            options=tournament.options,
            rated=tournament.rated,
            tables=[seats for _, seats in rows],
            played_at=now,
            created_by=by,
        )
        check_owned(match_ids=match_ids, owner=Match.Owner.TABLE)
        bulk.update(
            Table, ("match_id",), [(pk, match_id) for (pk, _), match_id in zip(rows, match_ids, strict=True)]
        )
        locked.status = Round.Status.PUBLISHED
        locked.published_at = now
        locked.save(update_fields=["status", "published_at"])
        audit(tournament, by, Action.ROUND_PUBLISHED, round=locked.number, tables=len(rows))
        closed: set[int] = set()
        if tournament.registrations.filter(status__in=DEPARTED).exists():  # (rarely) tables to close at once
            tables = list(locked.tables.order_by("number").select_related("round"))
            closed = {
                table.pk for table in tables_forfeit_departed(tournament=tournament, tables=tables, by=by)
            }
        events.emit(
            events.table_ready,
            tournament_id=tournament.pk,
            table_ids=[pk for pk, _ in rows if pk not in closed],
        )
        if flows(tournament, locked.number):
            bracket_sync(tournament=tournament, by=by)
    return locked


def round_complete(*, round_row: Round, by: User) -> Round:
    """Complete a published round once every table has a result (or is void); the tournament finishes
    when this was its last round."""
    check_organizer(user=by, tournament=round_row.tournament)
    return complete_round(round_row, by)


def complete_round(round_row: Round, by: User | None) -> Round:
    """`round_complete` without its check of who asks (`by` None: the system, `big_days`)."""
    with transaction.atomic():
        tournament = tournament_locked(round_row.tournament)
        locked = Round.objects.select_for_update().get(pk=round_row.pk)
        if locked.status == Round.Status.DRAFT:
            raise StateConflict(f"round {locked.number} is a draft: publish it first")
        if locked.status == Round.Status.COMPLETE:
            raise StateConflict(f"round {locked.number} is already complete")
        if flows(tournament, locked.number):
            raise StateConflict(
                f"round {locked.number} is a bracket round: it completes by itself once every "
                "match of its column has a result"
            )
        waiting = [
            str(number)
            for number, status in locked.tables.order_by("number").values_list("number", "match__status")
            if status not in (Match.Status.FINISHED, Match.Status.VOID)
        ]
        if waiting:
            raise StateConflict(
                f"round {locked.number} still waits for the result of table {', '.join(waiting)}"
            )
        locked.status = Round.Status.COMPLETE
        locked.completed_at = timezone.now()
        locked.save(update_fields=["status", "completed_at"])
        audit(tournament, by, Action.ROUND_COMPLETED, round=locked.number)
        if is_finished(load_history(tournament, names=False), locked):
            tournament.status = Tournament.Status.FINISHED
            tournament.save(update_fields=["status"])
            audit(tournament, by, Action.FINISHED, after_round=locked.number, early=False)
            events.emit(events.tournament_finished, tournament_id=tournament.pk)
        transaction.on_commit(partial(snapshots.warm, tournament.pk))
    return locked
