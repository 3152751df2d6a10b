"""The floor's reads (issue 48): a tournament's judge-call queue, a table's open call, tables' extensions
and their own end times, the list of penalty types, and penalties (by player, and the points they take off
the standings). Writes are `services/floor.py`."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, Max, Sum

from league.tournaments import timers
from league.tournaments.floor_models import (
    DEFAULT_PENALTY_TYPES,
    JudgeCall,
    Penalty,
    PenaltyType,
    TableExtension,
)
from league.tournaments.models import Round, Table, Tournament

RESOLVED_SHOWN = 20  # resolved calls the queue lists below the open ones


def penalty_types_of(tournament: Tournament) -> list[str]:
    """The tournament's infraction types in their order; the defaults while its organizers set none."""
    names = list(PenaltyType.objects.filter(tournament=tournament).values_list("name", flat=True))
    return names or list(DEFAULT_PENALTY_TYPES)


# --- calls -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CallRow:
    id: int
    status: str
    round: int
    table: int
    table_label: str
    caller: str
    caller_id: int
    opened_at: datetime
    claimed_by: str
    claimed_at: datetime | None
    resolved_by: str
    resolved_at: datetime | None
    note: str

    @property
    def open(self) -> bool:
        return self.status == JudgeCall.Status.OPEN

    @property
    def claimed(self) -> bool:
        return self.status == JudgeCall.Status.CLAIMED


def _rows(calls: Iterable[JudgeCall]) -> list[CallRow]:
    return [
        CallRow(
            id=call.pk,
            status=call.status,
            round=call.table.round.number,
            table=call.table.number,
            table_label=call.table.label,
            caller=call.caller.name,
            caller_id=call.caller_id,
            opened_at=call.opened_at,
            claimed_by=call.claimed_by.get_username() if call.claimed_by else "",
            claimed_at=call.claimed_at,
            resolved_by=call.resolved_by.get_username() if call.resolved_by else "",
            resolved_at=call.resolved_at,
            note=call.note,
        )
        for call in calls
    ]


def _calls(tournament: Tournament):
    return JudgeCall.objects.filter(tournament=tournament).select_related(
        "table__round", "caller", "claimed_by", "resolved_by"
    )


def call_queue(tournament: Tournament) -> list[CallRow]:
    """The calls not yet resolved, the oldest first (three queries whatever their number)."""
    return _rows(_calls(tournament).exclude(status=JudgeCall.Status.RESOLVED).order_by("opened_at", "id"))


def calls_resolved(tournament: Tournament, limit: int = RESOLVED_SHOWN) -> list[CallRow]:
    """The latest resolved calls, the newest first."""
    calls = _calls(tournament).filter(status=JudgeCall.Status.RESOLVED).order_by("-resolved_at", "-id")
    return _rows(calls[:limit])


def call_row(call_id: int) -> CallRow | None:
    """One call as the queue shows it, or None."""
    rows = _rows(
        JudgeCall.objects.filter(pk=call_id).select_related(
            "table__round", "caller", "claimed_by", "resolved_by"
        )
    )
    return rows[0] if rows else None


def table_call(table: Table) -> JudgeCall | None:
    """The table's call that is not resolved yet (a table has at most one), or None."""
    return (
        JudgeCall.objects.select_related("claimed_by")
        .filter(table=table)
        .exclude(status=JudgeCall.Status.RESOLVED)
        .first()
    )


# --- extensions ------------------------------------------------------------------------------------------


def extensions_of(table_ids: Iterable[int]) -> dict[int, int]:
    """Table id → the minutes of extra time it was given (tables without any are left out)."""
    ids = list(table_ids)
    if not ids:
        return {}
    rows = (
        TableExtension.objects.filter(table_id__in=ids)
        .values("table_id")
        .annotate(minutes=Sum("minutes"))
        .values_list("table_id", "minutes")
    )
    return {table_id: minutes for table_id, minutes in rows if minutes}


