"""Settled ratings: the whole history of a pool fitted at once (Coulom's Whole-History Rating, 2008, on the
pairwise Bradley–Terry model the pools already use). Pure: plain values in, plain values out, no database.

The model, in natural units (a difference of 1 is odds of e to 1):
- each player has a rating r(d) on each day d they played; between two of their days the rating drifts as a
  Wiener process, r(d2) − r(d1) ~ N(0, DRIFT · (d2 − d1));
- a prior N(0, PRIOR_SD²) on each player's first day anchors the scale (a player's first rating is pulled
  towards the pool's middle, so one result never makes an infinite rating);
- every pair at a table is one Bradley–Terry comparison on that day: P(i ahead of j) = σ(r_i − r_j); a tie
  counts half a win to each.

PRIOR_SD is not tuned: it is the pools' own starting spread in these units. A pool starts players at
σ = 25/3 with performance noise β = 25/6 (`maths.default_params`); two performances differ with spread
β√2 = 5.89, and a Gaussian difference of 1 spread is a logistic difference of about 1.7, so 25/3 ÷ 5.89 × 1.7
≈ 2.4.

The fit maximises the posterior by Newton's method per player over all their days at once (the Hessian is
tridiagonal, solved in O(days)), players in id order, `ITERATIONS` sweeps: a fixed count, so a recompute
reproduces the stored figures bit for bit. A player's uncertainty on a day is √(−H⁻¹) at the fit (the
tridiagonal inverse's diagonal).

A table's forecast from settled ratings is Luce's choice rule (the multi-seat form of Bradley–Terry): P(i
first) = e^{r_i} / Σ_j e^{r_j}.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

ITERATIONS = 50
DRIFT = 0.0005  # variance per day of the rating's drift, natural units² (about 14 Elo² a day)
PRIOR_SD = 2.4  # of a player's first rating, natural units (about 420 Elo): see the module's docstring
STEP_LIMIT = 2.0  # a Newton step moves a rating at most this far (only early sweeps ever need it)
ELO = 400 / math.log(10)  # natural units to the Elo scale, for display


@dataclass(frozen=True)
class Table:
    """One played table: its day (any integer count of days) and each seat's player and place (1 = first;
    equal places for a tie)."""

    day: int
    seats: Sequence[tuple[int, int]]


@dataclass(frozen=True)
class Rating:
    """A player's settled rating on one of their days: the rating and its standard deviation."""

    day: int
    rating: float
    sd: float


@dataclass
class _Player:
    days: list[int]
    ratings: list[float]
    # per day: [(opponent, opponent's day index, outcome 1 / 0.5 / 0, weight)]
    games: list[list[tuple[int, int, float, float]]]


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _build(tables: Iterable[Table]) -> dict[int, _Player]:
    by_player: dict[int, set[int]] = defaultdict(set)
    listed = list(tables)
    for table in listed:
        for player, _ in table.seats:
            by_player[player].add(table.day)
    players = {
        player: _Player(days=sorted(days), ratings=[0.0] * len(days), games=[[] for _ in days])
        for player, days in sorted(by_player.items())
    }
    index = {player: {day: k for k, day in enumerate(p.days)} for player, p in players.items()}
    for table in listed:
        seats = list(table.seats)
        if len(seats) < 2:
            continue
        weight = 1.0
        for a, place_a in seats:
            ka = index[a][table.day]
            for b, place_b in seats:
                if a == b:
                    continue
                outcome = 1.0 if place_a < place_b else 0.0 if place_a > place_b else 0.5
                players[a].games[ka].append((b, index[b][table.day], outcome, weight))
    for built in players.values():  # sums in one order, whatever order the tables came in
        for games in built.games:
            games.sort()
    return players


def _hessian(player: _Player, others: Mapping[int, _Player]) -> tuple[list[float], list[float], list[float]]:
    """The gradient, the Hessian's diagonal and its off-diagonal (k, k+1) of one player's log-posterior."""
    n = len(player.days)
    gradient = [0.0] * n
    diagonal = [0.0] * n
    for k in range(n):
        mine = player.ratings[k]
        for opponent, day_index, outcome, weight in player.games[k]:
            p = _sigmoid(mine - others[opponent].ratings[day_index])
            gradient[k] += weight * (outcome - p)
            diagonal[k] -= weight * p * (1.0 - p)
    gradient[0] -= player.ratings[0] / PRIOR_SD**2
    diagonal[0] -= 1.0 / PRIOR_SD**2
    off = [0.0] * max(n - 1, 0)
    for k in range(n - 1):
        precision = 1.0 / (DRIFT * (player.days[k + 1] - player.days[k]))
        step = player.ratings[k + 1] - player.ratings[k]
        gradient[k] += precision * step
        gradient[k + 1] -= precision * step
        diagonal[k] -= precision
        diagonal[k + 1] -= precision
        off[k] = precision
    return gradient, diagonal, off


