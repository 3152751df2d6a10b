"""bench/engines.py: the child measurement and the refusals of bad arguments."""

from __future__ import annotations

import json
import time

import pytest

from bench import engines


@pytest.mark.parametrize("clock", ["cpu", "wall"])
def test_child_prints_every_figure_of_every_game(clock, capsys):
    from games.core import benchmark

    assert engines.main(["--child", str(engines.ROOT), "--games", "2", "--clock", clock]) == 0
    figures = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert sorted(figures) == ["chicken_foot", "chickie_nuggs", "nacho_pile", "nobody_but_us_chickens"]
    for game in figures.values():
        assert sorted(game) == sorted(engines.FIGURES)
        assert all(value > 0 for value in game.values())
    assert benchmark.time.perf_counter is time.perf_counter  # the clock is put back for everything else


def test_an_unknown_clock_is_refused_with_exit_code_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        engines.main(["--clock", "sundial"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'sundial'" in capsys.readouterr().err


def test_against_an_unknown_revision_is_refused_with_exit_code_2(capsys):
    assert engines.main(["--against", "no-such-revision", "--games", "1", "--repeats", "1"]) == 2
    assert "'no-such-revision' is not a commit of this repository" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--games", "0"], ["--repeats", "0"], ["--players", "1"]])
def test_bad_numbers_are_refused_with_exit_code_2(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        engines.main(argv)
    assert exit_info.value.code == 2
    assert "--games and --repeats must be at least 1" in capsys.readouterr().err
