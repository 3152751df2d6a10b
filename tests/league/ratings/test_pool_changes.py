"""What results tell ratings: `pools_changed` marks the pool; a people's pool gets one update queued after the
commit (one per pool and transaction), a bot league's pool none (its worker rates it in schedule order)."""

from unittest import mock

import pytest
from django.db import transaction

from league.celery import app
from league.matches.models import Match
from league.ratings.models import PendingRatingUpdate, RatingPool
from league.ratings.services import POOL_UPDATE_TASK, PoolChange, pool_create, pools_changed
from league.ratings.tasks import pool_update_task
from league.results.services import result_submit, result_void
from tests.factories import MatchFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued():
    """The pools whose update task is sent, in order."""
    with mock.patch.object(pool_update_task, "apply_async") as send:
        yield lambda: [call.args[0][0] for call in send.call_args_list]


def test_the_update_task_is_queued_by_its_registered_name():
    assert app.tasks[POOL_UPDATE_TASK].name == pool_update_task.name == POOL_UPDATE_TASK


def test_a_result_queues_its_pools_update_after_the_commit(
    players, staff, queued, django_capture_on_commit_callbacks
):
    match = MatchFactory(players=players)

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        result_submit(match_id=match.pk, expected_version=0, places=[1, 2, 3, 4], entered_by=staff)
        assert queued() == []  # not before the commit

    assert (len(callbacks), queued()) == (1, [match.rating_pool_id])
    assert list(PendingRatingUpdate.objects.values_list("pool_id", "match_id")) == [
        (match.rating_pool_id, match.pk)
    ]


def test_a_void_and_a_correction_queue_their_pools_update(
    players, staff, queued, django_capture_on_commit_callbacks
):
    first, second = MatchFactory(players=players), MatchFactory(players=players)
    with django_capture_on_commit_callbacks(execute=True):
        for match in (first, second):
            result_submit(match_id=match.pk, expected_version=0, places=[1, 2, 3, 4], entered_by=staff)
    PendingRatingUpdate.objects.all().delete()

    with django_capture_on_commit_callbacks(execute=True):
        result_void(match_id=first.pk)
    with django_capture_on_commit_callbacks(execute=True):
        result_submit(
            match_id=second.pk, expected_version=1, places=[4, 3, 2, 1], entered_by=staff, reason="swap"
        )

    assert queued() == [first.rating_pool_id] * 3  # the first results, the void, the correction
    assert sorted(PendingRatingUpdate.objects.values_list("match_id", flat=True)) == [first.pk, second.pk]


def test_a_void_of_a_match_that_never_counted_changes_no_pool(
    players, queued, django_capture_on_commit_callbacks
):
    match = MatchFactory(players=players)

    with django_capture_on_commit_callbacks(execute=True):
        result_void(match_id=match.pk)

    assert Match.objects.get(pk=match.pk).status == Match.Status.VOID
    assert (queued(), PendingRatingUpdate.objects.count()) == ([], 0)


def test_one_update_per_pool_and_transaction(players, staff, queued, django_capture_on_commit_callbacks):
    chicken = MatchFactory(players=players, game_id="chicken_foot")
    nacho = [MatchFactory(players=players) for _ in range(3)]

    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        for match in [*nacho, chicken]:
            result_submit(match_id=match.pk, expected_version=0, places=[1, 2, 3, 4], entered_by=staff)

    assert len(callbacks) == 1
    assert queued() == sorted([nacho[0].rating_pool_id, chicken.rating_pool_id])
    assert PendingRatingUpdate.objects.count() == 4


def test_a_rolled_back_change_loses_no_later_update(
    players, staff, queued, django_capture_on_commit_callbacks
):
    dropped, kept = MatchFactory(players=players), MatchFactory(players=players)

    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        with pytest.raises(RuntimeError), transaction.atomic():
            result_submit(match_id=dropped.pk, expected_version=0, places=[1, 2, 3, 4], entered_by=staff)
            raise RuntimeError("the savepoint rolls back, with its after-commit callback")
        result_submit(match_id=kept.pk, expected_version=0, places=[1, 2, 3, 4], entered_by=staff)

    assert queued() == [kept.rating_pool_id]
    assert list(PendingRatingUpdate.objects.values_list("match_id", flat=True)) == [kept.pk]


def test_a_pool_named_only_in_a_rolled_back_savepoint_gets_no_update(
    players, staff, queued, django_capture_on_commit_callbacks
):
    dropped = MatchFactory(players=players, game_id="chicken_foot")
    kept = MatchFactory(players=players)

    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        with pytest.raises(RuntimeError), transaction.atomic():
            result_submit(match_id=dropped.pk, expected_version=0, places=[1, 2, 3, 4], entered_by=staff)
            raise RuntimeError("the savepoint rolls back, with its after-commit callback")
        result_submit(match_id=kept.pk, expected_version=0, places=[1, 2, 3, 4], entered_by=staff)

    assert dropped.rating_pool_id != kept.rating_pool_id
    assert (len(callbacks), queued()) == (1, [kept.rating_pool_id])


def test_a_change_in_a_released_savepoint_is_queued_once(
    players, staff, queued, django_capture_on_commit_callbacks
):
    first, second = MatchFactory(players=players), MatchFactory(players=players)

    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        with transaction.atomic():
            result_submit(match_id=first.pk, expected_version=0, places=[1, 2, 3, 4], entered_by=staff)
        result_submit(match_id=second.pk, expected_version=0, places=[1, 2, 3, 4], entered_by=staff)

    assert (len(callbacks), queued()) == (1, [first.rating_pool_id])


def test_a_bot_leagues_pool_is_only_marked(players, queued, django_capture_on_commit_callbacks):
    pool = pool_create(name="Bot league: test", kind=RatingPool.Kind.BOT_LEAGUE, game_id="nacho_pile")
    match = MatchFactory(players=players, rated=False)

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        pools_changed(changes=[PoolChange(pool.pk, match.pk)])

    assert (len(callbacks), queued()) == (0, [])
    assert list(PendingRatingUpdate.objects.values_list("pool_id", "match_id")) == [(pool.pk, match.pk)]
