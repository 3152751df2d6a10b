"""The venue's declared address: an organizer declares the address the venue's phones share on the event day
(`services.venue_address_set`); from that address, on that day in the tournament's zone, the limits per
client address (failed log-ins, sign-ups, private links) do not apply and the limits per account and per
private link count instead. `league.core.throttling.declared_venue` asks `is_declared_venue` through
`DECLARED_VENUE_CALLABLE` (core stands below tournaments and cannot import it)."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

from django.utils import timezone

from league.tournaments.models import Tournament


def is_declared_venue(client: str) -> bool:
    """Whether some tournament declared `client` as its venue's address for today (its own zone's day)."""
    today = timezone.now().date()
    candidates = Tournament.objects.filter(
        venue_address=client, venue_day__range=(today - timedelta(days=1), today + timedelta(days=1))
    ).values_list("venue_day", "time_zone")
    now = timezone.now()
    return any(now.astimezone(ZoneInfo(zone)).date() == day for day, zone in candidates)
