"""The time zone a page shows its times in.

An event's pages show the event's zone (`league.web.tournaments.common.tournament_or_404` activates it);
every other page shows the reader's: the zone set on their account (`Preference.time_zone`), else the site's
TIME_ZONE. The API keeps UTC instants whoever asks. `ReaderTimeZone` activates the reader's zone for each
request; `time_zone_set` is the account's write, `reader_zone` its read.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from league.accounts.models import Preference
from league.tournaments.clock import check_zone


def reader_zone(user: AbstractBaseUser | AnonymousUser | None) -> str:
    """The zone of the pages that are `user`'s own: their account's, else the site's."""
    if user is None or not user.is_authenticated:
        return settings.TIME_ZONE
    zone = Preference.objects.filter(user_id=user.pk).values_list("time_zone", flat=True).first()
    return zone or settings.TIME_ZONE


def time_zone_set(*, user: User, time_zone: object) -> str:
    """Set the zone of the user's own pages: an IANA name, or "" for the site's. Returns the zone now
    shown."""
    zone = "" if isinstance(time_zone, str) and not time_zone.strip() else check_zone(time_zone)
    Preference.objects.update_or_create(user=user, defaults={"time_zone": zone})
    return zone or settings.TIME_ZONE


def reads_no_session(view: Callable) -> Callable:
    """Mark a view drawn the same for everyone (the embed): `ReaderTimeZone` leaves it the site's zone rather
    than read the session to find the reader's."""
    setattr(view, "reads_no_session", True)  # noqa: B010
    return view


class ReaderTimeZone:
    """Activates the reader's zone for a page's view (after the authentication middleware); API requests keep
    UTC, and a view marked `reads_no_session` the site's zone."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(
        self, request: HttpRequest, view_func: Callable, view_args: tuple, view_kwargs: dict
    ) -> None:
        if request.path.startswith("/api/"):
            timezone.activate(zoneinfo.ZoneInfo("UTC"))
        elif not getattr(view_func, "reads_no_session", False):
            timezone.activate(zoneinfo.ZoneInfo(reader_zone(getattr(request, "user", None))))
