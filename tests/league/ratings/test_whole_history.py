"""The whole-history fit on hand-made histories whose answers are known: they are checked against the
posterior's own optimality conditions, solved here independently (by bisection), not against the fit's
output."""

import math

from league.ratings import whole_history as whr
from league.ratings.whole_history import Table


def bisect(f, low: float, high: float) -> float:
    for _ in range(200):
        middle = (low + high) / 2
        if (f(low) < 0) == (f(middle) < 0):
            low = middle
        else:
            high = middle
    return (low + high) / 2


def sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def test_two_players_one_result_sit_symmetrically_where_the_posterior_peaks():
    fitted = whr.fit([Table(day=0, seats=[(1, 1), (2, 2)])])
    # r_A = x, r_B = −x; the gradient of the log-posterior in r_A: (1 − σ(2x)) − x / PRIOR_SD² = 0
    x = bisect(lambda x: (1 - sigmoid(2 * x)) - x / whr.PRIOR_SD**2, 0.0, 5.0)
    assert abs(x - 0.8660) < 1e-4  # PRIOR_SD 2.4: about 150 Elo either side
    assert abs(fitted[1][0].rating - x) < 1e-12
    assert abs(fitted[2][0].rating + x) < 1e-12
    p = sigmoid(2 * x)
    hessian = [
        [-p * (1 - p) - 1 / whr.PRIOR_SD**2, p * (1 - p)],
        [p * (1 - p), -p * (1 - p) - 1 / whr.PRIOR_SD**2],
    ]
    # each player is fitted with the other held fixed: their own sd is √(−1 / H_ii)
    assert abs(fitted[1][0].sd - math.sqrt(-1 / hessian[0][0])) < 1e-12


def test_a_tie_leaves_both_at_the_middle():
    fitted = whr.fit([Table(day=3, seats=[(7, 1), (8, 1)])])
    assert (fitted[7][0].rating, fitted[8][0].rating) == (0.0, 0.0)
    assert fitted[7][0].day == 3


def test_a_player_who_only_lost_once_to_a_strong_opponent_sits_where_that_one_result_puts_them():
    # C beat five others, who each lost once more among themselves; D's only game: a loss to C.
    tables = [Table(day=0, seats=[(100, 1), (n, 2)]) for n in range(1, 6)]
    tables += [Table(day=0, seats=[(n, 1), (n + 1, 2)]) for n in range(1, 5)]
    tables.append(Table(day=0, seats=[(100, 1), (200, 2)]))
    fitted = whr.fit(tables)
    strong, lone = fitted[100][0].rating, fitted[200][0].rating
    assert strong > 1.0 and lone < 0.0
    # D's optimality condition given C: −σ(r_D − r_C) − r_D / PRIOR_SD² = 0, solved independently
    expected = bisect(lambda r: -sigmoid(r - strong) - r / whr.PRIOR_SD**2, -10.0, 10.0)
    assert abs(lone - expected) < 1e-9


def test_every_pair_at_a_table_is_one_comparison():
    # one 4-seat table, places 1-4: the winner's optimality condition is
    # Σ_j (1 − σ(r_w − r_j)) = r_w / PRIOR_SD²
    fitted = whr.fit([Table(day=0, seats=[(1, 1), (2, 2), (3, 3), (4, 4)])])
    r = {player: history[0].rating for player, history in fitted.items()}
    gradient = sum(1 - sigmoid(r[1] - r[j]) for j in (2, 3, 4)) - r[1] / whr.PRIOR_SD**2
    assert abs(gradient) < 1e-9
    assert r[1] > r[2] > r[3] > r[4]
    assert abs(r[1] + r[4]) < 1e-12 and abs(r[2] + r[3]) < 1e-12  # the places are symmetric


def test_a_later_result_moves_an_earlier_days_rating():
    early = whr.fit([Table(day=0, seats=[(1, 1), (2, 2)])])
    later = whr.fit([Table(day=0, seats=[(1, 1), (2, 2)]), Table(day=10, seats=[(1, 1), (3, 2)])])
    # player 1's day-0 rating rises once their day-10 win is known: the whole history is refitted
    assert later[1][0].rating > early[1][0].rating
    assert [rating.day for rating in later[1]] == [0, 10]


def test_the_same_history_fits_to_the_same_floats():
    tables = [Table(day=d % 5, seats=[(d % 7, 1), ((d * 3) % 7 + 7, 2), (20 + d % 3, 2)]) for d in range(40)]
    assert whr.fit(tables) == whr.fit(list(reversed(tables)))


def test_luce_first_chances_sum_to_one_and_follow_the_ratings():
    chances = whr.first_chances([0.0, math.log(3)])
    assert abs(chances[0] - 0.25) < 1e-15 and abs(chances[1] - 0.75) < 1e-15
    assert whr.rating_on([whr.Rating(2, 0.5, 0.1), whr.Rating(5, 0.7, 0.1)], 4) == 0.5
    assert whr.rating_on([whr.Rating(2, 0.5, 0.1)], 1) is None
