"""The floor's writes (issue 48): a player calls a judge to their table, a judge claims the call and resolves
it; a judge gives a table extra minutes; a judge gives a player a warning or a penalty. Who judges is
`reach.may_judge` (the event's judges, its organizers, site staff), checked first in every write here.

A game loss is a result correction entered through the match owner's rules (`tables.table_result`) with the
penalty as its reason, so standings and ratings follow it; a points penalty counts in this tournament's
standings only (`ranking.standings_of` reads it), never in ratings.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction

from league.core import events
from league.core.bounds import Bounds
from league.core.checks import is_number
from league.core.errors import Forbidden, NotFound, UserError
from league.core.names import check_name, check_text
from league.matches.models import Match
from league.players.models import Player
from league.tournaments import floor_selectors, reach, timers
from league.tournaments.errors import NotOrganizer, StateConflict
from league.tournaments.floor_models import JudgeCall, Penalty, PenaltyType, TableExtension
from league.tournaments.models import Round, Table, Tournament
from league.tournaments.services.audit import Action, audit
from league.tournaments.services.common import (
    bump_public_version,
    check_not_cancelled,
    check_organizer,
    signed_in_player,
)
from league.tournaments.services.tables import table_result

EXTENSION_MINUTES = Bounds(1, 30)
PENALTY_POINTS = Bounds(0.01, 100, whole=False)
NOTE_LENGTH = 1000
PENALTY_TYPES = Bounds(1, 20)  # how many types a tournament's list holds


def check_judge(*, user: User | AnonymousUser | None, tournament: Tournament) -> None:
    """Raise NotOrganizer (403) unless `user` judges `tournament` (`reach.may_judge`), then StateConflict
    (409) when it is cancelled."""
    if not reach.may_judge(user, tournament):
        raise NotOrganizer("only the tournament's judges and organizers (and site staff) can do this")
    check_not_cancelled(tournament)


def _note(note: Any) -> str:
    if note is None:
        return ""
    return check_text(note, field="note", max_length=NOTE_LENGTH, what="a note")


# --- calls -----------------------------------------------------------------------------------------------


def judge_call_open(
    *, table: Table, by: User | AnonymousUser | None, holder: Player | None = None
) -> JudgeCall:
    """A player at `table` calls a judge: the signed-in user's own player, or `holder` (a private link's
    player, `by` None). Only a player seated at the table of a published round calls from it; a table has at
    most one call open (409 while one is: the judge is on their way)."""
    table = Table.objects.select_related("round__tournament", "match").get(pk=table.pk)
    tournament = table.round.tournament
    caller = holder if holder is not None else signed_in_player(by)
    check_not_cancelled(tournament)
    if table.match_id is None or table.round.status != Round.Status.PUBLISHED:
        raise StateConflict(f"round {table.round.number} is not being played: no judge calls from it")
    if not table.published_match.seats.filter(player=caller).exists():
        raise Forbidden("only the players at this table call a judge from it")
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        _check_no_open_call(locked)
        try:
            with transaction.atomic():
                call = JudgeCall.objects.create(
                    tournament=tournament, table=locked, caller=caller, opened_at=timers.now()
                )
        except IntegrityError:  # a call opened at the same moment won (SQLite does not lock rows)
            _check_no_open_call(locked)
            raise
        bump_public_version(tournament.pk)
        events.emit(events.judge_called, tournament_id=tournament.pk, table_id=table.pk, call_id=call.pk)
    return call


def _check_no_open_call(table: Table) -> None:
    open_call = JudgeCall.objects.exclude(status=JudgeCall.Status.RESOLVED).filter(table=table).first()
    if open_call is not None:
        coming = "a judge is coming" if open_call.status == JudgeCall.Status.CLAIMED else "a judge comes soon"
        raise StateConflict(f"a judge was called to table {table.number} already: {coming}")


def _call_locked(call: JudgeCall, by: User | AnonymousUser | None) -> JudgeCall:
    """The call locked (inside a transaction), checked to be judged by `by`."""
    check_judge(user=by, tournament=call.tournament)
    return JudgeCall.objects.select_for_update().select_related("table").get(pk=call.pk)


def judge_call_claim(*, call: JudgeCall, by: User) -> JudgeCall:
    """A judge takes an open call: the table sees "a judge is coming". 409 when another judge has it or it is
    resolved; claiming one's own call again changes nothing."""
    with transaction.atomic():
        locked = _call_locked(call, by)
        if locked.status == JudgeCall.Status.RESOLVED:
            raise StateConflict("this call is resolved already")
        if locked.status == JudgeCall.Status.CLAIMED:
            if locked.claimed_by_id == by.pk:
                return locked
            who = locked.claimed_by.get_username() if locked.claimed_by else "another judge"
            raise StateConflict(f"{who} has this call already")
        locked.status = JudgeCall.Status.CLAIMED
        locked.claimed_by, locked.claimed_at = by, timers.now()
        locked.save(update_fields=["status", "claimed_by", "claimed_at"])
        bump_public_version(locked.tournament_id)
    return locked


