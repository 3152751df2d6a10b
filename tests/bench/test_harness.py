"""bench/harness.py: interleaved repeats, medians with ranges, the table and the JSON file."""

from __future__ import annotations

import json

from bench import harness


def test_sides_run_in_turn_repeat_after_repeat():
    order = []

    def side(name, value):
        def run():
            order.append(name)
            return {"rate": value + len(order)}

        return run

    runs = harness.interleave({"before": side("before", 0), "after": side("after", 100)}, 3)

    assert order == ["before", "after"] * 3
    assert runs == {
        "before": [{"rate": 1}, {"rate": 3}, {"rate": 5}],
        "after": [{"rate": 102}, {"rate": 104}, {"rate": 106}],
    }


def test_the_table_gives_median_and_range_per_side_and_the_ratio_of_the_medians():
    runs = {
        "before": [{"ratio": 0.55, "service": 600.0}, {"ratio": 0.59, "service": 640.0}, {"ratio": 0.57}],
        "after": [{"ratio": 0.61, "service": 650.0}, {"ratio": 0.6, "service": 630.0}, {"ratio": 0.62}],
    }

    assert harness.table(runs) == [
        "figure               before: median [range]             after: median [range]  after / before",
        "ratio                0.57 [0.55 – 0.59] n=3             0.61 [0.6 – 0.62] n=3           1.070",
        "service                 620 [600 – 640] n=2               640 [630 – 650] n=2           1.032",
    ]


def test_the_json_file_holds_every_run_and_each_figures_spread(tmp_path):
    path = tmp_path / "figures.json"
    runs = {"engine": [{"rate": 10.0}, {"rate": 30.0}, {"rate": 20.0}]}

    harness.write_json(path, "toy", {"games": 5}, runs)

    assert json.loads(path.read_text()) == {
        "bench": "toy",
        "settings": {"games": 5},
        "sides": {
            "engine": {
                "runs": [{"rate": 10.0}, {"rate": 30.0}, {"rate": 20.0}],
                "medians": {"rate": {"median": 20.0, "min": 10.0, "max": 30.0, "n": 3}},
            }
        },
    }
    assert harness.read_medians(path) == {"rate": 20.0}
