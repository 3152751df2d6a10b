"""Stored predictions (written once, when a table is set) and the calibration computed from them."""

import math

import pytest
from django.utils import timezone

from league.ratings.forecast import ForecastSeat, calibrate, wilson
from league.ratings.models import PoolCalibration, Prediction
from league.ratings.services import calibration_refresh
from league.results.services import match_create, matches_create

pytestmark = pytest.mark.django_db


def chances(match):
    return list(
        Prediction.objects.filter(match=match).order_by("seat").values_list("p_first", "expected_place")
    )


def test_a_casual_match_of_new_players_is_predicted_even_when_created(players):
    match = match_create(game_id="nacho_pile", player_ids=[p.pk for p in players[:2]])
    assert chances(match) == [(0.5, 1.5), (0.5, 1.5)]


def test_a_stored_prediction_does_not_change_when_ratings_move(players, submit):
    first = match_create(game_id="nacho_pile", player_ids=[p.pk for p in players])
    later = match_create(game_id="nacho_pile", player_ids=[p.pk for p in players])
    before = chances(later)
    assert [round(p, 12) for p, _ in before] == [0.25] * 4
    submit(first, [1, 2, 3, 4])  # Ann's rating rises, Dan's falls
    assert chances(later) == before
    assert Prediction.objects.get(match=later, seat=0).mu == 25.0
    # a match set after the result is predicted from the new ratings: Ann is the favourite
    third = match_create(game_id="nacho_pile", player_ids=[p.pk for p in players])
    now = [p for p, _ in chances(third)]
    assert now[0] == max(now) and now[3] == min(now) and now[0] > 0.25


def test_a_published_round_predicts_every_table_in_bulk(players):
    others = players  # two tables of two
    ids = matches_create(
        game_id="nacho_pile",
        options={},
        rated=True,
        tables=[[others[0].pk, others[1].pk], [others[2].pk, others[3].pk]],
        played_at=timezone.now(),
    )
    assert Prediction.objects.filter(match_id__in=ids).count() == 4
    assert {round(p, 12) for p in Prediction.objects.values_list("p_first", flat=True)} == {0.5}


def test_an_unrated_match_gets_no_prediction(players):
    match = match_create(game_id="nacho_pile", player_ids=[p.pk for p in players[:2]], rated=False)
    assert chances(match) == []


def test_a_result_entered_for_a_match_without_prediction_predicts_it_first(match_of, submit):
    match = match_of()
    Prediction.objects.filter(match=match).delete()  # as for a match scheduled before predictions existed
    assert chances(match) == []
    submit(match, [1, 2, 3, 4])
    assert [round(p, 12) for p, _ in chances(match)] == [0.25] * 4  # from the ratings before its result


# Calibration on a small pool, computed by hand ---------------------------------------------------------


def seats(match_id, p_firsts, places):
    return [
        ForecastSeat(match_id, seat, len(p_firsts), p, place)
        for seat, (p, place) in enumerate(zip(p_firsts, places, strict=True))
    ]


SMALL = [
    *seats(1, [0.7, 0.3], [1, 2]),
    *seats(2, [0.6, 0.4], [2, 1]),
    *seats(3, [0.1, 0.2, 0.3, 0.4], [4, 3, 2, 1]),
]


