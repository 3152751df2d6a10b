"""A worker busy in a long task is alive on /health/ while its heartbeat is under 60 s old."""

import threading
from datetime import timedelta

import pytest
from django.utils import timezone

from league.site import health
from league.site.beats import Heartbeat, beat_write
from league.site.models import WorkerBeat


@pytest.fixture
def no_ping(monkeypatch):
    """The worker answers no ping: it is busy in a task (`--pool solo`)."""
    monkeypatch.setattr("league.site.health.check_workers", lambda: [])


def _json_at(client, monkeypatch, now):
    real = health.health
    monkeypatch.setattr("league.web.site.health", lambda: real(now=now))
    return client.get("/health/?format=json")


def test_a_worker_busy_in_a_long_task_is_200_busy_until_its_heartbeat_is_60_s_old(
    client, db, no_ping, monkeypatch
):
    began = timezone.now() - timedelta(minutes=7)
    beat = timezone.now()
    beat_write(worker="worker@host", task="league.bots.tasks.league_play_task", since=began, now=beat)

    response = _json_at(client, monkeypatch, beat + timedelta(seconds=59))
    assert response.status_code == 200
    workers = response.json()["workers"]
    assert workers["ok"] is True and workers["names"] == ["worker@host"]
    assert workers["busy"] == [
        {
            "name": "worker@host",
            "task": "league.bots.tasks.league_play_task",
            "since": began.isoformat(),
            "beat_seconds_ago": 59.0,
        }
    ]
    assert workers["silent"] == []
    page = _json_page(client, monkeypatch, beat + timedelta(seconds=59))
    assert page.status_code == 200 and "worker@host: busy" in page.content.decode()

    late = _json_at(client, monkeypatch, beat + timedelta(seconds=61))
    assert late.status_code == 503
    assert late.json()["workers"]["ok"] is False
    assert late.json()["workers"]["busy"] == []
    assert [w["name"] for w in late.json()["workers"]["silent"]] == ["worker@host"]
    page = _json_page(client, monkeypatch, beat + timedelta(seconds=61))
    assert page.status_code == 503 and "worker@host: silent for 61.0 s" in page.content.decode()


def _json_page(client, monkeypatch, now):
    real = health.health
    monkeypatch.setattr("league.web.site.health", lambda: real(now=now))
    return client.get("/health/")


def test_an_idle_worker_that_beat_lately_is_alive_and_not_busy(client, db, no_ping, monkeypatch):
    beat = timezone.now()
    beat_write(worker="worker@idle", task="", since=beat, now=beat)
    response = _json_at(client, monkeypatch, beat + timedelta(seconds=30))
    assert response.status_code == 200
    assert response.json()["workers"]["names"] == ["worker@idle"]
    assert response.json()["workers"]["busy"] == []
    assert WorkerBeat.objects.get().task_since is None


def test_a_worker_that_answers_a_ping_is_alive_beside_a_silent_one(client, db, monkeypatch):
    monkeypatch.setattr("league.site.health.check_workers", lambda: ["worker@b"])
    beat = timezone.now()
    beat_write(worker="worker@a", task="", since=None, now=beat)
    response = _json_at(client, monkeypatch, beat + timedelta(seconds=600))
    assert response.status_code == 200
    assert response.json()["workers"]["names"] == ["worker@b"]
    assert [w["name"] for w in response.json()["workers"]["silent"]] == ["worker@a"]


def test_the_heartbeat_thread_writes_during_a_task_and_when_it_ends():
    """The timer thread writes by itself while the task runs: the task's own thread never writes."""
    writes: list[tuple[str, object]] = []
    seen = threading.Condition()

    def write(task, since):
        with seen:
            writes.append((task, since))
            seen.notify_all()

    def wait_for(count):
        with seen:
            assert seen.wait_for(lambda: len(writes) >= count, timeout=10)

    heartbeat = Heartbeat(write, every=3600)
    heartbeat.start()
    try:
        wait_for(1)
        began = timezone.now()
        heartbeat.task_begin("league.bots.tasks.challenge_play_task", now=began)
        wait_for(2)
        heartbeat.task_end()
        wait_for(3)
    finally:
        heartbeat.stop()
    assert writes[:3] == [("", None), ("league.bots.tasks.challenge_play_task", began), ("", None)]


def test_the_heartbeat_keeps_writing_on_its_timer_without_a_task_change():
    writes = []
    three = threading.Event()

    def write(task, since):
        writes.append(task)
        if len(writes) >= 3:
            three.set()

    heartbeat = Heartbeat(write, every=0.01)
    heartbeat.task_begin("a long task")
    heartbeat.start()
    try:
        assert three.wait(timeout=10)
    finally:
        heartbeat.stop()
    assert writes[:3] == ["a long task"] * 3
