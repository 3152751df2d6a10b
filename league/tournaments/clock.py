"""The event's clock: a tournament's times are instants (UTC in the database), shown and read in the
tournament's own IANA time zone, always with the zone named: "Sat 5 Dec 2026, 10:00 (Europe/Berlin)".

Forms and the API give times as local times of the event's zone ("2026-12-05 10:00", "2026-12-05T10:00")
or as instants with an offset ("2026-12-05T09:00:00Z", "2026-12-05T10:00+01:00"). A local time that the
zone skips (the hour the clocks jump forward) is refused; one that it repeats (the hour the clocks fall
back) is the first of the two. Names and dates are English and fixed, whatever the server's locale.
"""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime
from functools import lru_cache

from league.core.errors import UserError

DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
YEARS = (1970, 2200)  # an event's times lie well inside; outside, zone arithmetic can overflow
MAX_INPUT = 40  # characters of a time as text


@lru_cache(maxsize=1)
def zone_names() -> frozenset[str]:
    """Every IANA zone name this machine knows (the tzdata package ships them)."""
    return frozenset(zoneinfo.available_timezones())


@lru_cache(maxsize=1)
def _zones_by_folded_name() -> dict[str, str]:
    return {name.casefold(): name for name in zone_names()}


def check_zone(name: object, *, field: str = "time_zone") -> str:
    """The zone's IANA name, matched without regard to case ("europe/berlin" is Europe/Berlin; "CET" and
    the other names zoneinfo knows are taken as it takes them); a UserError naming `field` otherwise."""
    found = _zones_by_folded_name().get(name.strip().casefold()) if isinstance(name, str) else None
    if found is None:
        shown = name if isinstance(name, str) and len(name) <= 64 else "this"
        raise UserError(f"{shown!r} is not a time zone: give an IANA name such as Europe/Berlin", field=field)
    return found


def _zone(name: str) -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo(name)


def to_instant(value: object, zone_name: str, *, field: str) -> datetime | None:
    """A time given as text or a datetime, as an aware instant in UTC; None for an empty value.

    Naive values are local times of `zone_name`; values with an offset are instants already.
    """
    if value is None or value == "":
        return None
    if isinstance(value, str):
        if len(value) > MAX_INPUT:
            raise UserError("a time is at most 40 characters, e.g. 2026-12-05 10:00", field=field)
        text = value.strip()
        try:
            value = datetime.fromisoformat(text)
        except ValueError:
            raise UserError(f"{text!r} is not a time: write it as 2026-12-05 10:00", field=field) from None
    if not isinstance(value, datetime):
        raise UserError("give the time as text, e.g. 2026-12-05 10:00", field=field)
    if not YEARS[0] <= value.year <= YEARS[1]:
        raise UserError(f"a time lies between the years {YEARS[0]} and {YEARS[1]}", field=field)
    if value.tzinfo is not None:
        return value.astimezone(UTC)
    zone = _zone(zone_name)
    local = value.replace(tzinfo=zone, fold=0)
    instant = local.astimezone(UTC)
    if instant.astimezone(zone).replace(tzinfo=None) != value:
        raise UserError(
            f"{value:%Y-%m-%d %H:%M} does not exist in {zone_name}: the clocks skip that hour", field=field
        )
    return instant


def show(instant: datetime | None, zone_name: str) -> str:
    """The instant as the event's local time with the zone named: "Sat 5 Dec 2026, 10:00 (Europe/Berlin)"."""
    if instant is None:
        return ""
    local = instant.astimezone(_zone(zone_name))
    return (
        f"{DAYS[local.weekday()]} {local.day} {MONTHS[local.month - 1]} {local.year}, "
        f"{local:%H:%M} ({zone_name})"
    )


def local_input(instant: datetime | None, zone_name: str, *, sep: str = " ") -> str:
    """The instant as the event's local time for a form field: "2026-12-05 10:00" (`sep` "T" for a
    datetime-local input: "2026-12-05T10:00")."""
    if instant is None:
        return ""
    return f"{instant.astimezone(_zone(zone_name)):%Y-%m-%d}{sep}{instant.astimezone(_zone(zone_name)):%H:%M}"


def local_iso(instant: datetime | None, zone_name: str) -> str | None:
    """The instant in ISO 8601 with the event's offset ("2026-12-05T10:00:00+01:00"), for the API."""
    if instant is None:
        return None
    return instant.astimezone(_zone(zone_name)).isoformat()
