"""The speed benchmarks' one harness: interleaved repeats, medians with ranges, and `--json PATH`.

A bench measures one or more *sides* (two revisions of the code, or the service next to the engine alone),
each a function that runs once and returns its figures (`{"games_per_s": 1234.5, ...}`). `interleave` runs the
sides in turn, repeat after repeat (a, b, a, b, ...), so that a machine whose speed drifts weighs on every
side alike; `summarize` gives each figure's median and range per side; `table` prints them, with the ratio of
the medians when there are two sides; `write_json` writes the same figures for a script to read. Nothing a run
writes is committed.

The JSON file: `{"bench": NAME, "settings": {...}, "sides": {SIDE: {"runs": [{FIGURE: VALUE, ...}, ...],
"medians": {FIGURE: {"median": M, "min": LO, "max": HI, "n": N}, ...}}, ...}}`.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

Figures = Mapping[str, float]
Runs = Mapping[str, Sequence[Figures]]


@dataclass(frozen=True)
class Spread:
    """A figure over the repeats: median, range and how many."""

    median: float
    min: float
    max: float
    n: int

    def __str__(self) -> str:
        return f"{show(self.median)} [{show(self.min)} – {show(self.max)}]"


def spread(values: Sequence[float]) -> Spread:
    return Spread(statistics.median(values), min(values), max(values), len(values))


def show(value: float, sign: str = "") -> str:
    """A figure to read at a glance: whole numbers from 100 on, three significant digits below."""
    return f"{value:{sign},.0f}" if abs(value) >= 100 else f"{value:{sign}.3g}"


def interleave(
    sides: Mapping[str, Callable[[], Figures]],
    repeats: int,
    progress: Callable[[int, str, Figures], object] | None = None,
) -> dict[str, list[dict[str, float]]]:
    """Run every side once per repeat, in turn; each side's figures, repeat by repeat.
    `progress(repeat, side, figures)` (repeat from 1) is called after each run."""
    runs: dict[str, list[dict[str, float]]] = {side: [] for side in sides}
    for repeat in range(1, repeats + 1):
        for side, run in sides.items():
            figures = dict(run())
            runs[side].append(figures)
            if progress is not None:
                progress(repeat, side, figures)
    return runs


def summarize(runs: Runs) -> dict[str, dict[str, Spread]]:
    """Per side, per figure (in the order first seen): its spread over the runs that have it."""
    summary: dict[str, dict[str, Spread]] = {}
    for side, side_runs in runs.items():
        names = list(dict.fromkeys(name for run in side_runs for name in run))
        summary[side] = {name: spread([run[name] for run in side_runs if name in run]) for name in names}
    return summary


def table(runs: Runs) -> list[str]:
    """Per figure: median [range] n= of each side and, with two sides, the ratio of the medians (second /
    first)."""
    summary = summarize(runs)
    sides = list(summary)
    names = list(dict.fromkeys(name for side in sides for name in summary[side]))
    width = max([len("figure"), *map(len, names)]) + 2
    cells = {
        (side, name): f"{found} n={found.n}" if (found := summary[side].get(name)) else "—"
        for side in sides
        for name in names
    }
    column = max([34, *(len(cell) + 2 for cell in cells.values())])
    head = f"{'figure':<{width}}" + "".join(f"{f'{side}: median [range]':>{column}}" for side in sides)
    if len(sides) == 2:
        head += f"{f'{sides[1]} / {sides[0]}':>16}"
    lines = [head]
    for name in names:
        spreads = [summary[side].get(name) for side in sides]
        line = f"{name:<{width}}" + "".join(f"{cells[side, name]:>{column}}" for side in sides)
        if len(sides) == 2:
            first, second = spreads
            ratio = f"{second.median / first.median:.3f}" if first and second and first.median else "—"
            line += f"{ratio:>16}"
        lines.append(line)
    return lines


def add_json_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json", metavar="PATH", type=Path, help="also write the figures to PATH as JSON (bench/harness.py)"
    )


def report(bench: str, settings: Mapping[str, Any], runs: Runs) -> dict[str, Any]:
    """The machine-readable figures of a run (the module docstring gives the shape)."""
    summary = summarize(runs)
    return {
        "bench": bench,
        "settings": dict(settings),
        "sides": {
            side: {
                "runs": [dict(run) for run in side_runs],
                "medians": {name: asdict(found) for name, found in summary[side].items()},
            }
            for side, side_runs in runs.items()
        },
    }


def write_json(path: Path | None, bench: str, settings: Mapping[str, Any], runs: Runs) -> None:
    """Write `report(...)` to `path` (nothing when `path` is None)."""
    if path is not None:
        path.write_text(json.dumps(report(bench, settings, runs), indent=2) + "\n", encoding="utf-8")


def read_medians(path: Path, side: str | None = None) -> dict[str, float]:
    """The medians of one side (the first by default) of a file `write_json` wrote."""
    sides = json.loads(path.read_text(encoding="utf-8"))["sides"]
    chosen = sides[side] if side is not None else next(iter(sides.values()))
    return {name: found["median"] for name, found in chosen["medians"].items()}
