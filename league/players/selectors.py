"""Reads for players."""

from django.db.models import Count, QuerySet

from league.players.models import Player


def player_list(*, search: str = "") -> QuerySet[Player]:
    """Players by name, with the number of seats each has taken."""
    players = Player.objects.annotate(seat_count=Count("seats"))
    if search:
        players = players.filter(name__icontains=search)
    return players.order_by("name")
