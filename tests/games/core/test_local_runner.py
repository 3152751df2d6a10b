"""The local runner: `python -m games play GAME --seat cmd:... --seat BOT`, its record, its replay file, a
recorded match played again with the author's program, its limits, and its refusals."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from games.cli import main
from games.core.local import (
    NODE_ADDRESS_SPACE_MB,
    SeatError,
    refuse_unsupported_system,
    rlimits,
    runtime_limits,
)
from games.core.protocol import Limits
from games.core.record import canonical_json
from games.core.replay import replay

ROOT = Path(__file__).resolve().parents[3]
RANDOM_BOT = f"cmd:{sys.executable} {ROOT / 'examples' / 'random_bot.py'}"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def program(tmp_path: Path, name: str, body: str) -> str:
    """A bot program that reads the start and its first decision, then does `body`."""
    path = tmp_path / name
    path.write_text(
        "import json, sys\n"
        "start = json.loads(sys.stdin.readline())\n"
        "act = json.loads(sys.stdin.readline())\n" + body
    )
    return f"cmd:{sys.executable} {path}"


def test_a_program_and_a_built_in_bot_play_a_match_written_as_record_and_replay_file(capsys, tmp_path):
    record_file, html_file = tmp_path / "match.json", tmp_path / "match.html"
    status, out, err = run(
        capsys,
        "play",
        "nacho_pile",
        "--seat",
        RANDOM_BOT,
        "--seat",
        "heuristic",
        "--seed",
        "3",
        "--record",
        str(record_file),
        "--html",
        str(html_file),
    )
    assert status == 0, err
    record = json.loads(record_file.read_text())
    assert record["seats"][0] == {
        "bot": "external",
        "params": {"definition": RANDOM_BOT[len("cmd:") :]},
        "external": {"definition": RANDOM_BOT[len("cmd:") :]},
    }
    assert record["seats"][1]["bot"] == "heuristic"
    assert record["end"] == {"reason": "normal", "forfeits": []}
    assert replay(record).outcome().to_json() == record["outcome"]
    assert f"nacho_pile v1, seed 3: {len(record['events'])} events, ended normal" in out
    assert f"seat 0 ({RANDOM_BOT[len('cmd:') :]})" in out

    page = html_file.read_text()
    # Offline: the viewer's script and style inlined, nothing fetched from anywhere.
    assert not re.search(r"""(src|href)=["'](https?:|//|/)""", page)
    assert "<link" not in page
    assert "replay-frames" in page and ".stepper {" in page
    frames = json.loads(re.search(r'id="replay-frames">(.*?)</script>', page, re.S).group(1))
    assert len(frames) == len(record["events"]) + 1
    assert f'Step <strong id="step-number">{len(record["events"])}</strong>' in frames[-1]


def test_a_recorded_match_plays_again_with_the_program_in_its_seat(capsys, tmp_path):
    record_file = tmp_path / "match.json"
    status, _, _ = run(
        capsys, "play", "nacho_pile", "--seat", "heuristic", "--seat", RANDOM_BOT, "--seed", "11",
        "--record", str(record_file),
    )  # fmt: skip
    assert status == 0
    status, out, err = run(
        capsys, "play", "--from-record", str(record_file), "--seat", f"1={RANDOM_BOT}", "--json"
    )
    assert status == 0, err
    assert out == record_file.read_text()  # the same seed, bots and program: the same match, byte for byte


def test_the_json_of_built_in_bots_is_the_runners_record(capsys):
    from games.core.runner import play_match

    status, out, _ = run(capsys, "play", "nacho_pile", "--seat", "random", "--seat", "heuristic", "--json")
    assert status == 0
    assert out == canonical_json(play_match("nacho_pile", 2, ["random", "heuristic"], 0)) + "\n"


def test_a_program_over_its_move_time_forfeits_and_the_account_says_why(capsys, tmp_path):
    slow = program(tmp_path, "slow.py", "import time\ntime.sleep(5)\n")
    status, out, _ = run(
        capsys, "play", "nacho_pile", "--seat", slow, "--seat", "random", "--move-seconds", "0.2",
        "--startup-seconds", "0", "--time-bank", "0",
    )  # fmt: skip
    assert status == 0
    assert (
        "seat 0 forfeited at event 1: timeout (gave no answer within 0.2 s (killed): 0.2 s a move, and 0 s"
        " more for the first answer (the program's start-up))" in out
    )


def test_the_cpu_and_memory_limits_stop_a_program_as_the_sandbox_would(capsys, tmp_path):
    spin = program(tmp_path, "spin.py", "while True:\n    pass\n")
    status, out, err = run(
        capsys, "play", "nacho_pile", "--seat", spin, "--seat", "random", "--cpu-seconds", "1",
        "--move-seconds", "30",
    )  # fmt: skip
    assert status == 0
    assert (
        "seat 0 forfeited at event 1: limit_exceeded "
        "(was killed by SIGXCPU (over its CPU time) before answering)" in out
    )
    assert err == ""  # Linux applies every limit: nothing to name

    hog = program(tmp_path, "hog.py", "block = bytearray(400 << 20)\nprint(len(block))\n")
    status, out, _ = run(
        capsys, "play", "nacho_pile", "--seat", hog, "--seat", "random", "--memory-mb", "200"
    )
    assert "seat 0 forfeited at event 1: crashed (exited with status 1 before answering)" in out