def table_timer(round_row: Round, extra_minutes: int, at: datetime | None = None) -> timers.TimerView | None:
    """The timer of one table: its round's, moved on by the table's own extra minutes (the round's own
    timer when it has none); None when the round has no timer."""
    view = timers.timer_view(round_row, at)
    if view is None or not extra_minutes:
        return view
    extra = extra_minutes * 60
    duration = view.duration_seconds + extra
    if view.paused:
        return timers.TimerView("paused", duration, view.seconds_left + extra, None)
    ends_at = view.ends_at + timedelta(seconds=extra) if view.ends_at is not None else None
    left = timers.seconds_until(ends_at, at) if ends_at is not None else 0
    return timers.TimerView("running" if left else "over", duration, left, ends_at)


@dataclass(frozen=True)
class ExtendedTable:
    """A table running on extra time: its number, its minutes, its own timer."""

    id: int
    number: int
    minutes: int
    timer: timers.TimerView | None

    @property
    def still_running(self) -> bool:
        return self.timer is not None and not self.timer.over


def extended_tables(round_row: Round, at: datetime | None = None) -> list[ExtendedTable]:
    """The round's tables with extra time, by number, each with its own timer; `still_running` tells which
    still play on once the round's own time is up."""
    tables = list(round_row.tables.order_by("number").values_list("id", "number"))
    minutes = extensions_of(pk for pk, _ in tables)
    return [
        ExtendedTable(pk, number, minutes[pk], table_timer(round_row, minutes[pk], at))
        for pk, number in tables
        if pk in minutes
    ]


# --- penalties -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PenaltyRow:
    id: int
    player_id: int
    player: str
    round: int | None
    table: int | None
    infraction: str
    kind: str
    kind_label: str
    points: float
    note: str
    given_by: str
    given_at: datetime

    @property
    def reason(self) -> str:
        """How the standings say why: "−1 pt: Slow play (round 2)"."""
        shown = f"{self.points:g}"
        where = f" (round {self.round})" if self.round else ""
        return f"−{shown} pt: {self.infraction}{where}"


def penalties_of(tournament: Tournament, player_id: int | None = None) -> list[PenaltyRow]:
    """The tournament's warnings and penalties (one player's with `player_id`), the oldest first. Only for
    the player themselves and the event's judges and organizers: callers check."""
    penalties = Penalty.objects.filter(tournament=tournament).select_related("player", "table", "given_by")
    if player_id is not None:
        penalties = penalties.filter(player_id=player_id)
    return [
        PenaltyRow(
            id=penalty.pk,
            player_id=penalty.player_id,
            player=penalty.player.name,
            round=penalty.round_number,
            table=penalty.table.number if penalty.table else None,
            infraction=penalty.infraction,
            kind=penalty.kind,
            kind_label=penalty.get_kind_display(),
            points=float(penalty.points),
            note=penalty.note,
            given_by=penalty.given_by.get_username() if penalty.given_by else "",
            given_at=penalty.given_at,
        )
        for penalty in penalties.order_by("given_at", "id")
    ]


def _points_penalties(tournament_id: int, last_round: int | None):
    penalties = Penalty.objects.filter(tournament_id=tournament_id, kind=Penalty.Kind.POINTS)
    if last_round is not None:
        penalties = penalties.filter(round_number__lte=last_round)
    return penalties


def penalty_points(tournament_id: int, *, last_round: int | None = None) -> dict[int, float]:
    """Player id → the points their points penalties take off the standings (those given up to
    `last_round`, where standings are read as a round ended)."""
    totals = (
        _points_penalties(tournament_id, last_round)
        .values("player_id")
        .annotate(total=Sum("points"))
        .values_list("player_id", "total")
    )
    return {player_id: float(total) for player_id, total in totals}


def penalty_reasons(tournament_id: int) -> dict[int, list[str]]:
    """Player id → why the standings take points off them, one text per points penalty."""
    reasons: dict[int, list[str]] = defaultdict(list)
    for row in (
        _points_penalties(tournament_id, None)
        .order_by("given_at", "id")
        .values_list("player_id", "points", "infraction", "round_number")
    ):
        player_id, points, infraction, number = row
        where = f" (round {number})" if number else ""
        reasons[player_id].append(f"−{float(points):g} pt: {infraction}{where}")
    return dict(reasons)


def penalties_fingerprint(tournament_id: int) -> tuple:
    """What the standings read of penalties, for the snapshot's fingerprint (one query)."""
    found = _points_penalties(tournament_id, None).aggregate(
        count=Count("id"), newest=Max("id"), total=Sum("points")
    )
    return (found["count"], found["newest"], str(found["total"]))
