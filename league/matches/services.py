"""Writes for matches: creating a table of a game, and voiding one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from games.core.errors import OptionError
from games.core.spec import GameSpec
from league.core.catalogue import game_spec
from league.core.errors import UserError
from league.matches.models import Match, MatchSeat
from league.players.models import Player

MIN_SEATS = 2
MAX_SEATS = 7


def check_seats(player_ids: Any) -> list[Player]:
    """The players of the seats in seat order; each must exist, be active and sit once."""
    if not isinstance(player_ids, list | tuple) or not all(
        isinstance(pid, int) and not isinstance(pid, bool) for pid in player_ids
    ):
        raise UserError("seats must be a list of player ids", field="players")
    if not MIN_SEATS <= len(player_ids) <= MAX_SEATS:
        raise UserError(f"a match has {MIN_SEATS} to {MAX_SEATS} seats, not {len(player_ids)}", field="players")
    if len(set(player_ids)) != len(player_ids):
        raise UserError("a player can take only one seat at a match", field="players")
    found = Player.objects.in_bulk(player_ids)
    missing = [str(pid) for pid in player_ids if pid not in found]
    if missing:
        raise UserError(f"no player with id {', '.join(missing)}", field="players")
    inactive = [found[pid].name for pid in player_ids if not found[pid].active]
    if inactive:
        raise UserError(f"inactive players cannot take a seat: {', '.join(inactive)}", field="players")
    return [found[pid] for pid in player_ids]


@dataclass(frozen=True)
class MatchPlan:
    """A validated match, ready to be written."""

    spec: GameSpec
    players: list[Player]
    options: dict[str, Any]
    rated: bool
    played_at: datetime | None


def check_match(
    *,
    game_id: str,
    player_ids: Sequence[int],
    options: Mapping[str, Any] | None = None,
    rated: bool = True,
    played_at: datetime | None = None,
) -> MatchPlan:
    """Validate a new match; raise UserError naming the field at fault."""
    spec = game_spec(game_id, field="game")
    if options is not None and not isinstance(options, Mapping):
        raise UserError("options must be an object of option names and values", field="options")
    if not isinstance(rated, bool):
        raise UserError("rated must be true or false", field="rated")
    players = check_seats(player_ids)
    try:
        valid_options = spec.validate_options(options or {}, num_players=len(players))
    except OptionError as exc:
        field = "players" if "players" in str(exc) else "options"
        raise UserError(str(exc), field=field) from None
    if played_at is not None and (not isinstance(played_at, datetime) or timezone.is_naive(played_at)):
        raise UserError("played_at must be a date and time with a time zone", field="played_at")
    if rated and any(player.kind != Player.Kind.PERSON for player in players):
        raise UserError("bots play rated matches only in bot leagues", field="players")
    return MatchPlan(spec, players, valid_options, rated, played_at)


def match_create(
    *,
    game_id: str,
    player_ids: Sequence[int],
    options: Mapping[str, Any] | None = None,
    rated: bool = True,
    played_at: datetime | None = None,
    created_by: AbstractBaseUser | None = None,
) -> Match:
    """Create a scheduled match of `game_id` with one seat per player, in the order given (seat 0 first).

    Options are validated and completed by the game's spec, which also checks the number of seats. A rated
    match of people counts in the game's people pool.
    """
    from league.ratings.services import people_pool_for_game

    plan = check_match(game_id=game_id, player_ids=player_ids, options=options, rated=rated, played_at=played_at)
    with transaction.atomic():
        match = Match.objects.create(
            game_id=plan.spec.id,
            game_version=plan.spec.version,
            options=plan.options,
            rated=plan.rated,
            rating_pool=people_pool_for_game(plan.spec.id) if plan.rated else None,
            played_at=plan.played_at or timezone.now(),
            created_by=created_by,
        )
        MatchSeat.objects.bulk_create(
            MatchSeat(match=match, seat=seat, player=player) for seat, player in enumerate(plan.players)
        )
    return match


def match_void(*, match_id: int) -> Match:
    """Void a match: it no longer counts, and its pool replays from it if it was rated."""
    from league.ratings.services import pool_mark_pending

    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None:
            raise UserError(f"no match with id {match_id}", code="not_found")
        if match.status == Match.Status.VOID:
            raise UserError("the match is already void", field="status")
        was_counted = match.rated and match.status == Match.Status.FINISHED
        match.status = Match.Status.VOID
        match.save(update_fields=["status"])
        if was_counted:
            pool_mark_pending(pool_id=match.rating_pool_id, match_id=match.pk)
    return match