def judge_call_resolve(*, call: JudgeCall, by: User, note: Any = "") -> JudgeCall:
    """A judge closes a call (open or claimed, by anyone who judges the event) with a note of what they
    ruled. 409 when it is resolved already."""
    text = _note(note)
    with transaction.atomic():
        locked = _call_locked(call, by)
        if locked.status == JudgeCall.Status.RESOLVED:
            raise StateConflict("this call is resolved already")
        now = timers.now()
        if locked.claimed_by_id is None:
            locked.claimed_by, locked.claimed_at = by, now
        locked.status = JudgeCall.Status.RESOLVED
        locked.resolved_by, locked.resolved_at, locked.note = by, now, text
        locked.save(
            update_fields=["status", "claimed_by", "claimed_at", "resolved_by", "resolved_at", "note"]
        )
        bump_public_version(locked.tournament_id)
    return locked


# --- extensions ------------------------------------------------------------------------------------------


def table_extend(*, table: Table, by: User, minutes: Any, note: Any = "") -> TableExtension:
    """Give `table` `minutes` (1 to 30) more than its round's timer: the table's own end time moves on by
    them on its page, the projector, the round page and the slips. Only a table of a published round that
    has no result yet; a table's extensions add up."""
    minutes = EXTENSION_MINUTES.check(minutes, "minutes")
    text = _note(note)[:200]
    table = Table.objects.select_related("round__tournament", "match").get(pk=table.pk)
    check_judge(user=by, tournament=table.round.tournament)
    with transaction.atomic():
        round_row = Round.objects.select_for_update().get(pk=table.round_id)
        if round_row.status != Round.Status.PUBLISHED or table.match_id is None:
            raise StateConflict(f"round {round_row.number} is not being played: no extra time to give")
        if table.published_match.status in ("finished", "void") or table.closed_as:
            raise StateConflict(f"table {table.number} has its result: no extra time to give")
        extension = TableExtension.objects.create(
            table=table, minutes=minutes, note=text, given_by=by, given_at=timers.now()
        )
        audit(
            table.round.tournament,
            by,
            Action.TABLE_EXTENDED,
            round=round_row.number,
            table=table.number,
            minutes=minutes,
        )
    return extension


# --- penalties -------------------------------------------------------------------------------------------


def penalty_types_set(*, tournament: Tournament, by: User, names: Any) -> list[str]:
    """Replace the tournament's list of infraction types (1 to 20 names, each up to 60 characters, no two
    alike). Organizers only: judges pick from it. Penalties already given keep their type's name."""
    check_organizer(user=by, tournament=tournament)
    if not isinstance(names, list | tuple) or not PENALTY_TYPES.contains(len(names)):
        raise UserError("give from 1 to 20 penalty types", field="names")
    checked: list[str] = []
    for name in names:
        value = check_name(name, what="a penalty type", max_length=60, field="names")
        if value.casefold() in {seen.casefold() for seen in checked}:
            raise UserError(f"{value!r} is listed twice", field="names")
        checked.append(value)
    with transaction.atomic():
        PenaltyType.objects.filter(tournament=tournament).delete()
        PenaltyType.objects.bulk_create(
            PenaltyType(tournament=tournament, name=name, position=index)
            for index, name in enumerate(checked)
        )
        audit(tournament, by, Action.PENALTY_TYPES_CHANGED, types=checked)
    return checked


