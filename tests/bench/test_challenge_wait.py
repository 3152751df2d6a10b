"""bench/challenge_wait.py at a tiny size: make run's setup (a SQLite file, the filesystem broker, one real
solo worker), the demo ladder, a staff league and a challenge played to its end; figures, not timed."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from bench.compare import ROOT

pytestmark = [pytest.mark.worker]


def test_a_tiny_bench_plays_the_challenge_to_its_end_and_prints_the_medians(tmp_path):
    figures = tmp_path / "figures.json"
    environment = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    command = [
        sys.executable,
        "-m",
        "bench.challenge_wait",
        *("--sittings", "3", "--challenge", "2", "--delay", "0", "--cap", "120", "--window", "0"),
        *("--repeats", "1"),
        *("--json", str(figures)),
    ]

    done = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=600)

    assert done.returncode == 0, done.stderr[-3000:]
    written = json.loads(figures.read_text())
    [run] = written["sides"]["run"]["runs"]
    assert sorted(run) == ["challenge_wait_s", "ladder_per_min", "league_done"]
    assert 0 < run["challenge_wait_s"] < 120  # finished before the cap
    assert written["settings"]["sittings"] == 3
    lines = done.stdout.splitlines()
    assert lines[-5].startswith("Nacho Pile on make run's setup (SQLite, filesystem broker, one worker)")
    assert [line.split()[0] for line in lines[-3:]] == ["challenge_wait_s", "ladder_per_min", "league_done"]
    assert all(line.endswith("n=1") for line in lines[-3:])


def test_bad_arguments_exit_2_with_a_message():
    done = subprocess.run(
        [sys.executable, "-m", "bench.challenge_wait", "--challenge", "0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "--challenge 1 to 100" in done.stderr
