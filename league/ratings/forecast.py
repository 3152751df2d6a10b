"""Pre-match probabilities and their calibration: plain values in, plain values out, no database.

The model behind the numbers is the one the pools rate with: a player's performance in a match is Gaussian,
N(μ, β² + σ²), independent of the others', and the best performance wins.

- **Pairwise**: p_ij = P(i beats j) = Φ((μi − μj) / √(2β² + σi² + σj²)).
- **Expected place**: 1 + Σ_{j≠i} p_ji (each opponent who beats i pushes i down one place).
- **P(first)**: P(i first) = ∫ φ_i(x) Π_{j≠i} Φ_j(x) dx, with φ_i, Φ_j the density and distribution of the
  performances (s_i = √(β² + σi²)). It is integrated by the trapezoid rule on one grid for all seats, from
  the lowest mean minus 10 of the widest s to the highest mean plus 10 of it, in steps of a third of the
  narrowest s. For a smooth integrand that decays like a Gaussian the trapezoid rule converges
  exponentially: its error is of the order of exp(−2π²·9) from the step and exp(−50) from the cut-off,
  far below a float's precision. Against a trapezoid on 200,001 points the difference is below 1e−12
  for tables of 2 to 8 seats (`tests/league/ratings/test_forecast.py`), and the seats' chances sum to 1
  within 1e−12. A table of four costs about 200 grid points, 0.3 ms.

openskill's `predict_win` is not used: for more than two players it rescales averaged pairwise chances,
which is not the probability of finishing first, and `predict_rank` gives an ordinal rank.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from league.ratings import maths

TAIL = 10.0  # the grid reaches 10 of the widest spreads beyond the extreme means
STEPS_PER_SPREAD = 3  # grid step: a third of the narrowest spread
SQRT2 = math.sqrt(2.0)


def phi_cdf(z: float) -> float:
    """The standard normal distribution function Φ(z)."""
    return 0.5 * math.erfc(-z / SQRT2)


@dataclass(frozen=True)
class SeatForecast:
    """One seat's chances before a match: of finishing first, and the place it can expect (1 = first)."""

    p_first: float
    expected_place: float


def pairwise(mu_i: float, sigma_i: float, mu_j: float, sigma_j: float, beta: float) -> float:
    """P(i finishes ahead of j) = Φ((μi − μj) / √(2β² + σi² + σj²))."""
    return phi_cdf((mu_i - mu_j) / math.sqrt(2 * beta * beta + sigma_i * sigma_i + sigma_j * sigma_j))


def first_chances(mus: Sequence[float], spreads: Sequence[float]) -> list[float]:
    """P(i first) = ∫ φ_i(x) Π_{j≠i} Φ_j(x) dx for performances N(mus[i], spreads[i]²), by the trapezoid rule
    on one grid for all seats (see the module's docstring for the grid and its error)."""
    n = len(mus)
    widest, narrowest = max(spreads), min(spreads)
    low = min(mus) - TAIL * widest
    high = max(mus) + TAIL * widest
    step = narrowest / STEPS_PER_SPREAD
    points = int((high - low) / step) + 1
    norm = [1.0 / (s * math.sqrt(2 * math.pi)) for s in spreads]
    totals = [0.0] * n
    for k in range(points + 1):
        x = low + k * step
        cdfs = [phi_cdf((x - mu) / s) for mu, s in zip(mus, spreads, strict=True)]
        for i in range(n):
            z = (x - mus[i]) / spreads[i]
            value = norm[i] * math.exp(-0.5 * z * z)
            for j in range(n):
                if j != i:
                    value *= cdfs[j]
            totals[i] += value
    return [total * step for total in totals]


def forecast(skills: Sequence[tuple[float, float]], beta: float) -> list[SeatForecast]:
    """Each seat's P(first) and expected place, from the seats' (μ, σ) and the pool's β."""
    n = len(skills)
    if n < 2:
        raise ValueError("a forecast needs at least two seats")
    spread = [math.sqrt(beta * beta + sigma * sigma) for _, sigma in skills]
    expected = [1.0] * n
    for i in range(n):
        for j in range(n):
            if i != j:
                expected[i] += pairwise(skills[j][0], skills[j][1], skills[i][0], skills[i][1], beta)
    if n == 2:  # closed form: P(first) is the pairwise chance itself
        firsts = [expected[1] - 1.0, expected[0] - 1.0]
    else:
        raw = first_chances([mu for mu, _ in skills], spread)
        total = sum(raw)
        firsts = [p / total for p in raw]  # removes the last rounding (the sum is 1 within 1e-12 before)
    return [SeatForecast(p, e) for p, e in zip(firsts, expected, strict=True)]


# Calibration ---------------------------------------------------------------------------------------------

BINS = 10
Z95 = 1.959963984540054


@dataclass(frozen=True)
class ForecastSeat:
    """A seat of a rated match with its stored prediction and its outcome (place 1 = won, ties share)."""

    match_id: int
    seat: int
    seats: int
    p_first: float
    place: int


@dataclass(frozen=True)
class ReliabilityBin:
    low: float
    high: float
    count: int
    mean_predicted: float
    observed: float  # share of the bin's seats that finished first
    ci_low: float
    ci_high: float


@dataclass(frozen=True)
class Scores:
    brier: float
    log_loss: float


