"""The round timer, read side: what a round's timer shows at an instant (`timer_view`).

A timer is stored on its round as three fields (`Round.timer_*`): its length, and either the instant it
reaches zero (running) or the seconds it has left (paused). Nothing ticks on the server: pages show the end
time and count down in the browser from the seconds left when the page was drawn, so a page's clock never
depends on the visitor's own clock being right. The writes are `services.round_timer_*`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import cast

from django.utils import timezone

from league.tournaments.models import Round


def now() -> datetime:
    """The current instant (one seam for the timer's services, pages and their tests)."""
    return timezone.now()


@dataclass(frozen=True)
class TimerView:
    """A round timer at one instant. `state` is "running", "paused" or "over" (ran out, still shown)."""

    state: str
    duration_seconds: int
    seconds_left: int
    ends_at: datetime | None  # running or over: when it reaches (or reached) zero

    @property
    def running(self) -> bool:
        return self.state == "running"

    @property
    def paused(self) -> bool:
        return self.state == "paused"

    @property
    def over(self) -> bool:
        return self.state == "over"

    @property
    def clock(self) -> str:
        """The seconds left as the timer shows them: "49:05", "1:02:00", "0:00"."""
        return clock(self.seconds_left)

    @property
    def length(self) -> str:
        """The timer's whole length as the clock writes it: "50:00"."""
        return clock(self.duration_seconds)


def clock(seconds: int) -> str:
    """Seconds as m:ss (h:mm:ss from an hour on)."""
    hours, rest = divmod(max(seconds, 0), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def timer_view(round_row: Round, at: datetime | None = None) -> TimerView | None:
    """The round's timer at `at` (default now); None when the round has no timer."""
    if round_row.timer_duration_seconds is None:
        return None
    if round_row.timer_paused_remaining is not None:
        return TimerView("paused", round_row.timer_duration_seconds, round_row.timer_paused_remaining, None)
    ends_at = cast(datetime, round_row.timer_ends_at)  # a timer that is not paused runs to its end
    left = seconds_until(ends_at, at)
    return TimerView("running" if left else "over", round_row.timer_duration_seconds, left, ends_at)


def seconds_until(ends_at: datetime, at: datetime | None = None) -> int:
    """Whole seconds from `at` (default now) to `ends_at`, rounded up; 0 once it has passed."""
    return max(0, math.ceil((ends_at - (at or now())) / timedelta(seconds=1)))
