"""bench/tournament_round.py at a tiny size, on its own SQLite file: the parts played repeat after repeat,
every repeat's figures in its --json file, their medians on the RESULT line."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from bench.compare import ROOT

pytestmark = pytest.mark.slow


def test_a_tiny_run_plays_each_part_every_repeat_and_prints_the_medians_on_the_result_line(tmp_path):
    figures = tmp_path / "figures.json"
    environment = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    command = [sys.executable, "-m", "bench.tournament_round", "--players", "8", "--rounds", "2"]
    command += ["--de-players", "4", "--formats", "swiss,de", "--repeats", "2", "--json", str(figures)]

    done = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=600)

    assert done.returncode == 0, done.stderr[-3000:]
    written = json.loads(figures.read_text())
    assert written["bench"] == "tournament_round"
    assert written["settings"] == {
        "players": 8,
        "rounds": 2,
        "seed": 2026,
        "de_players": 4,
        "formats": "swiss,de",
        "repeats": 2,
    }
    runs = written["sides"]["tournament"]["runs"]
    assert len(runs) == 2
    assert sorted({key.split("_")[0] for key in runs[0]}) == ["de", "swiss"]  # pods not asked for
    assert all(run["swiss_generate_max"] >= run["swiss_generate_med"] for run in runs)
    medians = written["sides"]["tournament"]["medians"]
    assert medians["de_result_med"]["n"] == 2
    out = done.stdout
    assert out.count("2-seat Swiss, 8 players, seconds per round") == 2
    assert out.count("Double elimination, 4 players, match by match (") == 2
    assert out.count("results, tournament finished):") == 2
    assert "medians [min – max] of 2 repeats, seconds:" in out
    result = out.splitlines()[-1]
    assert result.startswith(f"RESULT swiss_generate_max={medians['swiss_generate_max']['median']:.4f} ")
    assert result.endswith(f" de_result_p95={medians['de_result_p95']['median']:.4f}")


def test_an_unknown_part_is_refused_with_exit_code_2():
    command = [sys.executable, "-m", "bench.tournament_round", "--formats", "swiss,knockout"]

    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)

    assert done.returncode == 2
    assert "--formats takes swiss, pods and de, comma-separated" in done.stderr
