"""Physical tables, fixed seats and accessibility notes (`league.tournaments.seating` holds the rule and
the reads): a round's physical numbers are assigned when it is generated, after each adjustment of its draft
and when it is published; organizers pin a draft table's physical number or fix a player's table, and write
a player's accessibility note; the event's private data (private links with their addresses, accessibility
notes) is deleted once it has ended.

Who may do this is one check, `check_floor` (organizers and staff now; the judge role widens
`seating.sees_floor_notes`)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction

from league.core import bulk
from league.core.bounds import Bounds
from league.core.errors import UserError
from league.core.names import check_text
from league.tournaments import seating
from league.tournaments.errors import NotOrganizer, StateConflict
from league.tournaments.models import PrivateLink, Registration, Round, Table, Tournament
from league.tournaments.selectors import is_organizer
from league.tournaments.services.audit import Action, audit
from league.tournaments.services.common import check_not_cancelled, tournament_locked

PHYSICAL_BOUNDS = Bounds(1, 9999)
NOTE_MAX_LENGTH = 500
UNSET: Any = object()


def check_floor(*, user: User | AnonymousUser | None, tournament: Tournament) -> None:
    """403 unless `user` runs the floor of `tournament` (`seating.sees_floor_notes`: organizers and staff;
    judges once the role exists), then 409 when it is cancelled."""
    if not seating.sees_floor_notes(user, tournament):
        raise NotOrganizer("only the tournament's organizers (and site staff) can do this")
    check_not_cancelled(tournament)


def physical_assign(round_row: Round, *, carry: bool = False) -> None:
    """Give every table of `round_row` (a draft, or being published) its physical number by the rule
    (`seating.assign`). `carry`: a new round takes the pins of the previous round's fixed tables."""
    tables = list(round_row.tables.order_by("number"))
    pins = {
        table.number: table.physical_number
        for table in tables
        if table.fixed and table.physical_number is not None
    }
    if carry:
        before = Table.objects.filter(
            round__tournament_id=round_row.tournament_id, round__number=round_row.number - 1, fixed=True
        ).values_list("number", "physical_number")
        pins = {number: physical for number, physical in before if physical is not None}
    seeded = Registration.objects.filter(tournament_id=round_row.tournament_id, seed__isnull=False)
    seeds = {
        player_id: seed for player_id, seed in seeded.values_list("player_id", "seed") if seed is not None
    }
    planned = [
        seating.PlannedTable(table.number, tuple(table.planned_seats), pins.get(table.number))
        for table in tables
    ]
    physical = seating.assign(planned, seating.fixed_players(round_row.tournament), seeds)
    changed = [
        (table.pk, physical[table.number], table.number in pins)
        for table in tables
        if (table.physical_number, table.fixed) != (physical[table.number], table.number in pins)
    ]
    bulk.update(Table, ("physical_number", "fixed"), changed)


def table_fix(*, table: Table, by: User, physical_number: Any) -> Table:
    """Pin a draft table's physical number (it stands there this round and every later one), or unpin it
    (`physical_number` None). Another pinned table of the round with that number is refused (400)."""
    table = Table.objects.select_related("round__tournament").get(pk=table.pk)
    tournament = table.round.tournament
    check_floor(user=by, tournament=tournament)
    if physical_number is not None:
        PHYSICAL_BOUNDS.check(physical_number, "physical_number")
    with transaction.atomic():
        tournament_locked(tournament)
        round_row = Round.objects.select_for_update().get(pk=table.round_id)
        if round_row.status != Round.Status.DRAFT:
            raise StateConflict(
                f"round {round_row.number} is published: physical tables are pinned on a draft",
                field="status",
            )
        clash = (
            round_row.tables.filter(fixed=True, physical_number=physical_number).exclude(pk=table.pk).first()
            if physical_number is not None
            else None
        )
        if clash is not None:
            raise UserError(
                f"table {physical_number} is already pinned for the table ranked {clash.number}",
                field="physical_number",
            )
        table.fixed = physical_number is not None
        table.physical_number = physical_number
        table.save(update_fields=["fixed", "physical_number"])
        physical_assign(round_row)
        audit(
            tournament,
            by,
            Action.TABLE_FIXED,
            round=round_row.number,
            table=table.number,
            physical_number=physical_number,
        )
    table.refresh_from_db()
    return table


def registration_seating(
    *, registration: Registration, by: User, fixed_table: Any = UNSET, accessibility_note: Any = UNSET
) -> Registration:
    """Set a player's fixed physical table (None: none) and/or their accessibility note (empty: none). A
    draft round waiting to be published is seated again at once; published rounds keep their tables."""
    registration = Registration.objects.select_related("tournament", "player").get(pk=registration.pk)
    tournament = registration.tournament
    check_floor(user=by, tournament=tournament)
    fields: list[str] = []
    if fixed_table is not UNSET:
        if fixed_table is not None:
            PHYSICAL_BOUNDS.check(fixed_table, "fixed_table")
        registration.fixed_table = fixed_table
        fields.append("fixed_table")
    if accessibility_note is not UNSET:
        registration.accessibility_note = check_text(
            accessibility_note,
            field="accessibility_note",
            max_length=NOTE_MAX_LENGTH,
            what="the accessibility note",
        )
        fields.append("accessibility_note")
    if not fields:
        raise UserError("give a fixed table or an accessibility note", field="fixed_table")
    with transaction.atomic():
        tournament_locked(tournament)
        registration.save(update_fields=fields)
        draft = tournament.round_set.filter(status=Round.Status.DRAFT).first()
        if draft is not None and "fixed_table" in fields:
            physical_assign(draft)
        # the note's text never goes into the log: the log is read by every organizer, the note is private
        audit(
            tournament,
            by,
            Action.SEATING_CHANGED,
            player=registration.player.name,
            player_id=registration.player_id,
            fixed_table=registration.fixed_table,
            note_changed="accessibility_note" in fields,
        )
    return registration


def tournament_private_data_delete(*, tournament: Tournament, by: User) -> dict[str, int]:
    """Delete the event's private data once it has ended (finished or cancelled): its private links (with
    the addresses their holders left) and its players' accessibility notes. Organizers and staff; 409 while
    the event still runs. Returns how many links and notes went."""
    if not is_organizer(by, tournament):  # organizers only: judges read notes, they do not delete data
        raise NotOrganizer("only the tournament's organizers (and site staff) can do this")
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        if tournament.status not in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise StateConflict(
                "the event has not ended: its private data is deleted once it is finished or cancelled",
                field="status",
            )
        links, _ = PrivateLink.objects.filter(registration__tournament=tournament).delete()
        notes = (
            Registration.objects.filter(tournament=tournament)
            .exclude(accessibility_note="")
            .update(accessibility_note="")
        )
        audit(tournament, by, Action.PRIVATE_DATA_DELETED, private_links=links, accessibility_notes=notes)
    return {"private_links": links, "accessibility_notes": notes}
