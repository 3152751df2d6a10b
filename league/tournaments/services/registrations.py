"""Players joining and leaving a tournament: registration by organizers before the start, late entries
while it runs (where the format takes them), withdrawals, drops and no-shows; open sign-up, where players
join and leave themselves (a cap, a waitlist, approval); and check-in.

Places and the waitlist: while registration is open, a place that frees up (someone leaves, the cap
rises, an organizer approves) goes at once to the first waitlisted player (`_fill_places`), so a waitlist
never holds anyone while places are free. An organizer's entry by hand (`registration_add`) is a decision:
it bypasses the cap, the waitlist and approval, and counts towards the cap.

Reach (`league.tournaments.reach`): an organizer registers by hand only the players they reach (their
walk-ins, and players who asked to join); anyone else they invite by user name (`registration_invite`), and
the invitee accepts or declines (`invitation_answer`). An invitation holds no place and no seed: the invited
player is never paired, counted or rated until they accept.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from league.core import events
from league.core.bounds import ROW_IDS, Bounds
from league.core.checks import is_int
from league.core.errors import ErrorCode, Forbidden, NotFound, UserError
from league.matches.models import Match
from league.players.models import Player
from league.players.services import player_by_name, player_create
from league.tournaments import clock
from league.tournaments.errors import StateConflict
from league.tournaments.models import Registration, Round, Table, Tournament
from league.tournaments.reach import ASKED, out_of_reach_message, reaches
from league.tournaments.selectors import WAITLIST_ORDER, check_in_state
from league.tournaments.services.audit import Action, audit
from league.tournaments.services.brackets import bracket_sync
from league.tournaments.services.common import (
    check_organizer,
    last_round,
    signed_in_player,
    tournament_locked,
)
from league.tournaments.services.forfeits import tables_forfeit_departed

SEED_BOUNDS = Bounds(1, 100_000)
CAPACITY_BOUNDS = Bounds(1, 100_000)
SIGNUP_SETTINGS = ("self_signup", "capacity", "waitlist", "approval")
ENTERED = (Registration.Status.ACTIVE, Registration.Status.WAITLISTED, Registration.Status.PENDING)
NOT_PLAYED = (
    Registration.Status.WAITLISTED,
    Registration.Status.PENDING,
    Registration.Status.DECLINED,
    Registration.Status.INVITED,
)
LEAVING: dict[str, str] = {  # the audit action of each way of leaving
    Registration.Status.WITHDRAWN: Action.REGISTRATION_WITHDRAWN,
    Registration.Status.DROPPED: Action.REGISTRATION_DROPPED,
    Registration.Status.NO_SHOW: Action.REGISTRATION_NO_SHOW,
}


def _check_late_entry(tournament: Tournament) -> int:
    """The round a player registering now enters at; raises unless the format takes late entries."""
    last = last_round(tournament)
    if last is None:
        return 1
    fixed = tournament.format in (
        Tournament.Format.ROUND_ROBIN,
        Tournament.Format.SINGLE_ELIMINATION,
        Tournament.Format.DOUBLE_ELIMINATION,
    )
    if tournament.format == Tournament.Format.STAGES:
        fixed = tournament.first_stage == "round_robin" or last.number >= (tournament.rounds or 0)
    if fixed:
        raise StateConflict(
            "the field is fixed once the first round is drawn: no late entries in this format"
        )
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
    *, tournament: Tournament, by: User, player_id: Any = None, name: Any = None, seed: Any = None
) -> Registration:
    """Register a player (by id, or by name: a new name makes a new player). While the tournament runs this is
    a late entry: the player enters at the next round with zero points and the next free seed.

    Only a player within the organizer's reach (`league.tournaments.reach`) is registered by hand: anyone
    else is refused (a name: add a distinguishing word, or invite them by user name).

    An organizer's entry bypasses the cap, the waitlist and approval: a waitlisted, pending or declined
    player registered by hand gets a place at once."""
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
            _check_reach(tournament, by, player, typed=False)
        elif isinstance(name, str) and name.strip():
            player = player_by_name(name)
            if player is None:
                player = player_create(name=name)
            else:
                _check_reach(tournament, by, player, typed=True)
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
                    never_played = existing.status in NOT_PLAYED
                    if existing.entered_round != entered and tournament.status == Tournament.Status.RUNNING:
                        if not never_played:
                            raise StateConflict(f"{player.name} left this tournament and cannot come back")
                        existing.entered_round = entered
                    existing.status = Registration.Status.ACTIVE
                    existing.seed = seed
                    existing.save(update_fields=["status", "seed", "entered_round"])
                    reg = existing
                else:
                    reg = Registration.objects.create(
                        tournament=tournament, player=player, seed=seed, entered_round=entered
                    )
        except IntegrityError:
            raise UserError(f"seed {seed} is taken", field="seed") from None
        audit(
            tournament,
            by,
            Action.REGISTRATION_ADDED,
            player=player.name,
            player_id=player.pk,
            seed=seed,
            entered_round=entered,
        )
        return reg


def _check_reach(tournament: Tournament, by: User, player: Player, *, typed: bool) -> None:
    """Refuse an organizer's entry of a player out of their reach (an invited one: already invited)."""
    if reaches(by, player, tournament):
        return
    if tournament.registrations.filter(player=player, status=Registration.Status.INVITED).exists():
        raise UserError(
            f"{player.name} is invited already: they accept or decline on their page",
            field="player",
            code=ErrorCode.DUPLICATE,
        )
    if player.kind == Player.Kind.BOT:  # no account to accept an invitation
        raise UserError(
            f"{player.name} is a bot: only site staff enter bots into tournaments", field="player"
        )
    if typed:
        raise UserError(out_of_reach_message(player), field="player")
    raise UserError(f"{player.name} is not one of your walk-ins: invite them by user name", field="player")


