"""Open sign-up, where players join and leave themselves (a cap, a waitlist, approval), its settings, and
check-in.

Places and the waitlist: while registration is open, a place that frees up (someone leaves, the cap
rises, an organizer approves) goes at once to the first waitlisted player (`_fill_places`), so a waitlist
never holds anyone while places are free.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from league.core.bounds import ROW_IDS, Bounds
from league.core.errors import ErrorCode, Forbidden, NotFound, UserError
from league.players.models import Player
from league.tournaments import clock
from league.tournaments.errors import StateConflict
from league.tournaments.models import Registration, Tournament
from league.tournaments.selectors import WAITLIST_ORDER, check_in_state
from league.tournaments.services.audit import Action, audit
from league.tournaments.services.common import (
    check_organizer,
    signed_in_player,
    tournament_locked,
)

CAPACITY_BOUNDS = Bounds(1, 100_000)
SIGNUP_SETTINGS = ("self_signup", "capacity", "waitlist", "approval")
ENTERED = (Registration.Status.ACTIVE, Registration.Status.WAITLISTED, Registration.Status.PENDING)


def _moved_up(moved: list[Registration]) -> dict:
    """The audit detail of the waitlisted players a freed place went to (none: no detail)."""
    return {"moved_up": [reg.player.name for reg in moved]} if moved else {}


def _fill_places(tournament: Tournament) -> list[Registration]:
    """Give free places under the cap to the first waitlisted players, in waitlist order (all of them without
    a cap). Call before the start, inside a transaction holding the tournament row lock."""
    queue = (
        tournament.registrations.select_related("player")
        .filter(status=Registration.Status.WAITLISTED)
        .order_by(*WAITLIST_ORDER)
    )
    if tournament.capacity is not None:
        active = tournament.registrations.filter(status=Registration.Status.ACTIVE).count()
        free = tournament.capacity - active
        if free <= 0:
            return []
        queue = queue[:free]
    moved = list(queue)
    for reg in moved:
        reg.status = Registration.Status.ACTIVE
    Registration.objects.bulk_update(moved, ["status"])
    return moved


def _has_place(tournament: Tournament) -> bool:
    if tournament.capacity is None:
        return True
    return tournament.registrations.filter(status=Registration.Status.ACTIVE).count() < tournament.capacity


def _check_signup_open(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.DRAFT:
        raise StateConflict("sign-up has not opened yet", field="status")
    if tournament.status != Tournament.Status.REGISTRATION:
        raise StateConflict("the tournament has started: sign-up is closed", field="status")
    if not tournament.self_signup:
        raise StateConflict("the organizers register the players of this tournament: ask them to add you")


def registration_join(*, tournament: Tournament, by: User) -> Registration:
    """The signed-in user's player joins (open sign-up, before the start): with approval the entry is
    pending; otherwise a free place makes it active, a full tournament puts it on the waitlist (or refuses
    it without one). A player who left may join again, at the back of the queue."""
    player = signed_in_player(by)
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        _check_signup_open(tournament)
        if not player.active:
            raise UserError(f"{player.name} is inactive and cannot take seats", field="player")
        if tournament.rated and player.kind != Player.Kind.PERSON:
            raise UserError("bots play rated matches only in bot leagues", field="player")
        reg = tournament.registrations.filter(player=player).first()
        if reg is not None and reg.status == Registration.Status.DECLINED:
            raise Forbidden("the organizers declined your entry: ask them if you think this is a mistake")
        if reg is not None and reg.status in ENTERED:
            already_by_status: dict[str, str] = {
                Registration.Status.ACTIVE: "you are already registered",
                Registration.Status.WAITLISTED: "you are already on the waitlist",
                Registration.Status.PENDING: "your entry already waits for the organizers' approval",
            }
            already = already_by_status[reg.status]
            raise UserError(already, code=ErrorCode.DUPLICATE)
        if tournament.approval:
            status = Registration.Status.PENDING
        elif _has_place(tournament):
            status = Registration.Status.ACTIVE
        elif tournament.waitlist:
            status = Registration.Status.WAITLISTED
        else:
            raise StateConflict("the tournament is full")
        if reg is None:
            reg = Registration(tournament=tournament, player=player)
        reg.status = status
        reg.seed = None
        reg.entered_round = 1
        reg.queued_at = timezone.now()
        reg.checked_in_at = None
        reg.save()
        audit(
            tournament, by, Action.REGISTRATION_JOINED, player=player.name, player_id=player.pk, status=status
        )
    return reg


def registration_withdraw(*, tournament: Tournament, by: User) -> Registration:
    """The signed-in user's player leaves before the start (registered, waitlisted or pending); a place freed
    goes to the first waitlisted player."""
    player = signed_in_player(by)
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        reg = tournament.registrations.filter(player=player, status__in=ENTERED).first()
        if reg is None:
            raise NotFound("you are not registered in this tournament")
        if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
            raise StateConflict("the tournament has started: ask an organizer to drop you", field="status")
        had_place = reg.status == Registration.Status.ACTIVE
        reg.status = Registration.Status.WITHDRAWN
        reg.seed = None
        reg.checked_in_at = None
        reg.save(update_fields=["status", "seed", "checked_in_at"])
        moved = _fill_places(tournament) if had_place else []
        audit(
            tournament,
            by,
            Action.REGISTRATION_LEFT,
            player=player.name,
            player_id=player.pk,
            **_moved_up(moved),
        )
    return reg


def _registration_of(tournament: Tournament, player_id: Any) -> Registration:
    reg = None
    if ROW_IDS.contains(player_id):
        reg = tournament.registrations.select_related("player").filter(player_id=player_id).first()
    if reg is None:
        raise NotFound(f"player {player_id} is not registered", field="player")
    return reg


def registration_decide(*, tournament: Tournament, by: User, player_id: Any, approve: Any) -> Registration:
    """An organizer approves a pending entry (a place if one is free, else the waitlist, at its back) or
    declines it (the player cannot join again by themselves)."""
    check_organizer(user=by, tournament=tournament)
    if not isinstance(approve, bool):
        raise UserError("approve is true or false", field="approve")
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
            raise StateConflict("the tournament has started: entries are decided", field="status")
        reg = _registration_of(tournament, player_id)
        if reg.status != Registration.Status.PENDING:
            raise StateConflict(
                f"{reg.player} is not waiting for approval ({reg.get_status_display().lower()})"
            )
        if not approve:
            reg.status = Registration.Status.DECLINED
        elif _has_place(tournament):
            reg.status = Registration.Status.ACTIVE
        elif tournament.waitlist:
            reg.status = Registration.Status.WAITLISTED
        else:
            raise StateConflict("the tournament is full: raise the cap or allow a waitlist to approve more")
        reg.queued_at = timezone.now()
        reg.save(update_fields=["status", "queued_at"])
        decided = Action.REGISTRATION_APPROVED if approve else Action.REGISTRATION_DECLINED
        audit(tournament, by, decided, player=reg.player.name, player_id=reg.player_id, status=reg.status)
    return reg


def registration_check_in(
    *, tournament: Tournament, by: User, player_id: Any = None, checked_in: Any = True
) -> Registration:
    """Check a registered or waitlisted player in (or, with `checked_in` False, undo it), before the start.

    Without `player_id` the signed-in user checks their own player in, once the window has opened; with one,
    an organizer checks that player in by hand, whenever before the start."""
    if player_id is None:
        player = signed_in_player(by)
    else:
        check_organizer(user=by, tournament=tournament)
    if not isinstance(checked_in, bool):
        raise UserError("checked_in is true or false", field="checked_in")
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        state = check_in_state(tournament)
        if state == "off":
            raise StateConflict("this tournament does not use check-in")
        if state == "closed":
            raise StateConflict("the tournament has started: check-in is closed", field="status")
        if player_id is None:
            if state == "not_yet":
                opens = clock.show(tournament.checkin_opens_at, tournament.time_zone)
                raise StateConflict(f"check-in opens on {opens}")
            reg = tournament.registrations.select_related("player").filter(player=player).first()
            if reg is None or reg.status not in ENTERED:
                raise NotFound("you are not registered in this tournament")
        else:
            reg = _registration_of(tournament, player_id)
        if reg.status not in (Registration.Status.ACTIVE, Registration.Status.WAITLISTED):
            raise StateConflict(
                f"{reg.player} is {reg.get_status_display().lower()}: "
                "registered and waitlisted players check in"
            )
        if (reg.checked_in_at is not None) != checked_in:
            reg.checked_in_at = timezone.now() if checked_in else None
            reg.save(update_fields=["checked_in_at"])
            audit(
                tournament,
                by,
                Action.CHECKED_IN if checked_in else Action.CHECK_IN_UNDONE,
                player=reg.player.name,
                player_id=reg.player_id,
                desk=player_id is not None,
            )
    return reg


def signup_configure(*, tournament: Tournament, by: User, **changes: Any) -> Tournament:
    """Set how players sign up, before the start: `self_signup` (players join and leave themselves while
    registration is open), `capacity` (places; None for no cap), `waitlist` (when full, joiners queue; else
    they are refused) and `approval` (joins wait for an organizer).

    A higher cap (or none) moves the first waitlisted players up at once; a lower one takes no place away.
    Turning approval off leaves the entries already pending for the organizers to decide."""
    check_organizer(user=by, tournament=tournament)
    unknown = sorted(set(changes) - set(SIGNUP_SETTINGS))
    if unknown:
        raise UserError(f"unknown setting {', '.join(unknown)}", field=unknown[0])
    for flag in ("self_signup", "waitlist", "approval"):
        if flag in changes and not isinstance(changes[flag], bool):
            raise UserError(f"{flag} must be true or false", field=flag)
    if changes.get("capacity") is not None:
        CAPACITY_BOUNDS.check(changes["capacity"], "capacity")
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
            raise StateConflict("sign-up settings are fixed once the tournament has started", field="status")
        capacity = changes.get("capacity", tournament.capacity)
        cut = tournament.cut_size if tournament.format == Tournament.Format.STAGES else None
        if capacity is not None and cut is not None and capacity < cut:
            raise UserError(
                f"{capacity} places cannot fill this tournament's top cut of {cut}",
                field="capacity",
            )
        fields = [
            name for name in SIGNUP_SETTINGS if name in changes and changes[name] != getattr(tournament, name)
        ]
        changed = {name: [getattr(tournament, name), changes[name]] for name in fields}
        for name in fields:
            setattr(tournament, name, changes[name])
        if fields:
            tournament.save(update_fields=fields)
        moved = _fill_places(tournament)
        if changed:
            audit(tournament, by, Action.SETTINGS_CHANGED, changes=changed, **_moved_up(moved))
    return tournament
