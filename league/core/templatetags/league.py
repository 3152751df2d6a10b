"""Template filters of the league pages."""

from django import template

from league.core.catalogue import game_name as catalogue_game_name

register = template.Library()


@register.filter
def game_name(game_id: str) -> str:
    """A game's display name from the registry (the id itself for a game no longer registered)."""
    return catalogue_game_name(game_id)
