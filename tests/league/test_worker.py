"""A real Celery worker process picks up the rating update queued by a result, a correction or a void, after
the commit (no beat runs here: nothing but the queued task brings the pool up to date)."""

import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from kombu.utils.json import dumps

from league.core import broker
from league.programs.models import WorkerProbe
from league.programs.probe import PROTECTIONS
from league.ratings.models import PendingRatingUpdate, Rating
from league.ratings.services import pool_differences
from league.results.services import result_submit, result_void
from tests.factories import MatchFactory, PlayerFactory, StaffFactory
from tests.league.bots.workers import database_url, purge_queues, wait_until
from tests.league.ratings.test_pools import expected, stored


@pytest.fixture
def worker(transactional_db):
    purge_queues()
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "league.settings.test",
        "DATABASE_URL": database_url(),
        "PECKING_ORDER_TEST_RUN_DIR": str(settings.TEST_RUN_DIR),
    }
    name = f"test-{os.getpid()}@%h"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "league",
            "worker",
            "--pool",
            "solo",
            "-l",
            "warning",
            "-n",
            name,
        ],
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

    wait_until(
        lambda: Rating.objects.filter(pool=match.rating_pool).count() == 4, "the worker rates the match"
    )
    wait_until(lambda: not PendingRatingUpdate.objects.exists(), "the worker clears the pending marker")
    assert pool_differences(match.rating_pool) == []
    ratings = dict(Rating.objects.filter(pool=match.rating_pool).values_list("player__name", "matches"))
    assert ratings == {player.name: 1 for player in players}

    def health():
        return Client().get("/health/?format=json")

    wait_until(lambda: health().status_code == 200, "the worker answers the health check")
    assert health().json()["workers"]["names"][0].startswith(f"test-{os.getpid()}@")


@pytest.mark.worker
@pytest.mark.filesystem_broker
def test_a_half_written_message_file_neither_stops_the_worker_nor_is_lost(worker, monkeypatch):
    """A writer that has not finished a message file (kombu's own transport writes in place) leaves the
    worker consuming the messages behind it, and the message is taken once the file is complete."""
    staff = StaffFactory()
    first = MatchFactory(game_id="nacho_pile")
    second = MatchFactory(game_id="chicken_foot")
    assert first.rating_pool != second.rating_pool
    held = []
    with monkeypatch.context() as patch:
        patch.setattr(
            broker.Channel, "_put", lambda channel, queue, payload, **kwargs: held.append((queue, payload))
        )
        result_submit(match_id=first.pk, expected_version=0, places=[1, 2, 3, 4], entered_by=staff)
    assert held
    folder = Path(settings.CELERY_BROKER_TRANSPORT_OPTIONS["data_folder_in"])
    halves = []
    for number, (queue, payload) in enumerate(held):
        path = folder / f"{number}_{uuid.uuid4()}.{queue}.msg"  # older than any message sent from now on
        whole = dumps(payload).encode()
        path.write_bytes(whole[: len(whole) // 2])
        halves.append((path, whole[len(whole) // 2 :]))

    result_submit(match_id=second.pk, expected_version=0, places=[1, 2, 3, 4], entered_by=staff)
    wait_until(
        lambda: Rating.objects.filter(pool=second.rating_pool).count() == 4,
        "the worker rates the match queued behind the half-written file",
    )
    assert not Rating.objects.filter(pool=first.rating_pool).exists()
    assert worker.poll() is None

    for path, rest in halves:
        with path.open("ab") as file:
            file.write(rest)
    wait_until(
        lambda: Rating.objects.filter(pool=first.rating_pool).count() == 4,
        "the worker takes the message once its file is complete",
    )
    assert worker.poll() is None


@pytest.mark.worker
def test_a_worker_replays_a_pool_at_once_after_a_correction_and_after_a_void(worker):
    names = ["Ann", "Bob", "Cat", "Dan"]
    players = [PlayerFactory(name=name) for name in names]
    staff = StaffFactory()
    first, second = MatchFactory(players=players), MatchFactory(players=players)
    pool = first.rating_pool

    def rated() -> bool:
        return not PendingRatingUpdate.objects.exists()

    for match in (first, second):
        result_submit(match_id=match.pk, expected_version=0, places=[1, 2, 3, 4], entered_by=staff)
    wait_until(rated, "the worker rates both results")
    assert stored(pool) == expected((names, [1, 2, 3, 4]), (names, [1, 2, 3, 4]))

    result_submit(
        match_id=second.pk, expected_version=1, places=[4, 3, 2, 1], entered_by=staff, reason="swapped"
    )
    wait_until(rated, "the worker replays the correction")
    assert stored(pool) == expected((names, [1, 2, 3, 4]), (names, [4, 3, 2, 1]))

    result_void(match_id=first.pk)
    wait_until(rated, "the worker replays the pool without the void match")
    assert stored(pool) == expected((names, [4, 3, 2, 1]))
    assert pool_differences(pool) == []


@pytest.mark.worker
@pytest.mark.sandbox
def test_a_worker_proves_its_sandbox_when_it_starts_and_health_shows_what_it_proved(worker):
    wait_until(WorkerProbe.objects.exists, "the worker stores its sandbox probe")
    probe = WorkerProbe.objects.get()

    assert probe.worker.startswith(f"test-{os.getpid()}@")
    assert probe.isolated
    assert probe.proven == dict.fromkeys(PROTECTIONS, True)
    assert probe.detail["process_limit"] == f"{settings.SANDBOX_MAX_PROCESSES - 3} of 200 forks succeeded"
    sandbox = Client().get("/health/?format=json").json()["sandbox"]
    assert (sandbox["ok"], sandbox["isolated_workers"], sandbox["waiting_matches"]) == (
        True,
        [probe.worker],
        0,
    )
    assert [(row["worker"], row["isolated"], row["failed"]) for row in sandbox["workers"]] == [
        (probe.worker, True, {})
    ]
    page = Client().get("/health/").content.decode()
    assert f'<span class="ok">proved by {probe.worker}</span>' in page
