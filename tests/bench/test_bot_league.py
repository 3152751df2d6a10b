"""bench/bot_league.py at a tiny size: a PostgreSQL scratch database, a real Celery worker, its leagues and
the engine interleaved, the ratio taken repeat by repeat and printed with its spread."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from bench.compare import ROOT

pytestmark = [pytest.mark.postgres, pytest.mark.worker]


def test_a_tiny_bench_plays_every_league_to_the_end_and_takes_the_ratio_repeat_by_repeat(tmp_path):
    figures = tmp_path / "figures.json"
    environment = {
        **os.environ,
        "CELERY_BROKER_URL": "filesystem://localhost/",  # a broker of the bench's own, under its var dir
        "PECKING_ORDER_VAR_DIR": str(tmp_path / "var"),
    }
    command = [
        sys.executable,
        "-m",
        "bench.bot_league",
        *("--bots", "4", "--table", "4", "--rounds", "2", "--sittings", "3"),
        *("--batch", "2", "--commit-every", "1", "--repeats", "2", "--stall", "60"),
        *("--json", str(figures)),
    ]

    done = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=600)

    assert done.returncode == 0, done.stderr[-3000:]
    written = json.loads(figures.read_text())
    service, engine = written["sides"]["service"]["runs"], written["sides"]["engine"]["runs"]
    assert [run["matches"] for run in service] == [6.0, 6.0]
    assert len(engine) == 2
    assert [run["ratio"] for run in service] == [
        run["service"] / alone["engine"] for run, alone in zip(service, engine, strict=True)
    ]
    ratio = written["sides"]["service"]["medians"]["ratio"]
    assert ratio["n"] == 2 and ratio["min"] <= ratio["median"] <= ratio["max"]
    lines = done.stdout.splitlines()
    assert "= 6 matches a league" in lines[-8]
    assert lines[-3].startswith("  service / engine, repeat by repeat") and " – " in lines[-3]
    assert lines[-1].startswith(f"RESULT ratio={ratio['median']:.4f} ")
