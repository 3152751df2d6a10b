import socket

import pytest
from django.core.management import call_command
from kombu import Connection

from league.matches.models import Match
from league.players.models import Player
from league.programs.probe import PROTECTIONS, ProbeResult
from league.programs.services import worker_probe_record
from league.ratings.models import Rating, RatingPool
from league.ratings.services import pool_differences
from league.site import demo

NEW = ("no_file_locks", "no_file_watches", "no_io_uring", "no_kernel_sockets", "memory_budget")


def test_health_without_a_worker_is_503_and_says_why(client, db, monkeypatch, tmp_path):
    """A broker of the test's own (a fresh filesystem folder), so that no worker anywhere can answer."""
    folder = str(tmp_path)
    options = {"data_folder_in": folder, "data_folder_out": folder, "control_folder": folder}
    monkeypatch.setattr(
        "league.site.health.broker_connection",
        lambda: Connection("filesystem://localhost/", transport_options=options),
    )
    monkeypatch.setattr("league.site.health.WORKER_PING_TIMEOUT", 0.2)
    response = client.get("/health/?format=json")
    assert response.status_code == 503
    assert response.json()["database"]["ok"] is True
    assert response.json()["workers"] == {
        "ok": False,
        "names": [],
        "busy": [],
        "silent": [],
        "alive_seconds": 60,
    }
    page = client.get("/health/")
    assert page.status_code == 503 and "no worker answered" in page.content.decode()


def test_demo_data_loads_a_league_once_and_prints_the_admin_password(db, capsys, settings, tmp_path):
    settings.VAR_DIR = tmp_path
    call_command("demo_data")
    first = capsys.readouterr().out
    password = (tmp_path / "admin-password.txt").read_text().strip()
    assert f"Admin login: user 'admin', password '{password}'" in first
    assert Player.objects.count() == len(demo.DEMO_NAMES)
    per_game = {
        spec_id: Match.objects.filter(game_id=spec_id, status="finished").count()
        for spec_id in ("nacho_pile", "nobody_but_us_chickens", "chicken_foot", "chickie_nuggs")
    }
    assert per_game == dict.fromkeys(per_game, demo.MATCHES_PER_GAME)
    assert Rating.objects.count() > 0
    assert all(pool_differences(pool) == [] for pool in RatingPool.objects.all())

    call_command("demo_data")
    again = capsys.readouterr().out
    assert "demo league not loaded again" in again
    assert f"password '{password}'" in again
    assert Match.objects.count() == 4 * demo.MATCHES_PER_GAME


@pytest.mark.parametrize("port", ["0", "70000"])
def test_serve_refuses_a_bad_port(port):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="--port must be between 1 and 65535") as failure:
        call_command("serve", "--port", port)
    assert failure.value.returncode == 2


def test_serve_refuses_a_port_in_use_with_status_2():
    from django.core.management.base import CommandError

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(CommandError, match=f"something already listens on 127.0.0.1:{port}") as failure:
            call_command("serve", "--port", str(port))
    assert failure.value.returncode == 2


def test_health_shows_the_filter_and_the_memory_budget_protection_by_protection(client, db, monkeypatch):
    monkeypatch.setattr("league.site.health.check_workers", lambda: ["celery@w1"])
    failed = {"no_file_locks": "flock succeeded, F_SETLK EPERM", "memory_budget": "a claim was granted"}
    worker_probe_record(
        worker="celery@w1",
        hostname="w1",
        result=ProbeResult(
            proven={name: name not in failed for name in PROTECTIONS},
            detail={name: failed.get(name, "held") for name in PROTECTIONS},
        ),
    )
    (worker,) = client.get("/health/?format=json").json()["sandbox"]["workers"]
    assert worker["isolated"] is False
    assert {name: worker["proven"][name] for name in NEW} == {
        "no_file_locks": False,
        "no_file_watches": True,
        "no_io_uring": True,
        "no_kernel_sockets": True,
        "memory_budget": False,
    }
    assert worker["failed"] == failed
    page = client.get("/health/").content.decode()
    assert (
        "Not proven: no_file_locks (flock succeeded, F_SETLK EPERM); memory_budget (a claim was granted)"
        in page
    )
