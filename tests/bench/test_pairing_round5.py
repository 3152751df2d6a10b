"""bench/pairing_round5.py at a tiny size: round 5 of each format generated run after run, its --json file."""

from __future__ import annotations

import json

import pytest

from bench import pairing_round5


def test_a_tiny_run_writes_each_formats_round_5_time_for_every_run(tmp_path, capsys):
    path = tmp_path / "pairing.json"

    assert pairing_round5.main(["--players", "12", "--runs", "3", "--seed", "7", "--json", str(path)]) == 0

    written = json.loads(path.read_text())
    assert written["bench"] == "pairing_round5"
    assert written["settings"] == {"players": 12, "runs": 3, "seed": 7}
    side = written["sides"]["round5"]
    assert [sorted(run) for run in side["runs"]] == [["2-seat Swiss round5_s", "4-seat pods round5_s"]] * 3
    pods = side["medians"]["4-seat pods round5_s"]
    times = sorted(run["4-seat pods round5_s"] for run in side["runs"])
    assert (pods["min"], pods["median"], pods["max"], pods["n"]) == (*times, 3)
    out = capsys.readouterr().out
    assert f"  round 5 generation: median {pods['median']:.3f} s over 3 runs" in out
    assert "2-seat Swiss, 12 players:" in out and "4-seat pods round5_s" in out and " n=3" in out


@pytest.mark.parametrize("argv", [["--players", "3"], ["--runs", "0"]])
def test_too_few_players_or_runs_are_refused_with_exit_code_2(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        pairing_round5.main(argv)
    assert exit_info.value.code == 2
    assert "need at least 4 players and 1 run" in capsys.readouterr().err
