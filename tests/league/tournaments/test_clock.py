"""The event's clock: local times read in a zone (gaps refused, repeats the first), shown with the zone."""

from datetime import UTC, datetime

import pytest

from league.core.errors import UserError
from league.tournaments import clock


@pytest.mark.parametrize(
    ("value", "zone", "instant"),
    [
        ("2026-12-05 10:00", "Europe/Berlin", datetime(2026, 12, 5, 9, 0, tzinfo=UTC)),
        ("2026-12-05T10:00", "America/New_York", datetime(2026, 12, 5, 15, 0, tzinfo=UTC)),
        ("2026-12-05T10:00:00Z", "Asia/Tokyo", datetime(2026, 12, 5, 10, 0, tzinfo=UTC)),
        ("2026-12-05T10:00+05:30", "UTC", datetime(2026, 12, 5, 4, 30, tzinfo=UTC)),
        (
            "2026-10-25 02:30",
            "Europe/Berlin",
            datetime(2026, 10, 25, 0, 30, tzinfo=UTC),
        ),  # repeated: the first
        (datetime(2026, 7, 1, 12, 0), "Europe/London", datetime(2026, 7, 1, 11, 0, tzinfo=UTC)),
        ("", "UTC", None),
        (None, "UTC", None),
    ],
)
def test_times_are_read_in_the_events_zone(value, zone, instant):
    assert clock.to_instant(value, zone, field="starts_at") == instant


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("2026-03-29 02:30", "2026-03-29 02:30 does not exist in Europe/Berlin: the clocks skip that hour"),
        ("tomorrow", "'tomorrow' is not a time: write it as 2026-12-05 10:00"),
        ("1066-10-14 09:00", "a time lies between the years 1970 and 2200"),
        ("2026-12-05 10:00" + " " * 40, "a time is at most 40 characters, e.g. 2026-12-05 10:00"),
        (17, "give the time as text, e.g. 2026-12-05 10:00"),
    ],
)
def test_bad_times_are_refused_with_a_clear_message(value, message):
    with pytest.raises(UserError) as caught:
        clock.to_instant(value, "Europe/Berlin", field="starts_at")
    assert (caught.value.message, caught.value.field) == (message, "starts_at")


def test_zones_are_iana_names():
    assert clock.check_zone(" Europe/Berlin ") == "Europe/Berlin"
    for bad in ("Berlin", "/etc/passwd", "", None, "x" * 100):
        with pytest.raises(UserError, match="is not a time zone: give an IANA name such as Europe/Berlin"):
            clock.check_zone(bad)


def test_instants_are_shown_in_the_zone_with_its_name():
    instant = datetime(2026, 12, 5, 9, 0, tzinfo=UTC)
    assert clock.show(instant, "Europe/Berlin") == "Sat 5 Dec 2026, 10:00 (Europe/Berlin)"
    assert clock.show(instant, "Pacific/Auckland") == "Sat 5 Dec 2026, 22:00 (Pacific/Auckland)"
    assert clock.show(instant, "America/Los_Angeles") == "Sat 5 Dec 2026, 01:00 (America/Los_Angeles)"
    assert clock.local_input(instant, "Europe/Berlin") == "2026-12-05 10:00"
    assert clock.local_input(instant, "Europe/Berlin", sep="T") == "2026-12-05T10:00"
    assert clock.local_iso(instant, "Europe/Berlin") == "2026-12-05T10:00:00+01:00"
    assert clock.show(None, "UTC") == "" and clock.local_iso(None, "UTC") is None
