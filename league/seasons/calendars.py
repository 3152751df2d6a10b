"""iCalendar feeds (`icalendar`): a club's schedule (public) and a user's own events (a private, revocable
address). Times are the events' own: each event's start carries its zone (TZID), so a calendar shows it at
the right moment wherever it is read. An event without a planned start is left out."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from datetime import timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from icalendar import Calendar, Event

from league.seasons.models import CalendarFeed, Club
from league.tournaments.models import Registration, Tournament

# An event has no set end: a calendar shows its rounds' span when the organizer scheduled them (the last
# round's start plus an hour), else this long.
DEFAULT_LENGTH = timedelta(hours=3)
ROUND_LENGTH = timedelta(hours=1)
TOKEN_BYTES = 16
LISTED = (Registration.Status.ACTIVE, Registration.Status.WAITLISTED, Registration.Status.PENDING)


def _calendar(name: str, events: Iterable[Tournament]) -> bytes:
    calendar = Calendar()
    calendar.add("prodid", "-//Pecking Order//seasons//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", name)
    site = settings.SITE_URL.rstrip("/")
    for tournament in events:
        if tournament.starts_at is None:
            continue
        zone = ZoneInfo(tournament.time_zone)
        start = tournament.starts_at.astimezone(zone)
        last_round = max((time.starts_at for time in tournament.round_times.all()), default=None)
        end = last_round.astimezone(zone) + ROUND_LENGTH if last_round is not None else start + DEFAULT_LENGTH
        event = Event()
        event.add("uid", f"tournament-{tournament.pk}@pecking-order")
        event.add("summary", tournament.name)
        event.add("dtstart", start)
        event.add("dtend", max(end, start + ROUND_LENGTH))
        event.add("dtstamp", tournament.created_at)
        event.add("url", f"{site}{tournament.get_absolute_url()}")
        if tournament.status == Tournament.Status.FINISHED:
            event.add("status", "CONFIRMED")
        calendar.add_component(event)
    calendar.add_missing_timezones()
    return calendar.to_ical()


def club_calendar(club: Club) -> bytes:
    """The club's events that are not drafts."""
    events = (
        Tournament.objects.filter(club_event__club=club)
        .exclude(status=Tournament.Status.DRAFT)
        .prefetch_related("round_times")
        .order_by("starts_at", "id")
    )
    return _calendar(club.name, events)


def feed_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def feed_issue(user: User) -> str:
    """A new secret address of the user's feed (the old one stops at once); the token, shown once."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    with transaction.atomic():
        CalendarFeed.objects.update_or_create(user=user, defaults={"token_hash": feed_digest(token)})
    return token


def feed_revoke(user: User) -> bool:
    """Stop the user's feed; whether there was one."""
    deleted, _ = CalendarFeed.objects.filter(user=user).delete()
    return bool(deleted)


def feed_user(token: object) -> User | None:
    """The user whose live feed this token opens, else None (any malformed or revoked token)."""
    if not isinstance(token, str) or not 16 <= len(token) <= 64:
        return None
    feed = CalendarFeed.objects.select_related("user").filter(token_hash=feed_digest(token)).first()
    return feed.user if feed is not None and feed.user.is_active else None


def player_calendar(user: User) -> bytes:
    """The events the user's player is registered in (taking part, waitlisted or awaiting approval)."""
    player = getattr(user, "player", None)
    events: Iterable[Tournament] = []
    if player is not None:
        events = (
            Tournament.objects.filter(registrations__player=player, registrations__status__in=LISTED)
            .exclude(status=Tournament.Status.DRAFT)
            .prefetch_related("round_times")
            .distinct()
            .order_by("starts_at", "id")
        )
    return _calendar(f"{user.get_username()}: my events", events)
