"""Template context shared by every page: the game catalogue for the navigation bar, and whether the page
names a tournament's players by first name and initial."""

from django.http import HttpRequest

from league.core.catalogue import game_specs


def games(request: HttpRequest) -> dict:
    return {"nav_games": game_specs()}


def short_names(request: HttpRequest) -> dict:
    """`short_names` for the `person` tag: set on the request by the tournament pages
    (`league.web.tournaments.common.tournament_or_404`), false elsewhere."""
    return {"short_names": getattr(request, "short_names", False)}
