"""Template context shared by every page: the game catalogue for the navigation bar, and whether the page
names a tournament's players by first name and initial, and the zone its times are shown in."""

from django.http import HttpRequest
from django.utils import timezone

from league.core.catalogue import game_specs


def games(request: HttpRequest) -> dict:
    return {"nav_games": game_specs()}


def short_names(request: HttpRequest) -> dict:
    """`short_names` for the `person` tag: set on the request by the tournament pages
    (`league.web.tournaments.common.tournament_or_404`), false elsewhere."""
    return {"short_names": getattr(request, "short_names", False)}


def page_zone(request: HttpRequest) -> dict:
    """`page_zone`: the zone this page shows its times in (the reader's, or the event's on its pages;
    `league.accounts.zones`), to name beside them."""
    return {"page_zone": timezone.get_current_timezone_name()}
