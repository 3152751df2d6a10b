"""bench/studies/np_last_chip.py: how often each kind of chip is left last in Nacho Pile,
and the mix's weights fitted."""

from __future__ import annotations

import pytest

from bench.studies import np_last_chip
from games.nacho_pile.rules import STEAL, WILD

# A bag of two 3s, a Wild and a Steal (chip codes: 2 is the number 3).
BAG = (0, 0, 2, 0, 0, 0, 0, 1, 1, 0, 0)


def test_the_fit_follows_the_last_chips():
    numbers_last = [(BAG, 2)] * 50
    assert np_last_chip.fit(numbers_last)[:2] == (0.2, 0.2)  # never a Wild or a Special: the lowest weights
    wilds_last = [(BAG, WILD)] * 50
    assert np_last_chip.fit(wilds_last)[:2] == (2.0, 0.2)
    # Last 5 times in 8 a 3, twice the Wild, once the Steal: 2 / (2 + w + s) = 5/8, w / (2 + w + s) = 2/8 and
    # s / (2 + w + s) = 1/8 at w = 0.8, s = 0.4.
    mixed = [(BAG, 2)] * 5 + [(BAG, WILD)] * 2 + [(BAG, STEAL)] * 1
    wild, special, _ = np_last_chip.fit(mixed)
    assert (wild, special) == (0.8, 0.4)


def test_the_report_counts_every_turn_and_prints_the_weights(capsys):
    assert np_last_chip.main(["--games", "20", "--seed", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    turns = int(lines[0].split()[0].replace(",", ""))
    assert lines[0].endswith("turns of 20 heuristic games, 4 seats, seeds 5-24")
    rows = lines[2:-1]
    assert [row.split()[0] for row in rows] == ["0-7", "8-15", "16-23", "24-31", "32-39", "40-47", "48-54"]
    assert sum(int(row.split()[1].replace(",", "")) for row in rows) == turns
    assert lines[-1].startswith("most likely weights (a number's 1): Wild ")
    # The same games give the same report.
    assert np_last_chip.main(["--games", "20", "--seed", "5"]) == 0
    assert capsys.readouterr().out.splitlines() == lines


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--games", "0"], "--games must be from 1 to 1000000, got 0"),
        (["--players", "7"], "--players must be from 2 to 6, got 7"),
        (["--seed", "-1"], "--seed must be 0 or more, got -1"),
        (["--games", "many"], "invalid int value: 'many'"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        np_last_chip.main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
