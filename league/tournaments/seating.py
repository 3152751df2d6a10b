"""Physical tables and fixed seats: where each table of a round stands in the room.

A round's tables keep their rank order (`Table.number`, table 1 the top table); each also gets a physical
number (`Table.physical_number`), the number on the table in the room, printed on slips and shown by find my
table and the projector. Most tables stand at their rank number. Two things pin a physical number:

- a **fixed player** (`Registration.fixed_table`): the player keeps that physical table every round (an
  accessible table, say); their table of the round is put there;
- a **fixed table** (`Table.fixed`): the table of that rank number stands at the same physical table every
  round (a feature table, say); later rounds carry the pin.

`assign` is the pure rule (docs/tournaments.md, "Physical tables"): fixed tables first; then, table by table
in rank order, the fixed player with the best seed whose table is still free; then every other table at its
rank number when that number is free; the rest at the lowest free numbers, in rank order. Two fixed players at
one table: the better seed keeps theirs, the other's is broken and `fixed_seat_warnings` says so.

Who reads a registration's accessibility note (and later its judges) is `sees_floor_notes`: the one check the
pages, the API and the services share.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User

from league.players.models import Player
from league.tournaments.models import Registration, Round, Table, Tournament
from league.tournaments.reach import may_judge


def sees_floor_notes(user: User | AnonymousUser | None, tournament: Tournament) -> bool:
    """Whether `user` may read the tournament's accessibility notes and set fixed seats: its organizers, its
    judges (`reach.may_judge`) and site staff."""
    return may_judge(user, tournament)


@dataclass(frozen=True)
class PlannedTable:
    """One table of a round for the rule: its rank number, its players (seat order) and, for a fixed table,
    its pinned physical number."""

    number: int
    players: tuple[int, ...]
    pinned: int | None = None


def assign(
    tables: Sequence[PlannedTable], fixed_players: Mapping[int, int], seeds: Mapping[int, int]
) -> dict[int, int]:
    """Rank number → physical number for `tables`, honouring the pinned tables, then `fixed_players`
    (player id → their physical table; among players at one table the lowest seed in `seeds`, then the
    lowest id, wins), then each table's own rank number, then the lowest free numbers."""
    physical: dict[int, int] = {}
    taken: set[int] = set()
    for table in tables:
        if table.pinned is not None and table.pinned not in taken:
            physical[table.number] = table.pinned
            taken.add(table.pinned)
    for table in tables:
        if table.number in physical:
            continue
        fixed = sorted(
            (pid for pid in table.players if pid in fixed_players),
            key=lambda pid: (seeds.get(pid, 2**31), pid),
        )
        wanted = next((fixed_players[pid] for pid in fixed if fixed_players[pid] not in taken), None)
        if wanted is not None:
            physical[table.number] = wanted
            taken.add(wanted)
    for table in tables:
        if table.number not in physical and table.number not in taken:
            physical[table.number] = table.number
            taken.add(table.number)
    free = 1
    for table in tables:
        if table.number in physical:
            continue
        while free in taken:
            free += 1
        physical[table.number] = free
        taken.add(free)
    return physical


def fixed_players(tournament: Tournament) -> dict[int, int]:
    """Player id → fixed physical table, for the tournament's active registrations with one."""
    rows = Registration.objects.filter(
        tournament=tournament, status=Registration.Status.ACTIVE, fixed_table__isnull=False
    ).values_list("player_id", "fixed_table")
    return {player_id: table for player_id, table in rows if table is not None}


def _seats(table: Table) -> list[int]:
    if table.match_id is not None:  # its seats prefetched
        return [seat.player_id for seat in sorted(table.published_match.seats.all(), key=lambda s: s.seat)]
    return list(table.planned_seats)


def fixed_seat_warnings(round_row: Round) -> list[str]:
    """What a round breaks of the fixed seats, one sentence each, in rank order of the tables: a fixed player
    who does not sit at their physical table, and why (another fixed player at the same table keeps theirs,
    another fixed player or a fixed table holds that number). Empty when every fixed seat holds."""
    tournament = round_row.tournament
    fixed = fixed_players(tournament)
    if not fixed:
        return []
    tables = list(
        round_row.tables.exclude(closed_as=Table.Closed.RESET)
        .select_related("match")
        .prefetch_related("match__seats")
        .order_by("number")
    )
    seated = {table.number: _seats(table) for table in tables}
    holder = {table.physical: table for table in tables}
    names = dict(Player.objects.filter(pk__in=fixed).values_list("pk", "name"))
    warnings = []
    for table in tables:
        for pid in seated[table.number]:
            wanted = fixed.get(pid)
            if wanted is None or wanted == table.physical:
                continue
            head = f"{names[pid]} keeps table {wanted} every round but sits at table {table.physical}"
            neighbour = next(
                (
                    other
                    for other in seated[table.number]
                    if other != pid and fixed.get(other) == table.physical
                ),
                None,
            )
            there = holder.get(wanted)
            keeper = (
                next((other for other in seated[there.number] if fixed.get(other) == wanted), None)
                if there is not None
                else None
            )
            if neighbour is not None:
                warnings.append(
                    f"{head}: {names[neighbour]}, at the same table, keeps table {table.physical}"
                )
            elif keeper is not None:
                warnings.append(f"{head}: {names[keeper]} keeps table {wanted} too")
            elif there is not None and there.fixed:
                warnings.append(f"{head}: table {wanted} is fixed for the table ranked {there.number}")
            else:
                warnings.append(head)
    return warnings


def short_code(round_number: int, physical: int) -> str:
    """The short code printed on a table's slip: its round and its physical table, "3.12" (a keypad's
    digits and its point: the keypad entry page takes it, `read_table`)."""
    return f"{round_number}.{physical}"


def read_table(text: str, round_number: int) -> int | None:
    """The physical table that the keypad entry's `text` names in round `round_number`: a table number
    ("12") or a slip's short code ("3.12"; a keypad's "*", "-" or "/" for the point as well). None when it
    names no table of that round (not digits, or another round's code)."""
    text = text.strip()
    for mark in ("*", "-", "/", ","):
        text = text.replace(mark, ".")
    head, point, tail = text.partition(".")
    if point:
        if not (head.isascii() and head.isdigit()) or len(head) > 5 or int(head) != round_number:
            return None
        text = tail
    if not (text.isascii() and text.isdigit()) or len(text) > 5:
        return None
    return int(text)
