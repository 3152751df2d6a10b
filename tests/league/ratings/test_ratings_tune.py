"""`manage.py ratings_tune`: the log loss of candidate settings on a pool's own history;
--write keeps the best."""

import io
import math

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from league.ratings import maths
from league.ratings.forecast import replay_log_loss
from league.ratings.models import Rating, RatingPool
from league.results.services import match_create

pytestmark = pytest.mark.django_db


def run(*args):
    out = io.StringIO()
    call_command("ratings_tune", *args, stdout=out)
    return out.getvalue()


def test_tune_reports_candidates_and_changes_nothing(players, submit):
    for places in ([1, 2], [1, 2], [2, 1]):
        submit(match_create(game_id="nacho_pile", player_ids=[players[0].pk, players[1].pk]), places)
    pool = RatingPool.objects.get(kind="people", game_id="nacho_pile")
    ratings = list(Rating.objects.values_list("player_id", "mu", "sigma"))
    out = run("nacho_pile")
    assert "3 matches replayed in order" in out and "nothing changed" in out
    assert f"{'uniform 1/n':<24}" in out and f"{math.log(2):>9.4f}" in out
    # the first match is predicted 0.5/0.5 by every setting: its log loss is ln 2
    first = replay_log_loss(maths.DEFAULT_MODEL, [type("M", (), {"player_ids": [1, 2], "places": [1, 2]})()])
    assert first == (math.log(2), 1)
    assert list(Rating.objects.values_list("player_id", "mu", "sigma")) == ratings
    assert RatingPool.objects.get(pk=pool.pk).model_params == maths.default_params()


def test_tune_write_stores_the_best_and_rebuilds(players, submit):
    for places in ([1, 2], [1, 2], [1, 2], [1, 2]):
        submit(match_create(game_id="nacho_pile", player_ids=[players[0].pk, players[1].pk]), places)
    out = run("nacho_pile", "--write")
    assert "rebuilt from scratch (4 matches)" in out
    pool = RatingPool.objects.get(kind="people", game_id="nacho_pile")
    assert pool.model_params != maths.default_params() or pool.model_name != maths.DEFAULT_MODEL.name


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["no_such_game"], "no_such_game"),
        (["nacho_pile"], "no people pool"),
        (["nacho_pile", "--pool", "99"], "no pool 99"),
    ],
)
def test_tune_bad_input_exits_2(db, args, message):
    with pytest.raises(CommandError, match=message) as caught:
        run(*args)
    assert caught.value.returncode == 2
