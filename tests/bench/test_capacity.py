"""bench/capacity.py at its `--quick` size (not timed): a scratch PostgreSQL event, collectstatic, gunicorn on
the production settings with Redis as the cache, the phone mix open loop and closed loop, every answer right.

Redis: `TEST_REDIS_URL` (default `redis://127.0.0.1:6379/9`), a database of the test's own (the bench empties
it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from bench.compare import ROOT

pytestmark = pytest.mark.postgres


def quick_run(tmp_path, *options: str) -> tuple[subprocess.CompletedProcess, dict]:
    """`bench.capacity --quick` with `options`: the finished process (exit 0 asserted) and its figures."""
    figures = tmp_path / "figures.json"
    environment = {**os.environ, "CACHE_URL": os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/9")}
    command = [sys.executable, "-m", "bench.capacity", "--quick", *options, "--json", str(figures)]
    done = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return done, json.loads(figures.read_text())["sides"]["this checkout"]


def test_a_quick_run_serves_the_whole_mix_without_an_error_and_hashed_static_files(tmp_path):
    """Half the round page's looks by signed-in players (`--members 50`): the bench checks that a member's
    look is answered as theirs before it measures."""
    done, side = quick_run(tmp_path, "--members", "50")

    assert list(side) == ["open 20/s", "closed 2"]
    assert side["open 20/s"]["answered"] == 20 and side["open 20/s"]["errors"] == 0
    assert side["closed 2"]["answered"] > 0 and side["closed 2"]["errors"] == 0
    static = next(line for line in done.stdout.splitlines() if line.startswith("  static: "))
    assert "Cache-Control: max-age=315360000, public, immutable" in static
    assert "40-player 4-seat Swiss pods (Nacho Pile), round 1 played, round 2 published" in done.stdout
    assert "  members: 40 signed-in players; a member's round page shows their log-out form" in done.stdout


@pytest.mark.worker
def test_results_entered_while_the_phones_look_show_on_the_next_look(tmp_path):
    """`--results`: the bench enters results during the open loop (the production worker beside the web);
    nothing fails, and at the end the event page's answer is of the tournament's version then."""
    done, side = quick_run(tmp_path, "--results", "4")

    assert list(side) == ["open 20/s +4 res/s", "closed 2"]
    assert side["open 20/s +4 res/s"]["answered"] == 20 and side["open 20/s +4 res/s"]["errors"] == 0
    line = next(line for line in done.stdout.splitlines() if "results entered during the open loop" in line)
    entered = int(line.split(": ", 1)[1].split(";")[0])
    assert 1 <= entered <= 10  # round 2 of 40 players: 10 tables
    assert line.endswith(": current"), line
