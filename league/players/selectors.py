"""Reads for players."""

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, QuerySet

from league.players.models import Player


def player_list(*, search: str = "", kind: str | None = None) -> QuerySet[Player]:
    """Players by name, with the number of seats each has taken; only people or only bots given a `kind`."""
    players = Player.objects.annotate(seat_count=Count("seats"))
    if kind:
        players = players.filter(kind=kind)
    if search:
        players = players.filter(name__icontains=search)
    return players.order_by("name")


def player_of(user: AbstractBaseUser | None) -> Player | None:
    """The person-player a signed-in user owns, or None (anonymous, or no player yet). Read afresh each call
    (not through the cached `user.player`), so a player created or claimed earlier in a request is seen."""
    if user is None or not user.is_authenticated:
        return None
    return Player.objects.filter(user=user).first()
