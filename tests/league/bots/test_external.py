"""External-program bots with real subprocesses: answers, hangs, garbage, memory, CPU, environment."""

import json
import sys
from pathlib import Path

import pytest

from games.core.replay import replay
from games.core.runner import play_match
from league.bots.external import (
    ExternalBotError,
    ExternalSeats,
    Limits,
    ProgramProcess,
    detect_protections,
    resolve_command,
)

PROGRAMS = Path(__file__).parent / "programs"
EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "random_bot.py"


def program(name: str) -> list[str]:
    return [sys.executable, str(PROGRAMS / f"{name}.py")]


def play_against_random(command: list[str], limits: Limits, seed: int = 7) -> tuple[dict, ExternalSeats]:
    """Nacho Pile, two seats: the program in seat 0, the built-in random bot in seat 1."""
    seats = ExternalSeats()
    with seats:
        program_seat = seats.seat(label="Program", command=command, limits=limits, seed=f"bot:{seed}:0")
        record = play_match("nacho_pile", 2, [program_seat, "random"], seed)
        programs = [bot.program for bot in seats.bots]
        seats.finish(record["outcome"])
    return record, programs


def test_a_program_that_answers_plays_a_whole_match_that_replays():
    record, _ = play_against_random(program("first_legal"), Limits(move_seconds=5))

    assert record["end"] == {"reason": "normal", "forfeits": []}
    assert sorted(record["outcome"]["places"]) in ([1, 2], [1, 1])
    assert replay(record).is_terminal()


def test_the_example_bot_plays_the_same_match_twice():
    first, _ = play_against_random(
        program("first_legal")[:1] + [str(EXAMPLE)], Limits(move_seconds=5), seed=11
    )
    second, _ = play_against_random(
        program("first_legal")[:1] + [str(EXAMPLE)], Limits(move_seconds=5), seed=11
    )

    assert first["end"]["reason"] == "normal"
    assert first == second


def test_a_program_that_hangs_is_killed_and_forfeits_its_seat():
    record, programs = play_against_random(program("hangs"), Limits(move_seconds=0.5, startup_seconds=0.5))

    assert record["end"]["reason"] == "forfeit"
    assert record["end"]["forfeits"] == [
        {
            "seat": 0,
            "event": record["end"]["forfeits"][0]["event"],
            "reason": "raised ExternalBotError: no answer within 1s (killed)",
        }
    ]
    assert record["outcome"]["places"] == [2, 1]
    assert programs[0] is not None and programs[0].process.returncode == -9
    assert replay(record).is_terminal()


def test_a_program_that_prints_garbage_forfeits_with_what_it_said():
    record, _ = play_against_random(program("garbage"), Limits(move_seconds=5))

    assert [f["reason"] for f in record["end"]["forfeits"]] == [
        "raised ExternalBotError: answered something that is not JSON: 'I fold!'"
    ]
    assert record["outcome"]["places"] == [2, 1]


def test_a_program_over_its_memory_limit_dies_and_forfeits():
    record, _ = play_against_random(program("memory_hog"), Limits(move_seconds=5, memory_mb=200))

    (forfeit,) = record["end"]["forfeits"]
    assert forfeit["seat"] == 0
    assert forfeit["reason"].startswith("raised ExternalBotError: exited without answering (exit status 1)")
    assert "MemoryError" in forfeit["reason"]


def test_a_program_over_its_cpu_time_is_killed_by_the_system():
    record, _ = play_against_random(program("spins"), Limits(move_seconds=30, cpu_seconds=1))

    assert [f["reason"] for f in record["end"]["forfeits"]] == [
        "raised ExternalBotError: exited without answering (killed by SIGXCPU)"
    ]


def test_the_program_sees_no_secrets_and_no_network(monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "do-not-leak")
    monkeypatch.setenv("DATABASE_URL", "postgres://postgres@127.0.0.1/league")
    process = ProgramProcess(program("reports_environment"), Limits(move_seconds=5))
    try:
        process.send({"type": "act", "observation": {}, "legal_actions": ["stop"]})
        answer = json.loads(process.read_line(60))  # returns as soon as the program answers
        report = json.loads(process.stderr_tail())
    finally:
        process.close()

    assert answer == {"action": "stop"}
    assert report["variables"] == ["HOME", "LANG", "PATH"]
    expected_network = "unreachable" if detect_protections().no_network else "reachable"
    assert report["network"] == expected_network


def test_commands_are_checked_before_anything_starts():
    with pytest.raises(ExternalBotError, match="no executable program 'no-such-bot-here'"):
        resolve_command(["no-such-bot-here", "--fast"])
    with pytest.raises(ExternalBotError, match="absolute path, not 'bots/mine.py'"):
        resolve_command(["bots/mine.py"])
    with pytest.raises(ExternalBotError, match="a program followed by its arguments"):
        resolve_command([])
    assert resolve_command(["python3", "-V"])[1:] == ["-V"]


def test_a_program_that_never_reads_its_input_is_killed_once_the_pipe_is_full():
    process = ProgramProcess(program("deaf"), Limits(move_seconds=0.3))
    big = {"type": "act", "observation": {"padding": "x" * 300_000}, "legal_actions": ["stop"]}
    try:
        with pytest.raises(ExternalBotError, match=r"did not read its input within 0.3s \(killed\)"):
            process.send(big)
        assert process.process.returncode == -9
    finally:
        process.close()
