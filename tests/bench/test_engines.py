"""bench/engines.py: every figure of every game, repeat by repeat, its --json file, and refusals."""

from __future__ import annotations

import json
import time

import pytest

from bench import engines


@pytest.mark.parametrize("clock", ["cpu", "wall"])
def test_measure_gives_every_figure_of_every_game_and_puts_the_clock_back(clock):
    from games.core import benchmark

    found = engines.measure(3, 2, 1, clock)

    assert sorted(found) == ["chicken_foot", "chickie_nuggs", "nacho_pile", "nobody_but_us_chickens"]
    for game in found.values():
        assert sorted(game) == sorted(engines.FIGURES)
        assert all(value > 0 for value in game.values())
    assert benchmark.time.perf_counter is time.perf_counter  # the clock is put back for everything else


def test_a_run_writes_each_figures_median_and_range_over_its_repeats(tmp_path, capsys):
    path = tmp_path / "engines.json"

    assert engines.main(["--games", "2", "--repeats", "2", "--players", "3", "--json", str(path)]) == 0

    written = json.loads(path.read_text())
    assert written["bench"] == "engines"
    assert written["settings"] == {"games": 2, "repeats": 2, "players": 3, "clock": "cpu"}
    side = written["sides"]["engines"]
    assert len(side["runs"]) == 2
    assert len(side["medians"]) == 4 * len(engines.FIGURES)
    rate = side["medians"]["nacho_pile games_per_s"]
    runs = sorted(run["nacho_pile games_per_s"] for run in side["runs"])
    assert (rate["min"], rate["max"], rate["n"]) == (runs[0], runs[1], 2)
    assert rate["median"] == (runs[0] + runs[1]) / 2
    out = capsys.readouterr().out
    assert "nacho_pile games_per_s" in out and " n=2" in out


def test_an_unknown_clock_is_refused_with_exit_code_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        engines.main(["--clock", "sundial"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'sundial'" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--games", "0"], ["--repeats", "0"], ["--players", "1"]])
def test_bad_numbers_are_refused_with_exit_code_2(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        engines.main(argv)
    assert exit_info.value.code == 2
    assert "--games and --repeats must be at least 1" in capsys.readouterr().err
