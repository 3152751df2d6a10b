"""bench/studies/strength_league.py: its line-up and refusals (the league runs through tested services)."""

from __future__ import annotations

import pytest

from bench.studies import strength_league


def test_the_lineup_is_random_heuristic_the_budgets_and_the_default_search():
    assert strength_league.lineup("chicken_foot", [25, 400]) == [
        ("Random", "random", {}),
        ("Heuristic", "heuristic", {}),
        ("Search 25", "search", {"iterations": 25}),
        ("Search 400", "search", {"iterations": 400}),
        ("Search (default)", "search", {}),
    ]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["nacho_pile", "--budgets", "25,lots"], "--budgets takes whole numbers separated by commas"),
        (["nacho_pile", "--budgets", "0"], "budgets, --rounds and --sittings must be at least 1"),
        (["nacho_pile", "--rounds", "0"], "budgets, --rounds and --sittings must be at least 1"),
        (["no_such_game"], "unknown game 'no_such_game'"),
        (["nacho_pile", "--table", "40"], "40"),
        (["nacho_pile", "--move-seconds", "0"], "--move-seconds must be between 0.01 and 600"),
        (["nacho_pile", "--move-seconds", "601"], "--move-seconds must be between 0.01 and 600"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(argv, message, capsys):
    assert strength_league.main(argv) == 2
    assert message in capsys.readouterr().err
