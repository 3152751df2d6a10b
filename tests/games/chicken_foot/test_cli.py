"""Chicken Foot through the command line: a readable account with the table after every round."""

from games.cli import main


def test_play_shows_each_play_and_the_table_after_every_round(capsys):
    status = main(
        ["play", "chicken_foot", "--players", "4", "--bots", "heuristic,greedy,random,random", "--seed", "2"]
    )
    out, _ = capsys.readouterr()
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "  chance: shuffle and deal 9 bones each; seat 0 leads with 9-9"
    assert lines[1] == "  seat 1 (greedy): plays 9-4 on the spinner 9-9"
    round_ends = [line for line in lines if line.startswith("Round ") and " · spinner " in line]
    # One picture per round as it ends, and the final table once more.
    assert [line.split(" of ")[0] for line in round_ends] == [f"Round {n}" for n in range(1, 11)] + [
        "Round 10"
    ]
    assert sum(line.startswith("    [") and line.endswith("] spinner") for line in lines) == 11
    assert "  final places: seat 0 #1, seat 1 #2, seat 2 #3, seat 3 #4" in lines
    assert "chicken_foot v1, seed 2: " in out and "ended normal" in out


def test_play_refuses_five_players_with_a_double_six_set(capsys):
    status = main(
        [
            "play",
            "chicken_foot",
            "--players",
            "5",
            "--bots",
            "random",
            "--seed",
            "1",
            "--option",
            "set=double_six",
        ]
    )
    _, err = capsys.readouterr()
    assert status == 2
    assert "Chicken Foot takes 2 to 4 players with these options, not 5" in err
