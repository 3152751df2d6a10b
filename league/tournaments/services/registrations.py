"""Players joining and leaving a tournament: registration before the start, late entries while it runs
(where the format takes them), withdrawals, drops and no-shows."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Max

from league.core.bounds import ROW_IDS, Bounds
from league.core.checks import is_int
from league.core.errors import ErrorCode, NotFound, UserError
from league.players.models import Player
from league.players.services import clean_player_name, player_create
from league.tournaments.errors import StateConflict
from league.tournaments.models import Registration, Round, Tournament
from league.tournaments.services.common import check_organizer, last_round, tournament_locked

SEED_BOUNDS = Bounds(1, 100_000)


def _check_late_entry(tournament: Tournament) -> int:
    """The round a player registering now enters at; raises unless the format takes late entries."""
    last = last_round(tournament)
    if last is None:
        return 1
    fixed = tournament.format in (Tournament.Format.ROUND_ROBIN, Tournament.Format.SINGLE_ELIMINATION,
                                  Tournament.Format.DOUBLE_ELIMINATION)  # fmt: skip
    if tournament.format == Tournament.Format.STAGES:
        fixed = tournament.first_stage == "round_robin" or last.number >= (tournament.rounds or 0)
    if fixed:
        raise StateConflict("the field is fixed once the first round is drawn: no late entries in this format")
    if last.status == Round.Status.DRAFT:
        raise StateConflict(f"round {last.number} is a draft: publish or discard it before a late entry")
    return last.number + 1


def registration_open(tournament: Tournament) -> bool:
    """Whether players can register now (before the start, or as a late entry in a format that takes them)."""
    if tournament.status == Tournament.Status.FINISHED:
        return False
    if tournament.status != Tournament.Status.RUNNING:
        return True
    try:
        _check_late_entry(tournament)
    except StateConflict:
        return False
    return True


def registration_add(
    *, tournament: Tournament, by: AbstractBaseUser, player_id: Any = None, name: Any = None, seed: Any = None
) -> Registration:
    """Register a player (by id, or by name: a new name makes a new player). While the tournament runs this is
    a late entry: the player enters at the next round with zero points and the next free seed."""
    check_organizer(user=by, tournament=tournament)
    if seed is not None:
        SEED_BOUNDS.check(seed, "seed")
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        if tournament.status == Tournament.Status.FINISHED:
            raise StateConflict("the tournament is finished", field="status")
        if player_id is not None:
            player = Player.objects.filter(pk=player_id).first() if is_int(player_id) else None
            if player is None:
                raise UserError(f"no player with id {player_id}", field="player")
        elif isinstance(name, str) and name.strip():
            player = Player.objects.filter(name__iexact=clean_player_name(name)).first()
            if player is None:
                player = player_create(name=name)
        else:
            raise UserError("name the player to register", field="player")
        if not player.active:
            raise UserError(f"{player.name} is inactive and cannot take seats", field="player")
        if tournament.rated and player.kind != Player.Kind.PERSON:
            raise UserError("bots play rated matches only in bot leagues", field="player")
        entered = 1
        if tournament.status == Tournament.Status.RUNNING:
            entered = _check_late_entry(tournament)
            if seed is None:
                seed = 1 + (tournament.registrations.aggregate(top=Max("seed"))["top"] or 0)
        existing = tournament.registrations.filter(player=player).first()
        if existing is not None and existing.status == Registration.Status.ACTIVE:
            raise UserError(f"{player.name} is already registered", field="player", code=ErrorCode.DUPLICATE)
        try:
            with transaction.atomic():
                if existing is not None:
                    if existing.entered_round != entered and tournament.status == Tournament.Status.RUNNING:
                        raise StateConflict(f"{player.name} left this tournament and cannot come back")
                    existing.status = Registration.Status.ACTIVE
                    existing.seed = seed
                    existing.save(update_fields=["status", "seed"])
                    return existing
                return Registration.objects.create(tournament=tournament, player=player, seed=seed, entered_round=entered)
        except IntegrityError:
            raise UserError(f"seed {seed} is taken", field="seed") from None


def registration_leave(*, tournament: Tournament, by: AbstractBaseUser, player_id: Any, status: str) -> Registration:
    """A player leaves: `withdrawn` before the start, `dropped` or `no_show` while the tournament runs (they
    are paired no more; results already played stay)."""
    check_organizer(user=by, tournament=tournament)
    if status not in (Registration.Status.WITHDRAWN, Registration.Status.DROPPED, Registration.Status.NO_SHOW):
        raise UserError("status is one of withdrawn, dropped, no_show", field="status")
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        reg = None
        if ROW_IDS.contains(player_id):  # a larger id names no row, and SQLite cannot even compare it
            reg = tournament.registrations.filter(player_id=player_id).first()
        if reg is None:
            raise NotFound(f"player {player_id} is not registered", field="player")
        if reg.status != Registration.Status.ACTIVE:
            raise StateConflict(f"{reg.player} has already left ({reg.get_status_display().lower()})")
        started = tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED)
        if status == Registration.Status.WITHDRAWN and started:
            raise StateConflict("the tournament has started: the player drops (or is a no-show) instead")
        if status != Registration.Status.WITHDRAWN and not started:
            raise StateConflict("before the start a player withdraws")
        if tournament.status == Tournament.Status.FINISHED:
            raise StateConflict("the tournament is finished", field="status")
        last = last_round(tournament)
        if last is not None and last.status == Round.Status.DRAFT and any(
            reg.player_id in table.planned_seats for table in last.tables.all()
        ):
            raise StateConflict(f"{reg.player} is seated in the draft of round {last.number}: discard it first")
        reg.status = status
        if status == Registration.Status.WITHDRAWN:
            reg.seed = None
        else:
            reg.left_after_round = last.number if last is not None else 0
        reg.save(update_fields=["status", "seed", "left_after_round"])
    return reg
