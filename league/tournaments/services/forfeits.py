"""Tables closed without being played: a no-show or a forfeit (absent players last, present players first;
with nobody present the match is void), and the tables of players who left the tournament: closed as
forfeits, or, at a table of 3 or more where a dropped player leaves two or more still playing, kept open
with the leavers placed last (`leavers_last`). Used by the table
writes (`tables`), the rounds' publication (`rounds`), the registrations (`registrations`) and the bracket's
own opening of matches (`brackets`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User

from league.core import events
from league.core.errors import UserError
from league.matches.models import Match, MatchSeat
from league.results.services import competition_places, result_submit, result_void
from league.tournaments.models import Registration, Table, Tournament
from league.tournaments.services.audit import Action, audit
from league.tournaments.services.next_round import advance_when_every_table_is_in


def close_table(
    table: Table,
    seats: list[int],
    absent: Any,
    kind: str,
    by: User | None,
    reason: str,
    advancing: list[int] | None = None,
) -> None:
    """Close `table` (published; its match locked here) with `absent` players placed last, `advancing` the
    decider of a tie at the cut among the players present (checked by the caller); inside a transaction."""
    absent = sorted(set(absent), key=seats.index)
    match = Match.objects.select_for_update().get(pk=table.published_match_id)
    if len(absent) == len(seats):
        label = Table.Closed(kind).label.lower()
        result_void(
            match_id=match.pk,
            entered_by=by,
            reason=reason or f"closed as {label}: nobody was present",
            owner=Match.Owner.TABLE,
        )
    else:
        places = [len(seats) - len(absent) + 1 if pid in absent else 1 for pid in seats]
        label = Table.Closed(kind).label.lower()
        version = result_submit(
            match_id=match.pk,
            expected_version=match.result_version,
            places=places,
            entered_by=by,
            reason=reason or (f"closed as {label}" if match.result_version else ""),
            advancing=advancing,
            owner=Match.Owner.TABLE,
        )
        events.emit(
            events.result_recorded,
            tournament_id=table.round.tournament_id,
            table_id=table.pk,
            version_id=version.pk,
        )
    table.closed_as = kind
    table.absent = absent
    table.save(update_fields=["closed_as", "absent"])
    advance_when_every_table_is_in(table.round_id)


DEPARTED = (Registration.Status.DROPPED, Registration.Status.NO_SHOW)


def tables_forfeit_departed(
    *, tournament: Tournament, tables: Sequence[Table], by: User | None
) -> list[Table]:
    """Close as forfeits the published tables still waiting for a result at which a player who left the
    tournament (dropped, or a no-show) sits: the players who left share last place, the others first (with
    nobody left to play, the match is void). Returns the tables closed.

    At a table of 3 or more seats where only dropped players left and two or more still play, the table
    stays open: its `absent` lists the leavers, who are placed last (sharing last place when several
    leave), and the others' places are entered as usual (`leavers_last`); the table is rated as played.

    A fixed field (round robin, elimination, a top cut) keeps a player who left in its schedule, so their
    later tables are published and closed at once; a table already out when they leave closes then. Call
    inside a transaction holding the tournament row lock.

    Nobody is asked here, so where the players still present outnumber the places that go through (a tie at
    an elimination cut), the cut is decided as a drawn elimination table always was: by standing, then seed
    (`pairing.elimination.table_order`). The organizer can correct the table's result with a decider.
    """
    waiting = [table for table in tables if table.match_id is not None and not table.closed_as]
    if not waiting:
        return []
    # Who left first (few, usually nobody), then the seats of only their waiting tables: a round of
    # thousands of tables is never listed in a query.
    left = {}
    dropped = set()
    for player_id, name, status in Registration.objects.filter(
        tournament=tournament, status__in=DEPARTED
    ).values_list("player_id", "player__name", "status"):
        left[player_id] = name
        if status == Registration.Status.DROPPED:
            dropped.add(player_id)
    if not left:
        return []
    waiting_ids = {table.match_id for table in waiting}
    touched = {
        match_id
        for match_id in MatchSeat.objects.filter(
            player_id__in=left,
            match__status=Match.Status.SCHEDULED,
            match__tournament_table__round__tournament=tournament,
        ).values_list("match_id", flat=True)
        if match_id in waiting_ids
    }
    seats: dict[int, list[int]] = {}
    for match_id, player_id in (
        MatchSeat.objects.filter(match_id__in=touched)
        .order_by("match_id", "seat")
        .values_list("match_id", "player_id")
    ):
        seats.setdefault(match_id, []).append(player_id)
    closed = []
    for table in waiting:
        seated = seats.get(table.published_match_id, [])
        absent = [pid for pid in seated if pid in left]
        if absent and len(seated) >= 3 and len(seated) - len(absent) >= 2 and dropped.issuperset(absent):
            # the others play on: the table waits for their places, the leavers placed last
            table.absent = absent
            table.save(update_fields=["absent"])
        elif absent:
            names = ", ".join(left[pid] for pid in absent)
            close_table(
                table,
                seats[table.published_match_id],
                absent,
                Table.Closed.FORFEIT,
                by,
                f"{names} left the tournament",
            )
            audit(
                tournament,
                by,
                Action.TABLE_CLOSED,
                round=table.round.number,
                table=table.number,
                label=table.label,
                kind=Table.Closed.FORFEIT,
                absent=[left[pid] for pid in absent],
            )
            closed.append(table)
    return closed


def leavers_last(
    table: Table, seats: Sequence[int], places: Any, scores: Any, score_order: str | None
) -> Any:
    """The places of a result at `table` (seat order `seats`) with its leavers (`table.absent`, at a table
    still open) placed last, sharing last place, and the others' places as entered (ranked among them).
    `places` may be None where the game's scores decide places. A leaver entered ahead of a player still at
    the table is refused (400). Without leavers, `places` as given."""
    absent = [pid for pid in table.absent if pid in seats]
    if table.closed_as or not absent:
        return places
    names = ", ".join(
        Registration.objects.filter(tournament_id=table.round.tournament_id, player_id__in=absent)
        .order_by("player__name")
        .values_list("player__name", flat=True)
    )
    present = [index for index, pid in enumerate(seats) if pid not in absent]
    if places is None:
        if scores is None or score_order is None:
            return places  # the result service names what is missing
        if not isinstance(scores, list | tuple) or len(scores) != len(seats):
            return places
        keys: list[Any] = [-scores[index] if score_order == "high" else scores[index] for index in present]
    else:
        if not isinstance(places, list | tuple) or len(places) != len(seats):
            return places
        if not all(isinstance(place, int) and not isinstance(place, bool) for place in places):
            return places
        keys = [places[index] for index in present]
        last_present = max(keys)
        if any(places[index] < last_present for index, pid in enumerate(seats) if pid in absent):
            raise UserError(
                f"{names} left the tournament during this round and {'is' if len(absent) == 1 else 'are'} "
                "placed last: enter the places of the players still at the table ahead of them",
                field="places",
            )
    ranked = competition_places(keys)
    last = len(present) + 1
    result = [last] * len(seats)
    for index, place in zip(present, ranked, strict=True):
        result[index] = place
    return result
