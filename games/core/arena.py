"""Seeded series of matches between bots, with honest statistics.

`play_series` plays `games` matches; match g uses seed `series_seed(seed, g)` and rotates the seat order by
g (seat s is played by `bots[(s + g) % N]`), so every bot sits in every seat equally often when `games` is a
multiple of N. Results are aggregated per bot name over all the seats it played: its share of wins (k seats
sharing first place each win 1/k) with a 95% Wilson interval, mean place, mean score, and decisions and
thinking time. "X beats the field" means the lower end of X's interval is above the fair share 1/N.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from games import registry
from games.core.runner import BotChoice, MoveTiming, SeatPlayer, normalize_seats, play_match
from games.core.stats import wilson_interval


def series_seed(seed: int, game_index: int) -> int:
    digest = hashlib.sha256(f"series:{seed}:{game_index}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


@dataclass
class BotLine:
    """One bot's results over a series."""

    name: str
    seat_games: int = 0
    wins: float = 0.0
    place_total: int = 0
    score_total: float = 0.0
    decisions: int = 0
    seconds: float = 0.0
    forfeits: int = 0

    def add(
        self,
        places: list[int],
        seat: int,
        score: float,
        decisions: int,
        seconds: float,
        forfeited: bool = False,
    ) -> None:
        """One seat of one match: `places` is the match's places (seats sharing first place win 1/k each)."""
        self.seat_games += 1
        self.wins += 1 / places.count(1) if places[seat] == 1 else 0
        self.place_total += places[seat]
        self.score_total += score
        self.decisions += decisions
        self.seconds += seconds
        self.forfeits += forfeited

    @property
    def win_share(self) -> float:
        return self.wins / self.seat_games if self.seat_games else 0.0

    @property
    def wins_interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.seat_games)

    @property
    def wins_low(self) -> float:
        return self.wins_interval[0]

    @property
    def mean_place(self) -> float:
        return self.place_total / self.seat_games if self.seat_games else 0.0

    @property
    def mean_score(self) -> float:
        return self.score_total / self.seat_games if self.seat_games else 0.0

    @property
    def ms_per_decision(self) -> float:
        return 1000 * self.seconds / self.decisions if self.decisions else 0.0


@dataclass
class SeriesResult:
    game_id: str
    num_players: int
    games: int
    seed: int
    lines: dict[str, BotLine] = field(default_factory=dict)
    turn_caps: int = 0

    @property
    def fair_share(self) -> float:
        return 1 / self.num_players

    def table(self) -> str:
        """A fixed-width table of the results (deterministic apart from the timing columns)."""
        head = (
            f"{'bot':<28} {'seats':>6} {'mean place':>10} {'win share':>9} {'95% interval':>15} "
            f"{'mean score':>10}"
        )
        head += f" {'decisions':>10} {'ms/decision':>11} {'forfeits':>8}"
        rows = [head]
        for line in sorted(self.lines.values(), key=lambda x: (-x.win_share, x.name)):
            low, high = line.wins_interval
            rows.append(
                f"{line.name:<28} {line.seat_games:>6} {line.mean_place:>10.3f} {line.win_share:>9.3f}"
                f" {f'{low:.3f}–{high:.3f}':>15} {line.mean_score:>10.2f} {line.decisions:>10}"
                f" {line.ms_per_decision:>11.3f} {line.forfeits:>8}"
            )
        return "\n".join(rows)


def _label(choice: SeatPlayer, game_id: str) -> str:
    """The bot's name, with the parameters that differ from its defaults."""
    defaults = registry.bot_class(choice.name, game_id).validate_params({})
    name = choice.name
    params = {k: v for k, v in choice.params.items() if defaults.get(k) != v}
    if not params:
        return name
    return name + "(" + ",".join(f"{k}={v}" for k, v in sorted(params.items())) + ")"


def _play_one(args: tuple[Any, ...]) -> tuple[dict[str, Any], dict[int, int], dict[int, float]]:
    game_id, seats, match_seed, options = args
    timing = MoveTiming()
    record = play_match(game_id, len(seats), seats, match_seed, options, timing=timing)
    return {"outcome": record["outcome"], "end": record["end"]}, timing.decisions, timing.seconds


def play_series(
    game_id: str,
    bots: Sequence[BotChoice],
    num_players: int | None = None,
    games: int = 100,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> SeriesResult:
    """Play a seeded series with rotating seats; `bots` has one entry per seat."""
    seats = normalize_seats(bots, game_id)
    num_players = num_players or len(seats)
    if len(seats) != num_players:
        raise ValueError(f"{num_players} players need {num_players} bots, got {len(seats)}")
    labels = [_label(s, game_id) for s in seats]
    result = SeriesResult(game_id, num_players, games, seed)
    for label in labels:
        result.lines.setdefault(label, BotLine(label))
    tasks = []
    for g in range(games):
        order = [(s + g) % num_players for s in range(num_players)]
        tasks.append((game_id, [seats[i] for i in order], series_seed(seed, g), options))

    def absorb(g: int, summary: dict[str, Any], decisions: dict[int, int], seconds: dict[int, float]) -> None:
        order = [(s + g) % num_players for s in range(num_players)]
        places = summary["outcome"]["places"]
        scores = summary["outcome"]["scores"]
        forfeited = {f["seat"] for f in summary["end"]["forfeits"]}
        result.turn_caps += summary["end"]["reason"] == "turn_cap"
        for seat, index in enumerate(order):
            result.lines[labels[index]].add(
                places, seat, scores[seat], decisions.get(seat, 0), seconds.get(seat, 0.0), seat in forfeited
            )

    if jobs <= 1:
        for g, task in enumerate(tasks):
            absorb(g, *_play_one(task))
            if progress:
                progress(g + 1, games)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for g, outcome in enumerate(pool.map(_play_one, tasks, chunksize=max(1, games // (jobs * 8)))):
                absorb(g, *outcome)
                if progress:
                    progress(g + 1, games)
    return result
