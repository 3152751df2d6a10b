"""bench/league_ratings.py at a tiny size, on its own SQLite file: every repeat's figures in its --json file,
the medians printed."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from bench.compare import ROOT

pytestmark = pytest.mark.slow


def test_a_tiny_run_replays_the_pool_and_writes_every_repeats_figures(tmp_path):
    figures = tmp_path / "figures.json"
    environment = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    command = [sys.executable, "-m", "bench.league_ratings", "--matches", "20", "--players", "8"]
    command += ["--repeats", "2", "--json", str(figures)]

    done = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=600)

    assert done.returncode == 0, done.stderr[-3000:]
    written = json.loads(figures.read_text())
    assert written["bench"] == "league_ratings"
    assert written["settings"] == {"matches": 20, "players": 8, "repeats": 2, "seed": 1}
    runs = written["sides"]["pool"]["runs"]
    assert [run["replayed_matches"] for run in runs] == [20.0, 21.0]  # the new result of repeat 1 is replayed
    assert [run["replay_ratings_per_s"] for run in runs] == [4 * run["replay_matches_per_s"] for run in runs]
    assert [run["first_page_queries"] for run in runs] == [3.0, 3.0]
    append = written["sides"]["pool"]["medians"]["append_ms"]
    assert append["n"] == 2 and append["median"] == (runs[0]["append_ms"] + runs[1]["append_ms"]) / 2
    out = done.stdout
    assert "database: sqlite; 20 four-seat matches, 8 players" in out
    assert f"(submit + update): median {append['median']:.1f} ms" in out
    assert "recompute check: equal" in out
    assert "medians [min – max] of 2 repeats:" in out and "append_ms" in out
