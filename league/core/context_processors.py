"""Template context shared by every page: the game catalogue for the navigation bar."""

from django.http import HttpRequest

from league.core.catalogue import game_specs


def games(request: HttpRequest) -> dict:
    return {"nav_games": game_specs()}
