"""The `data` of each webhook event, read afresh from the rows named by an event's ids (docs/webhooks.md)."""

from __future__ import annotations

from typing import Any, cast

from django.urls import reverse

from league.bots.models import BotLeague
from league.bots.selectors import league_standings
from league.matches.models import MatchSeat
from league.results.models import ResultVersion
from league.seasons.models import Season
from league.seasons.selectors import season_table, table_version
from league.tournaments.history import load_history
from league.tournaments.models import JudgeCall, Table, Tournament
from league.tournaments.selectors import standing_rows_of


def tournament_data(tournament: Tournament) -> dict[str, Any]:
    return {
        "id": tournament.pk,
        "slug": tournament.slug,
        "name": tournament.name,
        "game": tournament.game_id,
        "status": tournament.status,
        "url": reverse("tournaments:detail", args=[tournament.slug]),
    }


def _tables(table_ids: list[int]) -> list[Table]:
    return list(
        Table.objects.filter(pk__in=table_ids).select_related("round").order_by("round__number", "number")
    )


def _seats(match_ids: list[int]) -> dict[int | None, list[MatchSeat]]:
    """Match id → its seats; a table without a match (its match id None) finds none."""
    seats: dict[int | None, list[MatchSeat]] = {}
    for seat in (
        MatchSeat.objects.filter(match_id__in=match_ids).select_related("player").order_by("match", "seat")
    ):
        seats.setdefault(seat.match_id, []).append(seat)
    return seats


def table_data(table: Table, seats: list[MatchSeat], *, outcome: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": table.pk,
        "round": table.round.number,
        "number": table.number,
        "physical_number": table.physical,
        "label": table.label,
        "match": table.match_id,
        "players": [
            {"seat": seat.seat + 1, "id": seat.player_id, "name": seat.player.name}
            | ({"place": seat.place, "score": seat.score} if outcome else {})
            for seat in seats
        ],
    }
    return data


def table_ready(*, tournament_id: int, table_ids: list[int]) -> dict[str, Any] | None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    tables = _tables(table_ids)
    seats = _seats([table.match_id for table in tables if table.match_id])
    return {
        "tournament": tournament_data(tournament),
        "tables": [table_data(table, seats.get(table.match_id, [])) for table in tables],
    }


def result_recorded(*, tournament_id: int, table_id: int, version_id: int) -> dict[str, Any] | None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    version = ResultVersion.objects.filter(pk=version_id).select_related("entered_by").first()
    tables = _tables([table_id])
    if tournament is None or version is None or not tables:
        return None
    table = tables[0]
    match_id = cast(int, table.match_id)  # a result was recorded at the table: it has its match
    seats = _seats([match_id]).get(match_id, [])
    players = [seat.player_id for seat in seats]
    return {
        "tournament": tournament_data(tournament),
        "table": table_data(table, seats),
        "result": {
            "id": version.pk,
            "version": version.version,
            "void": version.void,
            "places": version.places,
            "scores": version.scores,
            "by_player": [
                {"id": pid, "place": place} for pid, place in zip(players, version.places or [], strict=False)
            ],
            "entered_at": version.entered_at.isoformat(),
            "reason": version.reason,
        },
    }


def result_disputed(*, tournament_id: int, table_id: int, dispute_id: int) -> dict[str, Any] | None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    tables = _tables([table_id])
    if tournament is None or not tables:
        return None
    table = tables[0]
    seats = _seats([table.match_id]).get(table.match_id, []) if table.match_id else []
    return {
        "tournament": tournament_data(tournament),
        "table": table_data(table, seats),
        "dispute": dispute_id,
    }


def judge_called(*, tournament_id: int, table_id: int, call_id: int) -> dict[str, Any] | None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    tables = _tables([table_id])
    call = JudgeCall.objects.select_related("caller").filter(pk=call_id).first()
    if tournament is None or not tables or call is None:
        return None
    table = tables[0]
    seats = _seats([table.match_id]).get(table.match_id, []) if table.match_id else []
    return {
        "tournament": tournament_data(tournament),
        "table": table_data(table, seats),
        "call": {
            "id": call.pk,
            "caller": {"id": call.caller_id, "name": call.caller.name},
            "opened_at": call.opened_at.isoformat(),
        },
    }


def tournament_finished(*, tournament_id: int) -> dict[str, Any] | None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    rows = standing_rows_of(load_history(tournament))
    return {
        "tournament": tournament_data(tournament),
        "standings": [
            {"rank": row.rank, "player": {"id": row.player_id, "name": row.name}, "points": row.points}
            for row in rows
        ],
    }


def league_round_rated(*, league_id: int, round_number: int) -> dict[str, Any] | None:
    league = BotLeague.objects.filter(pk=league_id).first()
    if league is None:
        return None
    return {
        "league": {
            "id": league.pk,
            "name": league.name,
            "game": league.game_id,
            "status": league.status,
            "url": reverse("bots:league", args=[league.pk]),
        },
        "round": round_number,
        "standings": [
            {
                "rank": row.rank,
                "bot": {"id": row.bot.pk, "name": row.bot.name, "version": row.bot.version},
                "rating": None if row.conservative is None else round(row.conservative, 4),
                "matches": row.matches,
            }
            for row in league_standings(league)
        ],
    }


def season_table_changed(*, season_id: int) -> dict[str, Any] | None:
    """The season's table as its page shows it, with its version (a fingerprint of what it is computed
    from)."""
    season = Season.objects.select_related("club").filter(pk=season_id).first()
    if season is None:
        return None
    table = season_table(season)
    return {
        "season": {
            "id": season.pk,
            "slug": season.slug,
            "name": season.name,
            "club": season.club.slug,
            "url": reverse("seasons:season", args=[season.slug]),
        },
        "version": table_version(season),
        "frozen": table.frozen,
        "table": [
            {"rank": line.rank, "player": line.player_id, "name": line.name, "total": str(line.total)}
            for line in table.lines
        ],
    }
