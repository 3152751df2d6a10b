"""What every tournament write shares: the organizer and scorekeeper checks, the signed-in player, the
tournament row lock, the last round, the public-state version."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import F

from league.core.errors import Forbidden
from league.players.models import Player
from league.tournaments.errors import NotOrganizer, StateConflict
from league.tournaments.models import Round, Tournament
from league.tournaments.selectors import can_score, is_organizer, player_of


def check_organizer(*, user: User | AnonymousUser | None, tournament: Tournament) -> None:
    """Raise NotOrganizer (403) unless `user` organizes `tournament` or is site staff, then StateConflict
    (409) when the tournament is cancelled (`check_not_cancelled`)."""
    if not is_organizer(user, tournament):
        raise NotOrganizer()
    check_not_cancelled(tournament)


def check_scorer(*, user: User | AnonymousUser | None, tournament: Tournament) -> None:
    """Raise NotOrganizer (403) unless `user` may enter the tournament's results (organizer or
    scorekeeper), then StateConflict (409) when the tournament is cancelled."""
    if not can_score(user, tournament):
        raise NotOrganizer("only the tournament's organizers and scorekeepers (and site staff) can do this")
    check_not_cancelled(tournament)


def check_not_cancelled(tournament: Tournament) -> None:
    """Raise StateConflict (409) when `tournament` is cancelled (read afresh: the caller's copy may be
    stale): nothing changes in it but the undo of the cancel (within its minutes) and its deletion while no
    round was published."""
    if Tournament.objects.filter(pk=tournament.pk, status=Tournament.Status.CANCELLED).exists():
        raise StateConflict(
            "the tournament is cancelled: undo the cancel (for 10 minutes after it) or clone the event",
            field="status",
        )


def signed_in_player(user: User | AnonymousUser | None) -> Player:
    """The signed-in user's own player; 403 for anonymous users and users without a player."""
    if user is None or not user.is_authenticated:
        raise Forbidden("sign in to take part in a tournament")
    player = player_of(user)
    if player is None:
        raise Forbidden("you have no player yet: create yours on your page (/me/) first")
    return player


def tournament_locked(tournament: Tournament) -> Tournament:
    """The tournament row, locked until the end of the transaction (call inside one)."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def last_round(tournament: Tournament) -> Round | None:
    """The tournament's latest round (of any status), or None before round 1."""
    return tournament.round_set.order_by("-number").first()


def bump_public_versions_of_player(player_id: int) -> None:
    """A player was renamed: every tournament they entered shows the new name, so each counts a change
    (`players.services.RENAME_HOOKS`, registered in `TournamentsConfig.ready`)."""
    Tournament.objects.filter(registrations__player_id=player_id).update(
        public_version=F("public_version") + 1
    )


def bump_public_version(tournament_id: int) -> None:
    """Count one more change to what the tournament's public pages show (results, corrections, drops,
    rounds, timers, settings, names): call inside the transaction of the change, so a refused or rolled-back
    change counts none. Every audited change bumps it (`audit`); the writes that are not audited (a
    result, a round's timer) call it themselves. An F() update: two writes at once both count."""
    Tournament.objects.filter(pk=tournament_id).update(public_version=F("public_version") + 1)
