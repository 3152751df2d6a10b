"""A rating-history chart as plain SVG geometry (no JavaScript, no external assets)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import cast

WIDTH = 600
HEIGHT = 240
LEFT, RIGHT, TOP, BOTTOM = 46, 12, 14, 30  # room for the rating labels (left) and the date labels (bottom)
MAX_POINTS = 120  # per line; a longer history is thinned (its last point always kept)
DOT_BUDGET = 240  # readable points (tooltip and table row) over all lines, at least MIN_DOTS a line
MIN_DOTS = 12
PALETTE = ("#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65", "#5d6d7e")


@dataclass(frozen=True)
class Series:
    """One line: a rating after each match, with the time of that match (as the page should show it)."""

    label: str
    values: Sequence[float]
    dates: Sequence[datetime] = ()


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    value: float
    when: datetime | None
    title: str  # "<label>: <value> on <date>", the point's tooltip and its row in the data table

    @property
    def tip(self) -> str:
        """The label shown on hover or tap: the value and date (the line's colour says whose)."""
        return f"{self.value:.1f}" + (f" · {self.when:%Y-%m-%d %H:%M}" if self.when is not None else "")

    @property
    def tip_anchor(self) -> str:
        """The tooltip's side: left of the point on the right half, so it stays inside the box."""
        return "end" if self.x > WIDTH / 2 else "start"

    @property
    def tip_y(self) -> float:
        return self.y + 16 if self.y < TOP + 16 else self.y - 8


@dataclass(frozen=True)
class Line:
    label: str
    colour: str
    index: int  # its colour class, series-<index % len(PALETTE)>
    points: str
    last: float
    dots: list[Point] = field(default_factory=list)


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: list[Line]
    y_ticks: list[tuple[str, float]]  # (rating label, y)
    x_ticks: list[tuple[str, float]]  # (date label, x)
    baseline: float
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP

    @property
    def first_date(self) -> datetime | None:
        dates = [dot.when for line in self.lines for dot in line.dots if dot.when is not None]
        return min(dates) if dates else None

    @property
    def last_date(self) -> datetime | None:
        dates = [dot.when for line in self.lines for dot in line.dots if dot.when is not None]
        return max(dates) if dates else None


def thinned(values: Sequence, most: int = MAX_POINTS) -> list:
    """At most about `most` of `values`, evenly spaced, the last always kept."""
    step = max(1, -(-len(values) // most))
    kept = list(values[::step])
    if values and (len(values) - 1) % step:
        kept.append(values[-1])
    return kept


def _nice_step(span: float, count: int = 4) -> float:
    raw = span / count
    magnitude = 10 ** math.floor(math.log10(raw))
    return next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)


def _rating_ticks(low: float, high: float, step: float) -> list[float]:
    first = math.ceil(low / step - 1e-9) * step
    ticks, value = [], first
    while value <= high + 1e-9:
        ticks.append(round(value, 6))
        value += step
    return ticks


def _rating_label(value: float, step: float) -> str:
    decimals = 0 if step >= 1 else 1 if step >= 0.1 else 2
    return f"{value:.{decimals}f}"


def date_label(when: datetime, span: timedelta) -> str:
    """A date on the axis: the time of day within a day, the day within a year, else the month."""
    if span < timedelta(hours=1):
        return when.strftime("%H:%M:%S")
    if span <= timedelta(days=1):
        return when.strftime("%H:%M")
    if span <= timedelta(days=300):
        return f"{when.day} {when:%b}"
    return when.strftime("%b %Y")


def point_title(label: str, value: float, when: datetime | None) -> str:
    return f"{label}: {value:.1f}" + (f" on {when:%Y-%m-%d %H:%M}" if when is not None else "")


def history_chart(series: Sequence[Series], *, by_time: bool = True) -> Chart | None:
    """Scale each series (conservative rating after each match) into a shared box; None when empty.

    With dates and `by_time`, the x axis is time (date ticks below), unless many matches share a timestamp
    (over a fifth of them). Otherwise the matches are spread evenly,
    the n-th match of every line above the same x, and the ticks give the dates of the longest line's matches
    there (a bot league plays hundreds of matches within minutes, many stored at the same second). Each line
    keeps at most MAX_POINTS points, each with its tooltip (`Point.title`).
    """
    series = [s for s in series if s.values]
    if not series:
        return None
    low = min(min(s.values) for s in series)
    high = max(max(s.values) for s in series)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    step = _nice_step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    dated = all(len(s.dates) == len(s.values) for s in series)
    dates = [when for s in series for when in s.dates] if dated else []
    start, end = (min(dates), max(dates)) if dates else (None, None)
    # Time on the x axis only when the matches are spread in time: a bot league's are stored many to a second.
    timed = (
        by_time
        and start is not None
        and end is not None
        and end > start
        and len(set(dates)) >= 0.8 * len(dates)
    )
    longest = max(len(s.values) for s in series)
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def y(value: float) -> float:
        return round(HEIGHT - BOTTOM - (value - low) / (high - low) * inner_h, 1)

    def x(index: int, when: datetime | None) -> float:
        if timed:  # then every point has a date, and start and end are set
            at, first, last = cast(datetime, when), cast(datetime, start), cast(datetime, end)
            return round(LEFT + (at - first) / (last - first) * inner_w, 1)
        return round(LEFT + (index / max(longest - 1, 1)) * inner_w, 1)

    lines = []
    for i, s in enumerate(series):
        whens = list(s.dates) if dated else [None] * len(s.values)
        kept = thinned(list(zip(range(len(s.values)), s.values, whens, strict=True)))
        dots = [
            Point(x(j, when), y(v), v, when, point_title(s.label, v, when))
            for j, v, when in thinned(kept, max(MIN_DOTS, DOT_BUDGET // len(series)))
        ]
        lines.append(
            Line(
                label=s.label,
                colour=PALETTE[i % len(PALETTE)],
                index=i % len(PALETTE),
                points=" ".join(f"{x(j, when)},{y(v)}" for j, v, when in kept),
                last=s.values[-1],
                dots=dots,
            )
        )
    y_ticks = [(_rating_label(value, step), y(value)) for value in _rating_ticks(low, high, step)]
    x_ticks: list[tuple[str, float]] = []
    if timed and start is not None and end is not None:
        span = end - start
        for k in range(5):
            label = date_label(start + span * k / 4, span)
            if not x_ticks or x_ticks[-1][0] != label:
                x_ticks.append((label, round(LEFT + inner_w * k / 4, 1)))
    elif start is not None and end is not None and end > start:
        span, dated_line = end - start, max(series, key=lambda s: len(s.values)).dates
        for k in range(5):
            index = round((longest - 1) * k / 4)
            label = date_label(dated_line[index], span)
            if not x_ticks or x_ticks[-1][0] != label:
                x_ticks.append((label, x(index, None)))
    elif start is not None:
        x_ticks = [(f"{start:%Y-%m-%d}", round(LEFT + inner_w / 2, 1))]
    return Chart(
        width=WIDTH, height=HEIGHT, lines=lines, y_ticks=y_ticks, x_ticks=x_ticks, baseline=HEIGHT - BOTTOM
    )


@dataclass(frozen=True)
class ReliabilityPoint:
    x: float
    y: float
    r: float
    ci_top: float
    ci_bottom: float
    label: str


@dataclass(frozen=True)
class ReliabilityChart:
    size: int
    pad: int
    points: list[ReliabilityPoint]
    ticks: list[tuple[str, float, float]]  # (label, x on the bottom axis, y on the left axis)
    diagonal: tuple[float, float, float, float]

    @property
    def low(self) -> int:
        """The far end of the axes (bottom and right edges of the plotting box)."""
        return self.size - self.pad

    @property
    def middle(self) -> float:
        return self.size / 2


RELIABILITY_SIZE = 320


def reliability_chart(bins: Sequence[dict]) -> ReliabilityChart | None:
    """A square reliability chart: predicted P(first) (x) against the observed win share (y), a dot per bin
    (its area grows with the bin's count) with its 95% interval as a vertical bar, and the diagonal of
    perfect calibration. `bins` are the stored calibration's bins. None when there are none."""
    if not bins:
        return None
    size, pad = RELIABILITY_SIZE, 46
    span = size - 2 * pad
    largest = max(b["count"] for b in bins)

    def at_x(value: float) -> float:
        return round(pad + value * span, 1)

    def at_y(value: float) -> float:
        return round(size - pad - value * span, 1)

    points = [
        ReliabilityPoint(
            x=at_x(b["mean_predicted"]),
            y=at_y(b["observed"]),
            r=round(3 + 7 * (b["count"] / largest) ** 0.5, 1),
            ci_top=at_y(b["ci_high"]),
            ci_bottom=at_y(b["ci_low"]),
            label=f"predicted {b['mean_predicted']:.0%}, won {b['observed']:.0%} of {b['count']}",
        )
        for b in bins
    ]
    ticks = [(f"{value:.0%}", at_x(value), at_y(value)) for value in (0, 0.25, 0.5, 0.75, 1)]
    return ReliabilityChart(size, pad, points, ticks, (at_x(0), at_y(0), at_x(1), at_y(1)))
