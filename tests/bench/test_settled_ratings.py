"""The settled-ratings bench at a tiny size: its pools are as its docstring says; it prints its table."""

import sys

from bench import settled_ratings


def test_a_day_seats_every_player_once_at_tables_of_two_to_seven():
    true, schedule = settled_ratings.days_of(seed=3, players=23, days=2)
    assert len(true) == 23 and len(schedule) == 2
    for tables in schedule:
        seated = sorted(p for table in tables for p, _ in table)
        assert seated == list(range(23))
        assert all(2 <= len(table) <= 8 for table in tables)
        for table in tables:
            places = sorted(place for _, place in table)
            assert places[0] == 1  # someone wins; ties share a place and the next place skips


def test_the_bench_prints_a_row_per_games_count(capsys, monkeypatch):
    argv = ["settled_ratings", "--seeds", "1", "--players", "8", "--games", "1", "2"]
    monkeypatch.setattr(sys, "argv", argv)
    settled_ratings.main()
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "8 players, 1 seeds, medians; lower log loss and Brier are better"
    assert [line.split(" | ")[0] for line in lines[3:]] == ["| 1", "| 2"]


def test_kendall_tau_of_one_order_and_its_reverse():
    assert settled_ratings.kendall([1, 2, 3], [10, 20, 30]) == 1.0
    assert settled_ratings.kendall([1, 2, 3], [30, 20, 10]) == -1.0
