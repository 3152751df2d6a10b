"""The sequential test of "is v2 better than v1?" (`league.bots.sprt`): pure, no database.

Its error rates on seeded simulations: 2,000 tests where v2 is exactly as strong as v1 (H0, Elo 0) and
2,000 where it is exactly 10 logistic Elo stronger (H1), each pair drawn from a pentanomial with that
expected score; the share of wrong verdicts is within three binomial standard errors of alpha and beta.
"""

from __future__ import annotations

import math
import random

import pytest

from league.bots import sprt
from league.bots.sprt import SCORES, SequentialTest, Verdict

RUNS = 2000
# How a pair between two equal versions scores: mostly level, with both tails (one finishes ahead).
BASE = (0.04, 0.16, 0.6, 0.16, 0.04)


def pentanomial_at(elo: float) -> list[float]:
    """BASE tilted (p_i * exp(lambda * score_i), as fishtest's MLE distributions are) to expected score
    L(elo)."""
    target = sprt.expected_score(elo)
    low, high = -50.0, 50.0
    for _ in range(200):
        lam = (low + high) / 2
        weights = [p * math.exp(lam * score) for p, score in zip(BASE, SCORES, strict=True)]
        mean = sum(w * score for w, score in zip(weights, SCORES, strict=True)) / sum(weights)
        low, high = (lam, high) if mean < target else (low, lam)
    total = sum(weights)
    return [w / total for w in weights]


def simulate(elo: float, seed: int) -> dict[Verdict, int]:
    rng = random.Random(seed)
    cumulative = []
    running = 0.0
    for p in pentanomial_at(elo):
        running += p
        cumulative.append(running)
    verdicts = dict.fromkeys(Verdict, 0)
    for _ in range(RUNS):
        test = SequentialTest()
        verdict = Verdict.RUNNING
        while verdict is Verdict.RUNNING:
            draw = rng.random()
            index = 0
            while index < 4 and draw > cumulative[index]:
                index += 1
            verdict = test.add(index)
        verdicts[verdict] += 1
    return verdicts


def within_three_errors(observed: int, rate: float) -> bool:
    error = math.sqrt(rate * (1 - rate) / RUNS)
    return abs(observed / RUNS - rate) <= 3 * error


def test_the_model_has_the_elo_it_claims():
    for elo in (0.0, 10.0):
        probs = pentanomial_at(elo)
        mean = sum(p * score for p, score in zip(probs, SCORES, strict=True))
        assert sprt.elo_of(mean) == pytest.approx(elo, abs=1e-9)


def test_equal_versions_are_called_better_at_most_alpha_of_the_time():
    verdicts = simulate(0.0, seed=46)
    assert sum(verdicts.values()) == RUNS
    assert verdicts[Verdict.RUNNING] == 0
    assert within_three_errors(verdicts[Verdict.BETTER], sprt.ALPHA), verdicts
    assert verdicts[Verdict.NOT_BETTER] > RUNS // 2  # and mostly rejected


def test_a_version_ten_elo_stronger_is_called_not_better_at_most_beta_of_the_time():
    verdicts = simulate(10.0, seed=47)
    assert within_three_errors(verdicts[Verdict.NOT_BETTER], sprt.BETA), verdicts
    assert verdicts[Verdict.BETTER] > RUNS // 2


def test_bounds_are_walds():
    limits = sprt.bounds(0.05, 0.05)
    assert limits.lower == pytest.approx(-2.944438979)
    assert limits.upper == pytest.approx(2.944438979)


def test_the_llr_of_counts_matches_the_running_test():
    test = SequentialTest()
    for index in [2, 3, 2, 4, 1, 2, 3, 3, 2, 0] * 7:
        test.add(index)
    assert test.counts == [7, 7, 28, 21, 7]
    assert test.llr == pytest.approx(sprt.llr(test.counts))
    assert SequentialTest(counts=test.counts).llr == pytest.approx(test.llr)


def test_no_verdict_before_the_minimum_of_pairs_then_a_sweep_is_better():
    test = SequentialTest()
    verdicts = [test.add(4) for _ in range(sprt.MIN_PAIRS)]
    assert verdicts[:-1] == [Verdict.RUNNING] * (sprt.MIN_PAIRS - 1)
    assert verdicts[-1] is Verdict.BETTER


def test_the_cap_ends_an_undecided_test():
    test = SequentialTest(max_pairs=60)
    verdict = Verdict.RUNNING
    for index in [1, 3] * 30:  # v2 as often a half ahead as a half behind, wildly spread: undecided
        verdict = test.add(index)
    assert test.pairs == 60
    assert verdict is Verdict.NO_VERDICT


def test_game_scores_and_pair_indexes():
    assert [sprt.game_score(1, 2), sprt.game_score(2, 2), sprt.game_score(3, 1)] == [1.0, 0.5, 0.0]
    assert [sprt.pair_index(a, b) for a, b in [(0, 0), (0, 0.5), (1, 0), (0.5, 1), (1, 1)]] == [0, 1, 2, 3, 4]


def test_counts_must_be_five():
    with pytest.raises(ValueError):
        sprt.llr([1, 2, 3])


def test_a_cap_below_the_minimum_of_pairs_ends_without_a_verdict():
    test = SequentialTest(max_pairs=3)
    assert [test.add(4) for _ in range(3)] == [Verdict.RUNNING, Verdict.RUNNING, Verdict.NO_VERDICT]
