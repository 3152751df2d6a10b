"""A rating-history chart as plain SVG geometry (no JavaScript, no external assets)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 600
HEIGHT = 220
PAD = 30
PALETTE = ("#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65", "#5d6d7e")


@dataclass(frozen=True)
class Series:
    label: str
    values: Sequence[float]


@dataclass(frozen=True)
class Line:
    label: str
    colour: str
    points: str
    last: float


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: list[Line]
    y_ticks: list[tuple[float, float]]
    baseline: float


def history_chart(series: Sequence[Series]) -> Chart | None:
    """Scale each series (conservative rating after each match) into a shared box; None when empty."""
    series = [s for s in series if s.values]
    if not series:
        return None
    low = min(min(s.values) for s in series)
    high = max(max(s.values) for s in series)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    longest = max(len(s.values) for s in series)

    def y(value: float) -> float:
        return round(HEIGHT - PAD - (value - low) / (high - low) * (HEIGHT - 2 * PAD), 1)

    def x(index: int) -> float:
        return round(PAD + (index / max(longest - 1, 1)) * (WIDTH - 2 * PAD), 1)

    lines = [
        Line(
            label=s.label,
            colour=PALETTE[i % len(PALETTE)],
            points=" ".join(f"{x(j)},{y(v)}" for j, v in enumerate(s.values)),
            last=s.values[-1],
        )
        for i, s in enumerate(series)
    ]
    ticks = [(round(value, 1), y(value)) for value in (low, (low + high) / 2, high)]
    return Chart(width=WIDTH, height=HEIGHT, lines=lines, y_ticks=ticks, baseline=HEIGHT - PAD)


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
