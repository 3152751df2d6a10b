"""What every tournament write shares: the organizer check, the tournament row lock, the last round."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from league.tournaments.errors import NotOrganizer
from league.tournaments.models import Round, Tournament
from league.tournaments.selectors import is_organizer


def check_organizer(*, user: AbstractBaseUser | None, tournament: Tournament) -> None:
    """Raise NotOrganizer (403) unless `user` organizes `tournament` or is site staff."""
    if not is_organizer(user, tournament):
        raise NotOrganizer()


def tournament_locked(tournament: Tournament) -> Tournament:
    """The tournament row, locked until the end of the transaction (call inside one)."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def last_round(tournament: Tournament) -> Round | None:
    """The tournament's latest round (of any status), or None before round 1."""
    return tournament.round_set.order_by("-number").first()