def _solve(diagonal: list[float], off: list[float], rhs: list[float]) -> list[float]:
    """x with H x = rhs for the symmetric tridiagonal H (diagonal, off-diagonal): the Thomas algorithm."""
    n = len(diagonal)
    c = [0.0] * n
    d = [0.0] * n
    c[0] = off[0] / diagonal[0] if n > 1 else 0.0
    d[0] = rhs[0] / diagonal[0]
    for k in range(1, n):
        denominator = diagonal[k] - off[k - 1] * c[k - 1]
        c[k] = off[k] / denominator if k < n - 1 else 0.0
        d[k] = (rhs[k] - off[k - 1] * d[k - 1]) / denominator
    x = [0.0] * n
    x[-1] = d[-1]
    for k in range(n - 2, -1, -1):
        x[k] = d[k] - c[k] * x[k + 1]
    return x


def _inverse_diagonal(diagonal: list[float], off: list[float]) -> list[float]:
    """The diagonal of H⁻¹ for the symmetric tridiagonal H (by the two-sided recurrences of its minors)."""
    n = len(diagonal)
    # forward: theta ratios (leading minors), backward: phi ratios (trailing minors), kept as ratios for scale
    forward = [0.0] * n
    forward[0] = diagonal[0]
    for k in range(1, n):
        forward[k] = diagonal[k] - off[k - 1] ** 2 / forward[k - 1]
    backward = [0.0] * n
    backward[-1] = diagonal[-1]
    for k in range(n - 2, -1, -1):
        backward[k] = diagonal[k] - off[k] ** 2 / backward[k + 1]
    # (H⁻¹)_kk = 1 / (forward_k + backward_k − diagonal_k)
    return [1.0 / (forward[k] + backward[k] - diagonal[k]) for k in range(n)]


def fit(tables: Iterable[Table], iterations: int = ITERATIONS) -> dict[int, list[Rating]]:
    """Every player's settled rating on each day they played, fitted to all of `tables` at once."""
    players = _build(tables)
    for _ in range(iterations):
        for player in players.values():
            gradient, diagonal, off = _hessian(player, players)
            step = _solve(diagonal, off, gradient)
            player.ratings = [
                rating - max(-STEP_LIMIT, min(STEP_LIMIT, delta))
                for rating, delta in zip(player.ratings, step, strict=True)
            ]
    result: dict[int, list[Rating]] = {}
    for key, player in players.items():
        _, diagonal, off = _hessian(player, players)
        variances = _inverse_diagonal(diagonal, off)
        result[key] = [
            Rating(day, rating, math.sqrt(max(-variance, 0.0)))
            for day, rating, variance in zip(player.days, player.ratings, variances, strict=True)
        ]
    return result


def rating_on(history: Sequence[Rating], day: int) -> float | None:
    """A player's settled rating as of `day`: that of their last day up to it (None before their first)."""
    latest = None
    for rating in history:
        if rating.day > day:
            break
        latest = rating.rating
    return latest


def first_chances(ratings: Sequence[float]) -> list[float]:
    """Each seat's chance of finishing first by Luce's choice rule, e^{r_i} / Σ e^{r_j}."""
    top = max(ratings)
    weights = [math.exp(rating - top) for rating in ratings]
    total = sum(weights)
    return [weight / total for weight in weights]


def day_ahead(
    tables: Sequence[tuple[int, Table]], last_days: int, iterations: int = ITERATIONS
) -> dict[int, list[float]]:
    """For the tables of the last `last_days` days that have any: each seat's P(first) from a fit on every
    day before that day only (key → chances in seat order): the honest out-of-sample forecast. A player
    unseen before the day stands at 0, the prior's middle."""
    days = sorted({table.day for _, table in tables})
    chances: dict[int, list[float]] = {}
    for day in days[-last_days:] if last_days > 0 else []:
        fitted = fit([table for _, table in tables if table.day < day], iterations)
        for key, table in tables:
            if table.day == day:
                ratings = [
                    fitted[player][-1].rating if player in fitted else 0.0 for player, _ in table.seats
                ]
                chances[key] = first_chances(ratings)
    return chances