def registration_invite(*, tournament: Tournament, by: User, username: Any) -> Registration:
    """Invite the player of the user called `username` (an organizer's entry of someone they do not reach):
    an `invited` registration, no place and no seed, that the invitee accepts or declines on their page
    (`invitation_answer`). The invitee hears of it in their inbox."""
    check_organizer(user=by, tournament=tournament)
    if not isinstance(username, str) or not username.strip():
        raise UserError("name the user to invite", field="username")
    name = username.strip()
    user = get_user_model().objects.filter(username=name).first()
    if user is None:
        raise UserError(f"no user called {name!r}", field="username")
    player = Player.objects.filter(user=user).first()
    if player is None:
        raise UserError(f"{name} has no player yet: they create theirs on their page first", field="username")
    if not player.active:
        raise UserError(f"{player.name} is inactive and cannot take seats", field="username")
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        if tournament.status == Tournament.Status.DRAFT:
            raise StateConflict("open registration first: only the organizers see a draft", field="status")
        if tournament.status == Tournament.Status.FINISHED:
            raise StateConflict("the tournament is finished", field="status")
        if tournament.status == Tournament.Status.RUNNING:
            _check_late_entry(tournament)
        reg = tournament.registrations.filter(player=player).first()
        if reg is not None:
            if reg.status in (Registration.Status.ACTIVE, Registration.Status.INVITED):
                active = reg.status == Registration.Status.ACTIVE
                already = "already registered" if active else "invited already"
                raise UserError(f"{player.name} is {already}", field="username", code=ErrorCode.DUPLICATE)
            if reg.status in ASKED:
                raise UserError(
                    f"{player.name} asked to join this tournament: register them instead", field="username"
                )
            if reg.status != Registration.Status.WITHDRAWN:
                raise StateConflict(f"{player.name} left this tournament and cannot come back")
        else:
            reg = Registration(tournament=tournament, player=player)
        reg.status = Registration.Status.INVITED
        reg.seed = None
        reg.entered_round = 1
        reg.queued_at = None
        reg.checked_in_at = None
        reg.save()
        audit(tournament, by, Action.REGISTRATION_INVITED, player=player.name, player_id=player.pk, user=name)
        events.emit(events.player_invited, tournament_id=tournament.pk, player_id=player.pk)
    return reg


def invitation_withdraw(*, tournament: Tournament, by: User, player_id: Any) -> None:
    """An organizer takes back an invitation not answered yet (the invited player was never in)."""
    check_organizer(user=by, tournament=tournament)
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        reg = _registration_of(tournament, player_id)
        if reg.status != Registration.Status.INVITED:
            raise StateConflict(f"{reg.player} is not invited ({reg.get_status_display().lower()})")
        reg.delete()
        audit(tournament, by, Action.INVITATION_WITHDRAWN, player=reg.player.name, player_id=reg.player_id)


