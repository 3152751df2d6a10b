"""A real Celery worker process picks up the rating update queued by a result, after the commit."""

import os
import signal
import subprocess
import sys

import pytest
from django.conf import settings
from django.test import Client

from league.ratings.models import PendingRatingUpdate, Rating
from league.ratings.services import pool_differences
from league.results.services import result_submit
from tests.factories import MatchFactory, PlayerFactory, StaffFactory
from tests.league.bots.workers import database_url, wait_until


@pytest.fixture
def worker(transactional_db):
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "league.settings.test",
        "DATABASE_URL": database_url(),
        "PECKING_ORDER_TEST_RUN_DIR": str(settings.TEST_RUN_DIR),
    }
    name = f"test-{os.getpid()}@%h"
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "league", "worker", "--pool", "solo", "-l", "warning", "-n", name],
        cwd=settings.BASE_DIR,
        env=environment,
    )
    yield process
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.mark.worker
def test_a_worker_applies_the_rating_update_queued_by_a_result(worker):
    players = PlayerFactory.create_batch(4)
    match = MatchFactory(players=players)
    result_submit(match_id=match.pk, expected_version=0, places=[2, 1, 1, 4], entered_by=StaffFactory())

    wait_until(lambda: Rating.objects.filter(pool=match.rating_pool).count() == 4, "the worker rates the match")
    wait_until(lambda: not PendingRatingUpdate.objects.exists(), "the worker clears the pending marker")
    assert pool_differences(match.rating_pool) == []
    ratings = dict(Rating.objects.filter(pool=match.rating_pool).values_list("player__name", "matches"))
    assert ratings == {player.name: 1 for player in players}

    def health():
        return Client().get("/health/?format=json")

    wait_until(lambda: health().status_code == 200, "the worker answers the health check")
    assert health().json()["workers"]["names"][0].startswith(f"test-{os.getpid()}@")