def _points(kind: str, points: Any) -> Decimal:
    if kind != Penalty.Kind.POINTS:
        if points not in (None, "", 0):
            raise UserError("only a points penalty takes points", field="points")
        return Decimal(0)
    if isinstance(points, str):
        try:
            points = float(points.strip())
        except ValueError:
            raise UserError("points must be a number from 0.01 to 100", field="points") from None
    if not is_number(points):
        raise UserError("points must be a number from 0.01 to 100", field="points")
    PENALTY_POINTS.check(points, "points")
    try:
        return Decimal(str(points)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    except InvalidOperation:
        raise UserError("points must be a number from 0.01 to 100", field="points") from None


def penalty_give(
    *,
    tournament: Tournament,
    by: User,
    player_id: Any,
    infraction: Any,
    kind: Any = Penalty.Kind.WARNING,
    points: Any = None,
    note: Any = "",
    round_number: Any = None,
) -> Penalty:
    """Give a registered player a warning or a penalty of a type from the tournament's list, with a note.

    - `warning`: written down, nothing else changes.
    - `points`: `points` (0.01 to 100) come off the player's points in this tournament's standings, which
      say why; ratings never see it.
    - `game_loss`: the player's table in `round_number` (default the current round) is corrected with them
      placed last and the others keeping their order, through the result rules of the table
      (`table_result`, the penalty as its reason), so standings and ratings follow. Without a result yet a
      2-seat table is entered as a win for the opponent; a larger table needs its result first (409).
    """
    check_judge(user=by, tournament=tournament)
    if kind not in Penalty.Kind.values:
        raise UserError(f"kind is one of {', '.join(Penalty.Kind.values)}", field="kind")
    player = None
    if isinstance(player_id, int) and not isinstance(player_id, bool):
        player = Player.objects.filter(pk=player_id).first() if 0 < player_id < 2**62 else None
    if player is None or not reach.judge_reaches(by, player, tournament):
        raise NotFound("no such player in this tournament", field="player")
    names = floor_selectors.penalty_types_of(tournament)
    chosen = next(
        (
            name
            for name in names
            if isinstance(infraction, str) and name.casefold() == infraction.strip().casefold()
        ),
        None,
    )
    if chosen is None:
        raise UserError(f"the type is one of: {', '.join(names)}", field="infraction")
    amount = _points(kind, points)
    text = _note(note)
    number = _round_number(tournament, round_number)
    table = None
    if kind == Penalty.Kind.GAME_LOSS:
        table = _table_of(tournament, player, number)
    with transaction.atomic():
        penalty = Penalty.objects.create(
            tournament=tournament,
            player=player,
            round_number=number,
            table=table,
            infraction=chosen,
            kind=kind,
            points=amount,
            note=text,
            given_by=by,
            given_at=timers.now(),
        )
        if table is not None:
            penalty.result_version = _game_loss(table, player, by, chosen)
            penalty.save(update_fields=["result_version"])
        audit(
            tournament,
            by,
            Action.PENALTY_GIVEN,
            player=player.name,
            kind=kind,
            infraction=chosen,
            points=str(amount) if amount else None,
            round=number,
        )
    return penalty


def _round_number(tournament: Tournament, value: Any) -> int | None:
    published = tournament.round_set.exclude(status=Round.Status.DRAFT)
    if value in (None, ""):
        return published.order_by("-number").values_list("number", flat=True).first()
    if not isinstance(value, int) or isinstance(value, bool) or not published.filter(number=value).exists():
        raise UserError("round names a published round of this tournament", field="round")
    return value


def _table_of(tournament: Tournament, player: Player, number: int | None) -> Table:
    if number is None:
        raise StateConflict("no round is out yet: a game loss needs the player's table", field="kind")
    table = (
        Table.objects.select_related("round__tournament", "match")
        .filter(round__tournament=tournament, round__number=number, match__seats__player=player)
        .exclude(closed_as=Table.Closed.RESET)
        .first()
    )
    if table is None:
        raise StateConflict(
            f"{player.name} has no table in round {number}: a game loss needs one", field="kind"
        )
    return table


def _game_loss(table: Table, player: Player, by: User, infraction: str) -> int:
    """Correct `table` with `player` placed last (the others keep their order); the new result version."""
    seats = list(table.published_match.seats.order_by("seat").values_list("player_id", "place"))
    if any(place is None for _, place in seats):
        if len(seats) != 2:
            raise StateConflict(
                f"table {table.number} has no result yet: enter it first, then give the game loss",
                field="kind",
            )
        places = [2 if pid == player.pk else 1 for pid, _ in seats]
    else:
        placed = [(pid, int(place or 0)) for pid, place in seats]
        others = [place for pid, place in placed if pid != player.pk]
        places = [
            len(seats) if pid == player.pk else 1 + sum(1 for other in others if other < place)
            for pid, place in placed
        ]
    table_result(
        table=table,
        by=by,
        expected_version=table.published_match.result_version,
        places=places,
        reason=f"penalty: game loss to {player.name} ({infraction})",
    )
    return Match.objects.values_list("result_version", flat=True).get(pk=table.published_match_id)