def test_calibration_of_a_small_pool_by_hand():
    result = calibrate(SMALL)
    assert (result.matches, result.seats) == (3, 8)
    # Brier per match: (0.3² + 0.3²) = 0.18; (0.6² + 0.6²) = 0.72; 0.01 + 0.04 + 0.09 + 0.36 = 0.50
    assert result.model.brier == pytest.approx((0.18 + 0.72 + 0.50) / 3)
    # log loss: −(ln 0.7 + ln 0.4 + ln 0.4) / 3
    assert result.model.log_loss == pytest.approx(-(math.log(0.7) + 2 * math.log(0.4)) / 3)
    # uniform: Brier 0.5, 0.5, (3·0.0625 + 0.5625) = 0.75; log loss (ln 2 + ln 2 + ln 4) / 3
    assert result.uniform.brier == pytest.approx((0.5 + 0.5 + 0.75) / 3)
    assert result.uniform.log_loss == pytest.approx(4 * math.log(2) / 3)
    # win share by seat: 2 seats: seat 0 won 1 of 2, seat 1 won 1 of 2 → 0.5 each; 4 seats: seat 3 won 1 of 1
    assert result.seat_share.brier == pytest.approx((0.5 + 0.5 + 0.0) / 3)
    assert result.seat_share.log_loss == pytest.approx(2 * math.log(2) / 3)
    assert result.favourite_won == pytest.approx(2 / 3)  # match 1 (0.7 won) and match 3 (0.4 won)
    bins = [(b.low, b.count, round(b.mean_predicted, 12), b.observed) for b in result.bins]
    assert bins == [
        (0.1, 1, 0.1, 0.0),
        (0.2, 1, 0.2, 0.0),
        (0.3, 2, 0.3, 0.0),
        (0.4, 2, 0.4, 1.0),
        (0.6, 1, 0.6, 0.0),
        (0.7, 1, 0.7, 1.0),
    ]
    # Wilson 95% for 2 of 2: centre (1 + 1.92/2)/(1 + 1.92) ... computed from its formula
    z = 1.959963984540054
    n = 2
    centre = (1 + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(z * z / (4 * n * n)) / (1 + z * z / n)
    assert (result.bins[3].ci_low, result.bins[3].ci_high) == pytest.approx((centre - half, 1.0))
    assert wilson(0, 1) == pytest.approx((0.0, z * z / (1 + z * z)))


def test_ties_share_the_win_and_incomplete_matches_are_left_out():
    result = calibrate([*seats(1, [0.5, 0.5], [1, 1]), ForecastSeat(2, 0, 2, 0.9, 1)])
    assert result.matches == 1
    assert result.model.brier == 0.0  # each winner's outcome is 1/2, as predicted
    assert result.model.log_loss == pytest.approx(math.log(2))


def test_the_pool_page_says_when_predictions_do_worse_than_uniform(client, players, submit):
    match = match_create(game_id="nacho_pile", player_ids=[p.pk for p in players[:2]])
    submit(match, [1, 2])
    favourite = match_create(game_id="nacho_pile", player_ids=[p.pk for p in players[:2]])
    submit(favourite, [2, 1])  # the favourite (Ann) loses
    summary = calibration_refresh(pool_id=match.rating_pool_id)
    assert summary["matches"] == 2
    assert summary["model"]["log_loss"] > summary["uniform"]["log_loss"]
    assert summary["upsets"] == []  # 2 seats: an upset needs a chance under 1/6
    page = client.get(f"/games/pools/{match.rating_pool_id}/calibration/")
    assert page.status_code == 200
    assert "do worse than giving every seat the same chance" in page.content.decode()
    assert PoolCalibration.objects.get(pool_id=match.rating_pool_id).summary == summary


def test_calibration_page_of_an_unknown_pool_is_404(client, db):
    assert client.get("/games/pools/999/calibration/").status_code == 404


def test_the_api_lists_predictions_and_pool_calibration(client, players, submit):
    match = match_create(game_id="nacho_pile", player_ids=[p.pk for p in players[:2]])
    body = client.get(f"/api/predictions/?match={match.pk}").json()
    assert [
        (row["seat"], row["p_first"], row["expected_place"], row["upset"]) for row in body["results"]
    ] == [
        (0, 0.5, 1.5, False),
        (1, 0.5, 1.5, False),
    ]
    submit(match, [2, 1])
    calibration_refresh(pool_id=match.rating_pool_id)
    pool = client.get(f"/api/rating-pools/{match.rating_pool_id}/").json()
    assert (pool["calibration"]["matches"], pool["calibration"]["model"]["log_loss"]) == (1, math.log(2))
    assert client.get("/api/predictions/?match=abc").status_code == 400
    assert client.get("/api/rating-pools/999/").status_code == 404