def invitation_answer(*, tournament: Tournament, by: User, accept: Any) -> Registration | None:
    """The signed-in user accepts or declines their invitation to `tournament`. Accepted, the invitation is an
    entry like an organizer's (a place at once, whatever the cap; while the tournament runs a late entry with
    the next free seed); declined, it is gone (None)."""
    player = signed_in_player(by)
    if not isinstance(accept, bool):
        raise UserError("accept is true or false", field="accept")
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        reg = tournament.registrations.filter(player=player, status=Registration.Status.INVITED).first()
        if reg is None:
            raise NotFound("you have no invitation to this tournament")
        if not accept:
            reg.delete()
            audit(tournament, by, Action.INVITATION_DECLINED, player=player.name, player_id=player.pk)
            return None
        if tournament.status == Tournament.Status.FINISHED:
            raise StateConflict("the tournament is finished", field="status")
        if not player.active:
            raise UserError(f"{player.name} is inactive and cannot take seats", field="player")
        entered, seed = 1, None
        if tournament.status == Tournament.Status.RUNNING:
            entered = _check_late_entry(tournament)
            seed = 1 + (tournament.registrations.aggregate(top=Max("seed"))["top"] or 0)
        reg.status = Registration.Status.ACTIVE
        reg.seed = seed
        reg.entered_round = entered
        reg.queued_at = timezone.now()
        reg.save(update_fields=["status", "seed", "entered_round", "queued_at"])
        audit(
            tournament,
            by,
            Action.INVITATION_ACCEPTED,
            player=player.name,
            player_id=player.pk,
            seed=seed,
            entered_round=entered,
        )
    return reg


def registration_leave(*, tournament: Tournament, by: User, player_id: Any, status: str) -> Registration:
    """A player leaves: `withdrawn` before the start, `dropped` or `no_show` while the tournament runs (they
    are paired no more; results already played stay; their published tables still waiting close as
    forfeits). Before the start an organizer may also take a waitlisted or pending player off; a place
    freed goes to the first waitlisted player."""
    check_organizer(user=by, tournament=tournament)
    if status not in (
        Registration.Status.WITHDRAWN,
        Registration.Status.DROPPED,
        Registration.Status.NO_SHOW,
    ):
        raise UserError("status is one of withdrawn, dropped, no_show", field="status")
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        reg = None
        if ROW_IDS.contains(player_id):  # a larger id names no row, and SQLite cannot even compare it
            reg = tournament.registrations.filter(player_id=player_id).first()
        if reg is None:
            raise NotFound(f"player {player_id} is not registered", field="player")
        started = tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED)
        queued = reg.status in (Registration.Status.WAITLISTED, Registration.Status.PENDING) and not started
        if reg.status in NOT_PLAYED and not queued:
            raise StateConflict(f"{reg.player} is {reg.get_status_display().lower()}, not playing")
        if reg.status != Registration.Status.ACTIVE and not queued:
            raise StateConflict(f"{reg.player} has already left ({reg.get_status_display().lower()})")
        if status == Registration.Status.WITHDRAWN and started:
            raise StateConflict("the tournament has started: the player drops (or is a no-show) instead")
        if status != Registration.Status.WITHDRAWN and not started:
            raise StateConflict("before the start a player withdraws")
        if tournament.status == Tournament.Status.FINISHED:
            raise StateConflict("the tournament is finished", field="status")
        last = last_round(tournament)
        if (
            last is not None
            and last.status == Round.Status.DRAFT
            and any(reg.player_id in table.planned_seats for table in last.tables.all())
        ):
            raise StateConflict(
                f"{reg.player} is seated in the draft of round {last.number}: discard it first"
            )
        had_place = reg.status == Registration.Status.ACTIVE
        reg.status = status
        if status == Registration.Status.WITHDRAWN:
            reg.seed = None
            reg.checked_in_at = None
        else:
            reg.left_after_round = last.number if last is not None else 0
        reg.save(update_fields=["status", "seed", "left_after_round", "checked_in_at"])
        moved = _fill_places(tournament) if had_place and status == Registration.Status.WITHDRAWN else []
        audit(
            tournament,
            by,
            LEAVING[status],
            player=reg.player.name,
            player_id=reg.player_id,
            after_round=reg.left_after_round,
            **_moved_up(moved),
        )
        if status != Registration.Status.WITHDRAWN:
            waiting = Table.objects.filter(
                round__tournament=tournament,
                match__status=Match.Status.SCHEDULED,
                match__seats__player_id=reg.player_id,
            )
            if tables_forfeit_departed(tournament=tournament, tables=list(waiting), by=by):
                bracket_sync(tournament=tournament, by=by)
    return reg


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