@dataclass(frozen=True)
class Calibration:
    matches: int
    seats: int
    bins: list[ReliabilityBin]
    model: Scores
    uniform: Scores
    seat_share: Scores
    favourite_won: float  # share of matches whose favourite (highest P(first)) finished first


def wilson(successes: float, count: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if count == 0:
        return 0.0, 1.0
    p = successes / count
    denominator = 1 + z * z / count
    centre = (p + z * z / (2 * count)) / denominator
    half = z * math.sqrt(p * (1 - p) / count + z * z / (4 * count * count)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


EPSILON = 1e-15


def _scores(matches: list[list[tuple[float, float]]]) -> Scores:
    """Mean over matches of the multi-class Brier score Σ_seats (p − y)² and of the log loss −Σ y·ln p,
    where y is 1 for the winner (1/k each for k tied winners) and 0 otherwise; p is clamped to [1e−15, 1]."""
    brier = sum(sum((p - y) ** 2 for p, y in seats) for seats in matches) / len(matches)
    log_loss = -sum(sum(y * math.log(max(p, EPSILON)) for p, y in seats if y) for seats in matches) / len(
        matches
    )
    return Scores(brier, log_loss)


def calibrate(seats: Sequence[ForecastSeat], bins: int = BINS) -> Calibration | None:
    """Reliability bins (P(first) in `bins` equal bins of [0, 1]; the last includes 1), Brier score and log
    loss of the predictions and of two baselines on the same matches (uniform 1/n; the pool's win share of
    the seat at that table size, counted over these matches), and the favourite's win share. A match counts
    only when every seat has a prediction and a place. None without any such match."""
    by_match: dict[int, list[ForecastSeat]] = {}
    for seat in seats:
        by_match.setdefault(seat.match_id, []).append(seat)
    complete = [
        sorted(rows, key=lambda s: s.seat) for rows in by_match.values() if len(rows) == rows[0].seats
    ]
    complete.sort(key=lambda rows: rows[0].match_id)
    if not complete:
        return None
    outcome: list[list[float]] = []
    for rows in complete:
        winners = sum(1 for s in rows if s.place == 1)
        outcome.append([1.0 / winners if s.place == 1 else 0.0 for s in rows])
    wins: dict[tuple[int, int], float] = {}
    tables: dict[int, int] = {}
    for rows, ys in zip(complete, outcome, strict=True):
        tables[len(rows)] = tables.get(len(rows), 0) + 1
        for s, y in zip(rows, ys, strict=True):
            wins[(len(rows), s.seat)] = wins.get((len(rows), s.seat), 0.0) + y
    counts = [0] * bins
    predicted = [0.0] * bins
    observed = [0.0] * bins
    for rows, ys in zip(complete, outcome, strict=True):
        for s, y in zip(rows, ys, strict=True):
            index = min(int(s.p_first * bins), bins - 1)
            counts[index] += 1
            predicted[index] += s.p_first
            observed[index] += y
    reliability = []
    for index in range(bins):
        if counts[index]:
            low, high = wilson(observed[index], counts[index])
            reliability.append(
                ReliabilityBin(
                    index / bins,
                    (index + 1) / bins,
                    counts[index],
                    predicted[index] / counts[index],
                    observed[index] / counts[index],
                    low,
                    high,
                )
            )
    favourite = 0.0
    for rows, ys in zip(complete, outcome, strict=True):
        best = max(s.p_first for s in rows)
        favourites = [y for s, y in zip(rows, ys, strict=True) if s.p_first == best]
        favourite += sum(1 for y in favourites if y) / len(favourites)
    return Calibration(
        matches=len(complete),
        seats=sum(len(rows) for rows in complete),
        bins=reliability,
        model=_scores(
            [
                [(s.p_first, y) for s, y in zip(rows, ys, strict=True)]
                for rows, ys in zip(complete, outcome, strict=True)
            ]
        ),
        uniform=_scores(
            [[(1 / len(rows), y) for y in ys] for rows, ys in zip(complete, outcome, strict=True)]
        ),
        seat_share=_scores(
            [
                [(wins[(len(rows), s.seat)] / tables[len(rows)], y) for s, y in zip(rows, ys, strict=True)]
                for rows, ys in zip(complete, outcome, strict=True)
            ]
        ),
        favourite_won=favourite / len(complete),
    )


def is_upset(p_first: float, seats: int) -> bool:
    """A win is an upset when the winner's P(first) was under a third of 1/n."""
    return p_first < (1 / seats) / 3


# Tuning --------------------------------------------------------------------------------------------------


def replay_log_loss(model, matches) -> tuple[float, int]:
    """Replay `matches` in order with `model` (a `maths.RatingModel`), predicting each before applying it:
    the mean log loss of the winners' P(first) (tied winners share the outcome), and the matches counted."""
    beta = float(model.params.get("beta", maths.default_params()["beta"]))
    initial = model.initial()
    standings: dict[int, maths.Skill] = {}
    total, count = 0.0, 0
    for match in matches:
        skills = [standings.get(pid, initial) for pid in match.player_ids]
        chances = forecast([(s.mu, s.sigma) for s in skills], beta)
        winners = [i for i, place in enumerate(match.places) if place == 1]
        total -= sum(math.log(max(chances[i].p_first, EPSILON)) for i in winners) / len(winners)
        count += 1
        for pid, skill in zip(match.player_ids, maths.rate(model, skills, match.places), strict=True):
            standings[pid] = skill
    return (total / count if count else float("nan")), count
