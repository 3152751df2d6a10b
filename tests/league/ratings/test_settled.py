"""Settled ratings stored by the nightly fit: the stored numbers are a recompute of the pool's matches, and
the comparison scores settled and live predictions on the same matches, each day predicted from the days
before it only."""

import math
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from league.matches.models import Match
from league.ratings import whole_history as whr
from league.ratings.models import RefitDue, SettledFit, SettledRating
from league.ratings.refits import refit_next
from league.ratings.services import calibration_refresh, pool_rebuild
from league.ratings.settled import pool_tables, pools_due, settled_refit
from league.ratings.tasks import settled_nightly
from league.results.services import match_create

pytestmark = pytest.mark.django_db

DAY_ONE = datetime(2026, 11, 2, 19, 0, tzinfo=ZoneInfo("UTC"))


@pytest.fixture
def three_nights(players, submit):
    """Ann beats Bob on night 1, Ann beats Cat on night 2, Bob and Cat tie on night 3."""
    ann, bob, cat, _ = players
    nights = [([ann, bob], [1, 2]), ([ann, cat], [1, 2]), ([bob, cat], [1, 1])]
    matches = []
    for night, (seated, places) in enumerate(nights):
        match = match_create(game_id="nacho_pile", player_ids=[p.pk for p in seated])
        submit(match, places)
        Match.objects.filter(pk=match.pk).update(played_at=DAY_ONE + timedelta(days=night))
        matches.append(match)
    pool_rebuild(pool_id=matches[0].rating_pool_id)  # in the order of the nights
    return matches


def stored(pool_id):
    return list(
        SettledRating.objects.filter(pool_id=pool_id)
        .order_by("player_id", "day")
        .values_list("player_id", "day", "rating", "sd")
    )


def test_the_stored_settled_ratings_are_a_recompute_of_the_pools_matches(three_nights, players):
    pool_id = three_nights[0].rating_pool_id
    fit = settled_refit(pool_id=pool_id)
    assert (fit.matches, fit.iterations) == (3, 50)
    ann, bob, cat, _ = players
    expected = whr.fit([table for _, table in pool_tables(pool_id)])
    rows = stored(pool_id)
    assert [(player, day.toordinal(), rating, sd) for player, day, rating, sd in rows] == sorted(
        (player, r.day, r.rating, r.sd) for player, history in expected.items() for r in history
    )
    assert [(player, day.isoformat()) for player, day, _, _ in rows] == [
        (ann.pk, "2026-11-02"),
        (ann.pk, "2026-11-03"),
        (bob.pk, "2026-11-02"),
        (bob.pk, "2026-11-04"),
        (cat.pk, "2026-11-03"),
        (cat.pk, "2026-11-04"),
    ]
    settled_refit(pool_id=pool_id)  # again: the same numbers, bit for bit
    assert stored(pool_id) == rows


def test_each_night_is_predicted_from_the_nights_before_it_only(three_nights, players):
    pool_id = three_nights[0].rating_pool_id
    comparison = settled_refit(pool_id=pool_id).comparison
    assert (comparison["matches"], comparison["days"]) == (3, 30)
    # night 1: nobody has played: 1/2 each; night 2: Ann after one win (the two-player fit's x) against
    # unseen Cat at 0; night 3: Bob and Cat from the fit of nights 1 and 2.
    x = whr.fit([whr.Table(0, [(1, 1), (2, 2)])])[1][0].rating
    before_three = whr.fit([whr.Table(0, [(1, 1), (2, 2)]), whr.Table(1, [(1, 1), (3, 2)])])
    bob_cat = whr.first_chances([before_three[2][-1].rating, before_three[3][-1].rating])
    losses = [
        math.log(2),
        -math.log(whr.first_chances([x, 0.0])[0]),
        -(0.5 * math.log(bob_cat[0]) + 0.5 * math.log(bob_cat[1])),  # a tie: half the win each
    ]
    assert comparison["settled"]["log_loss"] == pytest.approx(sum(losses) / 3, abs=1e-12)
    assert comparison["better"] in ("settled", "live")
    assert comparison["better"] == (
        "settled" if comparison["settled"]["log_loss"] < comparison["live"]["log_loss"] else "live"
    )


def test_the_nightly_task_queues_every_people_pool_with_a_rated_match_for_the_workers(three_nights):
    pool_id = three_nights[0].rating_pool_id
    assert pools_due() == [pool_id]
    assert settled_nightly() == 1
    assert list(RefitDue.objects.values_list("kind", "target_id")) == [("pool", pool_id)]
    assert not SettledFit.objects.filter(pool_id=pool_id).exists()  # queued, not fitted by beat itself
    assert settled_nightly() == 1  # queued again: still one row
    assert RefitDue.objects.count() == 1
    assert refit_next() == 1  # a worker's slice of the kind "ratings"
    assert SettledFit.objects.get(pool_id=pool_id).matches == 3
    assert not RefitDue.objects.exists()
    assert refit_next() == 0


def test_the_calibration_page_says_which_ratings_predict_better(client, three_nights):
    pool_id = three_nights[0].rating_pool_id
    calibration_refresh(pool_id=pool_id)
    page = client.get(f"/games/pools/{pool_id}/calibration/").content.decode()
    assert "Settled ratings are fitted each night" in page
    assert "Not fitted yet: the first fit runs tonight." in page
    comparison = settled_refit(pool_id=pool_id).comparison
    page = client.get(f"/games/pools/{pool_id}/calibration/").content.decode()
    winner = "settled ratings" if comparison["better"] == "settled" else "live ratings"
    assert f"On this pool's last 3 matches, the {winner} predicted better" in page
    assert "TrueSkill" not in page


def test_the_api_gives_the_pools_settled_fit(client, three_nights):
    pool_id = three_nights[0].rating_pool_id
    assert client.get(f"/api/rating-pools/{pool_id}/").json()["settled"] is None
    fit = settled_refit(pool_id=pool_id)
    settled = client.get(f"/api/rating-pools/{pool_id}/").json()["settled"]
    assert (settled["matches"], settled["iterations"]) == (3, 50)
    assert settled["comparison"] == fit.comparison
