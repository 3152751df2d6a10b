"""The venue's declared address: an organizer declares the address the venue's phones share on the event day
(`services.venue_address_set`, only the address they themselves connect from), and site staff approve it
(a staff member's own declaration is approved at once). From an approved address, on that day in the
tournament's zone, the limits per client address (failed log-ins, sign-ups, private links) do not apply and
the limits per account and per private link count instead. `is_declared_venue` is registered in
`league.core.throttling.VENUE_CHECKS` by `TournamentsConfig.ready` (core stands below tournaments and cannot
import it)."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

from django.utils import timezone

from league.tournaments.models import Tournament


def is_declared_venue(client: str) -> bool:
    """Whether some tournament's approved venue address is `client` today (its own zone's day)."""
    today = timezone.now().date()
    candidates = Tournament.objects.filter(
        venue_address=client,
        venue_day__range=(today - timedelta(days=1), today + timedelta(days=1)),
        venue_approved_at__isnull=False,
    ).values_list("venue_day", "time_zone")
    now = timezone.now()
    return any(now.astimezone(ZoneInfo(zone)).date() == day for day, zone in candidates)
