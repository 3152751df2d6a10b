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
