"""Players entered and leaving by the organizers' hand: registration before the start, late entries while
it runs (where the format takes them), invitations, withdrawals, drops and no-shows. Open sign-up, where
players join and leave themselves, and check-in are in `signup.py`; entries by batch in `batch.py`.

An organizer's entry by hand (`registration_add`) is a decision: it bypasses the cap, the waitlist and
approval, and counts towards the cap. A place freed by someone leaving goes to the first waitlisted player
(`signup._fill_places`).

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
from league.core.errors import ErrorCode, NotFound, UserError
from league.matches.models import Match
from league.players.models import Player
from league.players.services import player_by_name, player_create
from league.tournaments.errors import StateConflict
from league.tournaments.models import Registration, Round, Table, Tournament
from league.tournaments.reach import ASKED, out_of_reach_message, reaches
from league.tournaments.services.audit import Action, audit
from league.tournaments.services.brackets import bracket_sync
from league.tournaments.services.common import (
    check_organizer,
    last_round,
    signed_in_player,
    tournament_locked,
)
from league.tournaments.services.forfeits import tables_forfeit_departed
from league.tournaments.services.signup import _fill_places, _moved_up, _registration_of

SEED_BOUNDS = Bounds(1, 100_000)
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
    user = get_user_model().objects.filter(username__iexact=name).first()
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
