"""Is v2 better than v1? A sequential probability ratio test over pairs of games, as fishtest and OpenBench
run: pure arithmetic, no database.

A pair is one seed played twice at the same table, v1 and v2 swapping seats between the two games, the
game's fixed opponents in the other seats. In each game v2's place is compared with v1's: better scores 1,
equal 0.5, worse 0; the pair scores the mean of its two games, one of 0, 0.25, 0.5, 0.75 or 1. The test keeps
the count of each (`Pentanomial`), as fishtest does for a pair of games with colours reversed: the two
games of a pair are correlated (same seed, same opponents), the pairs are independent.

The test is a generalized SPRT (GSPRT) of H0, v2's logistic Elo over v1 is `elo0` (0), against H1, it is
`elo1` (+10), with error rates `alpha` and `beta` (0.05 each). The log-likelihood ratio is the approximation
of fishtest's `LLRcalc.LLR_alt2` (Michel Van den Bergh, "A generalized SPRT", fishtest
`server/fishtest/stats/LLRcalc.py`): with s0 and s1 the expected scores at elo0 and elo1 (the logistic
curve), and the mean and variance of the pair scores observed,

    LLR = N * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)

over N pairs; each of the five counts gets `PRIOR` (1e-3) added first (a small prior, as fishtest's
`regularize` mixes in for its zero counts), so that the variance of a few equal pairs is not zero. The test
stops when the LLR leaves the Wald bounds [ln(beta / (1 - alpha)), ln((1 - beta) / alpha)]: above, "better";
below, "not better"; and after `max_pairs` (2,000) without either, "no verdict within the cap". No verdict is
taken before `MIN_PAIRS` (50) pairs: a few pairs' variance says too little (a first pair level in both games
has almost none, and its LLR would leave the bounds at once); fishtest likewise updates its LLR only after
batches of games.

Written for this site (no fishtest code is copied); `tests/league/bots/test_sprt.py` checks its error rates
on seeded simulations.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # a pair's score, by its index in the pentanomial counts
PRIOR = 1e-3
ELO0 = 0.0
ELO1 = 10.0
ALPHA = 0.05
BETA = 0.05
MAX_PAIRS = 2000
MIN_PAIRS = 50  # no verdict before: the variance of a few pairs says too little (see the module's docstring)


class Verdict(StrEnum):
    RUNNING = "running"
    BETTER = "better"
    NOT_BETTER = "not better"
    NO_VERDICT = "no verdict within the cap"


def expected_score(elo: float) -> float:
    """The expected score of a player `elo` logistic Elo points above its opponent."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of(score: float) -> float:
    """The logistic Elo difference whose expected score is `score` (0 < score < 1)."""
    return -400.0 * math.log10(1.0 / score - 1.0)


def game_score(v2_place: int, v1_place: int) -> float:
    """v2's score in one game against v1's: 1 if it finished ahead (a lower place), 0.5 level, 0 behind."""
    if v2_place < v1_place:
        return 1.0
    if v2_place == v1_place:
        return 0.5
    return 0.0


def pair_index(first: float, second: float) -> int:
    """The pentanomial index (0 to 4) of a pair whose two games scored `first` and `second` for v2."""
    return round((first + second) * 2)


@dataclass(frozen=True)
class Bounds:
    lower: float
    upper: float


def bounds(alpha: float = ALPHA, beta: float = BETA) -> Bounds:
    """Wald's bounds of the LLR: below `lower` H0 is accepted ("not better"), above `upper` H1 ("better")."""
    return Bounds(math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha))


def llr(counts: Sequence[float], elo0: float = ELO0, elo1: float = ELO1) -> float:
    """The log-likelihood ratio of H1 (elo1) against H0 (elo0) after pairs of these pentanomial `counts`
    (how many pairs scored 0, 0.25, 0.5, 0.75, 1); 0 before any pair."""
    if len(counts) != len(SCORES):
        raise ValueError("a pentanomial has five counts")
    if sum(counts) == 0:
        return 0.0
    n = sum(counts) + PRIOR * len(SCORES)
    total = sum(count * score for count, score in zip(counts, SCORES, strict=True)) + PRIOR * sum(SCORES)
    squares = sum(count * score * score for count, score in zip(counts, SCORES, strict=True)) + PRIOR * sum(
        score * score for score in SCORES
    )
    return llr_from_moments(n, total, squares, expected_score(elo0), expected_score(elo1))


def llr_from_moments(n: float, total: float, squares: float, s0: float, s1: float) -> float:
    """The LLR from the (regularized) number of pairs, the sum of their scores and of their squares."""
    mean = total / n
    variance = squares / n - mean * mean
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)


def verdict(value: float, pairs: int, *, limits: Bounds, max_pairs: int = MAX_PAIRS) -> Verdict:
    """The test's verdict at LLR `value` after `pairs` pairs."""
    if pairs >= MIN_PAIRS:
        if value >= limits.upper:
            return Verdict.BETTER
        if value <= limits.lower:
            return Verdict.NOT_BETTER
    if pairs >= max_pairs:
        return Verdict.NO_VERDICT
    return Verdict.RUNNING


def elo_estimate(counts: Sequence[float]) -> float | None:
    """v2's logistic Elo over v1 that the pairs' mean score says (None before a pair, or at a sweep)."""
    n = sum(counts)
    if n == 0:
        return None
    mean = sum(count * score for count, score in zip(counts, SCORES, strict=True)) / n
    if mean <= 0.0 or mean >= 1.0:
        return None
    return elo_of(mean)


class SequentialTest:
    """One test as it runs: add each pair's pentanomial index; the verdict after it (`Verdict.RUNNING` until
    the LLR leaves its bounds or the cap is reached). Light per pair: the moments are kept as they grow."""

    def __init__(
        self,
        *,
        elo0: float = ELO0,
        elo1: float = ELO1,
        alpha: float = ALPHA,
        beta: float = BETA,
        max_pairs: int = MAX_PAIRS,
        counts: Sequence[int] = (0, 0, 0, 0, 0),
    ):
        self.s0, self.s1 = expected_score(elo0), expected_score(elo1)
        self.limits = bounds(alpha, beta)
        self.max_pairs = max_pairs
        self.counts = list(counts)
        self.pairs = sum(self.counts)
        self.total = sum(count * score for count, score in zip(self.counts, SCORES, strict=True))
        self.squares = sum(count * score * score for count, score in zip(self.counts, SCORES, strict=True))
        self.llr = 0.0 if self.pairs == 0 else self._llr()

    def _llr(self) -> float:
        return llr_from_moments(
            self.pairs + PRIOR * 5, self.total + PRIOR * 2.5, self.squares + PRIOR * 1.875, self.s0, self.s1
        )

    def add(self, index: int) -> Verdict:
        score = SCORES[index]
        self.counts[index] += 1
        self.pairs += 1
        self.total += score
        self.squares += score * score
        self.llr = self._llr()
        return self.verdict

    @property
    def verdict(self) -> Verdict:
        return verdict(self.llr, self.pairs, limits=self.limits, max_pairs=self.max_pairs)
