"""Nobody but Us Chickens through the command line."""

from games.cli import main


def test_play_tells_each_hour_and_dawn(capsys):
    status = main(
        [
            "play",
            "nobody_but_us_chickens",
            "--players",
            "3",
            "--bots",
            "heuristic,random,random",
            "--seed",
            "1",
        ]
    )
    out, _ = capsys.readouterr()
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("  seat 0 (heuristic): sends the ")
    assert lines[0].endswith(" into the coop")
    assert sum(line.startswith("    dawn: night points ") for line in lines) == 3
    assert sum(line.startswith("    night 3 hour 9: revealed ") for line in lines) >= 1
    assert "nobody_but_us_chickens v1, seed 1: " in out and "ended normal" in out
    assert "Game over after 3 nights" in out


def test_play_refuses_two_players_without_the_variant(capsys):
    status = main(["play", "nobody_but_us_chickens", "--players", "2", "--bots", "random", "--seed", "1"])
    _, err = capsys.readouterr()
    assert status == 2
    assert "takes 3 to 6 players" in err
