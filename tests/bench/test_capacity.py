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


def test_a_quick_run_serves_the_whole_mix_without_an_error_and_hashed_static_files(tmp_path):
    figures = tmp_path / "figures.json"
    environment = {**os.environ, "CACHE_URL": os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/9")}
    command = [sys.executable, "-m", "bench.capacity", "--quick", "--json", str(figures)]

    done = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=900)

    assert done.returncode == 0, done.stderr[-3000:]
    side = json.loads(figures.read_text())["sides"]["this checkout"]
    assert list(side) == ["open 20/s", "closed 2"]
    assert side["open 20/s"]["answered"] == 20 and side["open 20/s"]["errors"] == 0
    assert side["closed 2"]["answered"] > 0 and side["closed 2"]["errors"] == 0
    static = next(line for line in done.stdout.splitlines() if line.startswith("  static: "))
    assert "Cache-Control: max-age=315360000, public, immutable" in static
    assert "40-player 4-seat Swiss pods (Nacho Pile), round 1 played, round 2 published" in done.stdout