def test_limits_the_system_does_not_enforce_are_named():
    _, missing = rlimits(Limits(memory_mb=300), platform="darwin")
    assert missing == ["memory (300 MB of address space: not enforced on this system)"]
    _, missing = rlimits(Limits(), platform="linux")
    assert missing == []


def test_windows_is_refused_with_a_message():
    with pytest.raises(SeatError, match="programs play on Linux and macOS only .* on Windows, run it in WSL"):
        refuse_unsupported_system("win32")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "nacho_pile", "--seat", "cmd:"], "--seat cmd: needs the command that starts the program"),
        (["play", "nacho_pile", "--seat", "cmd:python3 'bot.py"], "No closing quotation"),
        (["play", "nacho_pile", "--seat", "genius", "--seat", "random"], "unknown bot 'genius'"),
        (["play", "nacho_pile", "--seat", "random:depth"], "a bot's parameters are key=value"),
        (
            ["play", "nacho_pile", "--seat", "random", "--bots", "random"],
            "with --seat or with --bots, not both",
        ),
        (["play", "nacho_pile", "--seat", "random", "--players", "3"], "--players 3 needs 3 seats, got 1"),
        (["play", "--seat", "random"], "play needs the game"),
        (["play", "nacho_pile"], "play needs --players and --bots, or one --seat per seat"),
        (
            ["play", "nacho_pile", "--players", "2", "--bots", "random", "--html", "x.html"],
            "--record and --html",
        ),
        (
            ["play", "nacho_pile", "--seat", "random", "--move-seconds", "0"],
            "--move-seconds takes 0.01 to 60",
        ),
        (
            ["play", "nacho_pile", "--seat", "random", "--move-seconds", "nan"],
            "--move-seconds takes 0.01 to 60",
        ),
        (["play", "nacho_pile", "--seat", "random", "--memory-mb", "-5"], "--memory-mb takes a number of 1"),
        (
            ["play", "--from-record", "/nonexistent.json", "--seat", "0=random"],
            "cannot read /nonexistent.json",
        ),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_message(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.startswith("python -m games: error: ")
    assert message in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("record", "seat", "message"),
    [
        ([1, 2], "0=random", "the file is not a match record (it has no list of seats)"),
        ({"seats": [{"bot": "random", "params": {}}]}, "3=random", "the record has seats 0 to 0, not seat 3"),
        ({"seats": [{"bot": "random", "params": {}}]}, "x=random", "--seat takes N=cmd:COMMAND"),
        (
            {
                "game": "nacho_pile",
                "options": {},
                "seed": 1,
                "seats": [
                    {"bot": "external", "params": {}, "external": {"definition": "alpha"}},
                    {"bot": "random", "params": {}},
                ],
            },
            "1=random",
            "seat 0 was played by an external program (alpha): give --seat 0=cmd:COMMAND to play it",
        ),
        (
            {
                "game": "nacho_pile",
                "options": {},
                "seed": 1,
                "seats": [
                    {"bot": "external", "params": 5, "external": "x"},
                    {"bot": "random", "params": {}},
                ],
            },
            "1=random",
            "seat 0 was played by an external program (a program): give --seat 0=cmd:COMMAND to play it",
        ),
        (
            {
                "game": "nacho_pile",
                "options": {},
                "seed": "one",
                "seats": [{"bot": "random", "params": {}}] * 2,
            },
            "0=random",
            "is not a match record (no whole-number seed)",
        ),
        (
            {"game": "chess", "options": {}, "seed": 1, "seats": [{"bot": "random", "params": {}}] * 2},
            "0=random",
            "unknown game 'chess'",
        ),
    ],
)
def test_a_bad_record_or_seat_exits_2_with_a_clear_message(capsys, tmp_path, record, seat, message):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    status, out, err = run(capsys, "play", "--from-record", str(path), "--seat", seat)
    assert status == 2
    assert out == ""
    assert message in err


def test_a_node_program_gets_its_heap_from_the_bots_memory_under_a_raised_address_space():
    command, limits = runtime_limits(["/usr/bin/node", "bot.js"], Limits(memory_mb=300))
    assert command == ("/usr/bin/node", "--max-old-space-size=300", "bot.js")
    assert limits == Limits(memory_mb=300 + NODE_ADDRESS_SPACE_MB)
    command, _ = runtime_limits(["node", "--max-old-space-size=100", "bot.js"], Limits())
    assert command == ("node", "--max-old-space-size=100", "bot.js")  # the author's own setting stays
    assert runtime_limits(["python3", "bot.py"], Limits()) == (("python3", "bot.py"), Limits())


def test_the_account_names_a_program_by_its_definition_and_survives_a_hostile_seat_entry():
    from games.cli import seat_name

    assert seat_name({"bot": "external", "params": {"definition": "alpha"}, "external": {}}) == "alpha"
    assert seat_name({"bot": "heuristic", "params": {}, "version": 1}) == "heuristic"
    assert seat_name({"bot": "external", "params": 5, "external": 1}) == "external"
    assert seat_name([1]) == "?"
