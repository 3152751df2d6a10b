"""Pre-match chances (`league.ratings.forecast`): checked against values computed here independently."""

import math
from statistics import NormalDist

import pytest

from league.ratings.forecast import first_chances, forecast, pairwise

BETA = 25 / 6


def simpson_first(skills, beta, points=40_001):
    """P(i first) by Simpson's rule on a wide grid, with statistics.NormalDist (independent of the module)."""
    dists = [NormalDist(mu, math.sqrt(beta * beta + sigma * sigma)) for mu, sigma in skills]
    low = min(d.mean for d in dists) - 12 * max(d.stdev for d in dists)
    high = max(d.mean for d in dists) + 12 * max(d.stdev for d in dists)
    h = (high - low) / (points - 1)
    out = []
    for i, di in enumerate(dists):
        total = 0.0
        for k in range(points):
            x = low + k * h
            value = di.pdf(x)
            for j, dj in enumerate(dists):
                if j != i:
                    value *= dj.cdf(x)
            total += value * (1 if k in (0, points - 1) else 4 if k % 2 else 2)
        out.append(total * h / 3)
    return out


def test_two_equal_players_have_even_chances():
    chances = forecast([(25.0, 25 / 3), (25.0, 25 / 3)], BETA)
    assert [(c.p_first, c.expected_place) for c in chances] == [(0.5, 1.5), (0.5, 1.5)]


def test_two_seats_match_the_closed_form():
    # P(A first) = Φ((30 − 20) / √(2β² + 2² + 5²)) computed by hand: √(2·17.3611 + 4 + 25) = 7.98262,
    # 10 / 7.98262 = 1.25272
    chances = forecast([(30.0, 2.0), (20.0, 5.0)], BETA)
    expected = NormalDist().cdf(10 / math.sqrt(2 * BETA**2 + 4 + 25))
    assert round(expected, 6) == 0.894846
    assert chances[0].p_first == pytest.approx(expected, abs=1e-15)
    assert chances[1].p_first == pytest.approx(1 - expected, abs=1e-15)
    assert chances[0].expected_place == pytest.approx(2 - expected, abs=1e-15)


def test_four_seats_with_known_ratings():
    skills = [(30.0, 1.0), (25.0, 25 / 3), (20.0, 2.0), (28.0, 0.8)]
    chances = forecast(skills, BETA)
    by_hand = simpson_first(skills, BETA)
    # The numbers (6 places): what the test's own integration gives; the module agrees to 1e-12.
    assert [round(p, 6) for p in by_hand] == [0.466293, 0.254497, 0.015153, 0.264057]
    for chance, reference in zip(chances, by_hand, strict=True):
        assert chance.p_first == pytest.approx(reference, abs=1e-12)
    assert sum(c.p_first for c in chances) == pytest.approx(1.0, abs=1e-12)
    # Expected place of seat 0:
    # 1 + Φ((25−30)/√(2β²+1+69.44)) + Φ((20−30)/√(2β²+1+4)) + Φ((28−30)/√(2β²+1+0.64))
    hand = 1 + sum(
        NormalDist().cdf((mu - 30) / math.sqrt(2 * BETA**2 + 1 + sigma**2)) for mu, sigma in skills[1:]
    )
    assert chances[0].expected_place == pytest.approx(hand, abs=1e-15)
    assert round(hand, 6) == 1.739294
    assert sum(c.expected_place for c in chances) == pytest.approx(1 + 2 + 3 + 4, abs=1e-12)


def test_eight_seats_of_very_different_spreads_stay_accurate():
    skills = [(40, 0.8), (10, 0.8), (25, 8.3), (25, 0.8), (30, 3), (22, 5), (18, 1), (35, 8.3)]
    chances = first_chances([mu for mu, _ in skills], [math.sqrt(BETA**2 + s * s) for _, s in skills])
    for chance, reference in zip(chances, simpson_first(skills, BETA), strict=True):
        assert chance == pytest.approx(reference, abs=1e-12)


def test_pairwise_is_the_documented_formula():
    assert pairwise(25, 3, 25, 5, BETA) == 0.5
    assert pairwise(27, 3, 25, 4, BETA) == pytest.approx(NormalDist().cdf(2 / math.sqrt(2 * BETA**2 + 25)))


def test_a_table_needs_two_seats():
    with pytest.raises(ValueError, match="two seats"):
        forecast([(25, 8)], BETA)
