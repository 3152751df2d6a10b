import json

import pytest

from games.cli import main
from games.core.runner import play_match


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_list_shows_games_options_and_bots(toy, capsys):
    status, out, _ = run(capsys, "list")
    assert status == 0
    assert "toy_high_hand  v1  High Hand (test game)  (2-4 players)" in out
    assert "    option max_card=6  highest card value" in out
    assert "    bot keep_high (threshold=4)  keeps 4 or more" in out
    status, out, _ = run(capsys, "list", "--json")
    toy_entry = next(g for g in json.loads(out) if g["id"] == "toy_high_hand")
    assert [b["name"] for b in toy_entry["bots"]] == [
        "random",
        "search",
        "keep_high",
        "raises",
        "illegal",
        "slow",
    ]


def test_play_json_prints_the_same_record_as_the_runner(toy, capsys):
    status, out, _ = run(
        capsys,
        "play",
        "toy_high_hand",
        "--players",
        "3",
        "--bots",
        "random,keep_high,random",
        "--seed",
        "9",
        "--option",
        "max_card=5",
        "--json",
    )
    assert status == 0
    expected = play_match("toy_high_hand", 3, ["random", "keep_high", "random"], 9, {"max_card": 5})
    assert json.loads(out) == expected


def test_play_playthrough_prints_every_step_with_each_seats_view_of_it(toy, capsys):
    status, out, _ = run(
        capsys,
        "play",
        "toy_high_hand",
        "--players",
        "2",
        "--bots",
        "random",
        "--seed",
        "4",
        "--option",
        "max_card=3",
        "--playthrough",
    )

    assert status == 0
    lines = out.splitlines()
    assert lines[:5] == [
        "playthrough toy_high_hand v1, 2 players, seed 4",
        'options {"max_card":3}',
        "seat 0: random v1",
        "seat 1: random v1",
        "step 0 start",
    ]
    assert lines[7:12] == [
        "step 1 chance [1,2]",
        '  legal 0: ["keep","redraw"]',
        '  seen 0: [["=",["deck_size"],4],["=",["hand"],1],["=",["phase"],"turns"]]',
        '  seen 1: [["=",["deck_size"],4],["=",["hand"],2],["=",["phase"],"turns"]]',
        'step 2 move {"0":"redraw"}',
    ]
    assert lines[-1] == "end normal: places [2,1], scores [-1,3]"


def test_play_gives_a_readable_account(toy, capsys):
    status, out, _ = run(
        capsys, "play", "toy_high_hand", "--players", "2", "--bots", "keep_high", "--seed", "4"
    )
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("  chance: [")
    assert "seat 0 (keep_high): " in lines[1]
    assert "toy_high_hand v1, seed 4:" in out and "ended normal" in out
    assert out.count("  place ") == 2


def test_replay_verifies_a_file_and_names_the_first_bad_event(toy, capsys, tmp_path):
    record = play_match("toy_high_hand", 2, ["random", "random"], 3)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    status, out, _ = run(capsys, "replay", str(good))
    assert status == 0 and out.startswith("replay ok\n")
    record["events"][1][1]["0"] = "fold"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    status, _, err = run(capsys, "replay", str(bad))
    assert status == 1
    assert err == "replay failed: event 1: seat 0: 'fold' is not a legal action now\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "chess", "--players", "2", "--bots", "random"], "unknown game 'chess'"),
        (
            ["play", "toy_high_hand", "--players", "x", "--bots", "random"],
            "--players takes a whole number, got 'x'",
        ),
        (
            ["play", "toy_high_hand", "--players", "2", "--bots", "random", "--seed", "-1"],
            "--seed takes a number",
        ),
        (["play", "toy_high_hand", "--players", "3", "--bots", "random,random"], "--players 3 needs 3 bots"),
        (
            ["play", "toy_high_hand", "--players", "2", "--bots", "random", "--option", "max_card"],
            "--option takes key=value",
        ),
        (
            ["play", "toy_high_hand", "--players", "2", "--bots", "random", "--option", "max_card=99"],
            "option max_card: 99 is above the maximum 9",
        ),
        (["play", "toy_high_hand", "--players", "9", "--bots", "random"], "takes 2 to 4 players"),
        (["play", "toy_high_hand", "--players", "2", "--bots", "genius"], "unknown bot 'genius'"),
        (["replay", "/nonexistent/record.json"], "cannot read /nonexistent/record.json"),
        (["bench", "toy_high_hand", "--games", "0"], "--games takes a number of 1 or more"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        (
            ["play", "toy_high_hand", "--players", "2", "--bots", "random", "--json", "--playthrough"],
            "--json and --playthrough print different things",
        ),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_message(toy, capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.startswith("python -m games: error: ")
    assert message in err
    assert "Traceback" not in err


def test_bench_reports_rates(toy, capsys):
    status, out, _ = run(
        capsys, "bench", "toy_high_hand", "--players", "2", "--games", "5", "--repeats", "1", "--json"
    )
    report = json.loads(out)
    assert status == 0
    assert report["game"] == "toy_high_hand" and report["players"] == 2 and report["games_per_repeat"] == 5
    assert report["games_per_s"] > 0 and report["clones_per_s"] > 0


def test_arena_prints_a_table_per_bot(toy, capsys):
    status, out, _ = run(
        capsys,
        "arena",
        "toy_high_hand",
        "--players",
        "2",
        "--bots",
        "keep_high,random",
        "--games",
        "40",
        "--seed",
        "1",
        "--quiet",
    )
    assert status == 0
    assert out.startswith(
        "High Hand (test game), 2 players, 40 games, seed 1 (fair share 0.500; turn caps 0)\n"
    )
    assert "keep_high" in out and "random" in out
