"""Checking a result's places and scores (no database)."""

import pytest

from league.core.errors import UserError
from league.results.services import check_outcome, competition_places


def test_tied_places_are_stored_in_competition_form():
    assert competition_places([1, 1, 2, 3]) == [1, 1, 3, 4]
    assert check_outcome(num_seats=4, score_order=None, places=[1, 1, 2, 3]) == ([1, 1, 3, 4], None)
    assert check_outcome(num_seats=4, score_order=None, places=[3, 1, 1, 4]) == ([3, 1, 1, 4], None)


def test_high_scores_decide_places_where_the_game_says_so():
    assert check_outcome(num_seats=3, score_order="high", scores=[10, 30, 10]) == ([2, 1, 2], [10, 30, 10])


def test_low_scores_win_in_a_lowest_wins_game():
    assert check_outcome(num_seats=4, score_order="low", scores=[40, 5, 17, 5]) == (
        [4, 1, 3, 1],
        [40, 5, 17, 5],
    )


def test_places_and_scores_together_must_agree():
    assert check_outcome(num_seats=2, score_order="high", places=[2, 1], scores=[3, 9]) == ([2, 1], [3, 9])
    with pytest.raises(UserError, match="places do not match the scores .highest score wins"):
        check_outcome(num_seats=2, score_order="high", places=[1, 2], scores=[3, 9])


@pytest.mark.parametrize(
    ("places", "scores", "score_order", "message"),
    [
        (None, None, "high", "enter places, or scores"),
        (None, [1, 2, 3, 4], None, "this game's scores do not decide places"),
        ([1, 2, 3], None, None, r"give one place per seat \(4 seats\)"),
        ([1, 2, 3, 5], None, None, "places run from 1 to 4"),
        ([0, 1, 2, 3], None, None, "places run from 1 to 4"),
        ([1, "2", 3, 4], None, None, "places must be whole numbers"),
        ([1, True, 3, 4], None, None, "places must be whole numbers"),
        ("1,2,3,4", None, None, "give one place per seat"),
        (None, [1, 2], "high", r"give one score per seat \(4 seats\)"),
        (None, [1, 2.5, 3, 4], "high", "scores must be whole numbers"),
        (None, [1, 2, 3, 10**12], "high", "scores run from -1,000,000 to 1,000,000"),
    ],
)
def test_bad_outcomes_are_refused_with_a_message(places, scores, score_order, message):
    with pytest.raises(UserError, match=message):
        check_outcome(num_seats=4, score_order=score_order, places=places, scores=scores)
