"""External-program bots with real programs in the real sandbox: answers, hangs, garbage, memory, CPU,
environment; forfeits carry codes, and what a program said goes to the staff's log only."""

import json
import os
import time
from pathlib import Path

import pytest

from games.core import protocol
from games.core.protocol import LocalSeats
from games.core.replay import replay
from games.core.runner import play_match
from league.core.json_input import parse_json
from league.programs.external import (
    MAX_ANSWER_BYTES,
    ExternalBotError,
    ExternalSeats,
    Limits,
    ProgramProcess,
    resolve_command,
)
from league.programs.sandbox import SYSTEM_PATHS
from league.programs.sandboxing import sandbox as worker_sandbox

PROGRAMS = Path(__file__).parents[1] / "bots" / "programs"
EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "random_bot.py"
PYTHON = "/usr/bin/python3"  # a system interpreter: the sandbox shows /usr, not the project's virtualenv

pytestmark = pytest.mark.sandbox


def program(name: str) -> list[str]:
    return [PYTHON, str(PROGRAMS / f"{name}.py")]


def play_against_random(command: list[str], limits: Limits, seed: int = 7):
    """Nacho Pile, two seats: the program in seat 0, the built-in random bot in seat 1."""
    details = {}
    with ExternalSeats(worker_sandbox()) as seats:
        program_seat = seats.seat(label="Program", command=command, limits=limits, seed=f"bot:{seed}:0")
        record = play_match("nacho_pile", 2, [program_seat, "random"], seed, forfeit_details=details)
        programs = [bot.program for _, bot in seats.bots]
        seats.finish(record["outcome"])
        logs = seats.logs(record["end"]["forfeits"], details)
    return record, programs, logs


def test_a_program_that_answers_plays_a_whole_match_that_replays():
    record, _, logs = play_against_random(program("first_legal"), Limits(move_seconds=5))

    assert record["end"] == {"reason": "normal", "forfeits": []}
    assert sorted(record["outcome"]["places"]) in ([1, 2], [1, 1])
    assert replay(record).is_terminal()
    assert [(log.seat, log.label, log.forfeit, log.detail, log.output) for log in logs] == [
        (0, "Program", "", "", "")
    ]


def test_the_example_bot_plays_the_same_match_twice():
    first, _, _ = play_against_random([PYTHON, str(EXAMPLE)], Limits(move_seconds=5), seed=11)
    second, _, _ = play_against_random([PYTHON, str(EXAMPLE)], Limits(move_seconds=5), seed=11)

    assert first["end"]["reason"] == "normal"
    assert first == second


def test_the_example_bot_plays_the_same_match_in_the_sandbox_as_on_its_authors_machine():
    """Its author runs it with the protocol's client alone (`games.core.protocol.LocalSeats`, no sandbox):
    the same seed makes the same match as in a worker's sandbox."""
    sandboxed, _, _ = play_against_random([PYTHON, str(EXAMPLE)], Limits(move_seconds=5), seed=11)
    with LocalSeats() as seats:
        mine = seats.seat(
            label="Program", command=[PYTHON, str(EXAMPLE)], limits=Limits(move_seconds=5), seed="bot:11:0"
        )
        local = play_match("nacho_pile", 2, [mine, "random"], 11)
        seats.finish(local["outcome"])

    assert sandboxed["end"] == local["end"] == {"reason": "normal", "forfeits": []}
    assert (local["events"], local["outcome"]) == (sandboxed["events"], sandboxed["outcome"])


def test_a_program_that_hangs_is_killed_and_forfeits_its_seat_with_a_timeout():
    record, programs, logs = play_against_random(
        program("hangs"), Limits(move_seconds=0.5, startup_seconds=0.5)
    )

    assert record["end"]["reason"] == "forfeit"
    assert record["end"]["forfeits"] == [
        {"seat": 0, "event": record["end"]["forfeits"][0]["event"], "reason": "timeout"}
    ]
    assert record["outcome"]["places"] == [2, 1]
    assert programs[0].process.returncode == -9
    assert logs[0].detail == (
        "gave no answer within 1 s (killed): 0.5 s a move, and 0.5 s more for the first answer (the "
        "program's start-up)"
    )
    assert replay(record).is_terminal()


def test_a_program_that_prints_garbage_forfeits_with_a_code_and_its_words_go_to_the_log():
    record, _, logs = play_against_random(program("garbage"), Limits(move_seconds=5))

    assert [f["reason"] for f in record["end"]["forfeits"]] == ["protocol_error"]
    assert "I fold" not in json.dumps(record)
    assert logs[0].forfeit == "protocol_error"
    assert logs[0].detail == "answered something that is not JSON: 'I fold!'"
    assert record["outcome"]["places"] == [2, 1]


def test_a_program_over_its_memory_limit_dies_and_forfeits_and_its_traceback_is_logged():
    record, _, logs = play_against_random(program("memory_hog"), Limits(move_seconds=5, memory_mb=200))

    assert [(f["seat"], f["reason"]) for f in record["end"]["forfeits"]] == [(0, "crashed")]
    assert logs[0].detail == "exited with status 1 before answering"
    assert logs[0].output.endswith("MemoryError\n")


def test_a_program_over_its_cpu_time_is_killed_by_the_system_and_forfeits_over_a_limit():
    record, _, logs = play_against_random(program("spins"), Limits(move_seconds=30, cpu_seconds=1))

    assert [f["reason"] for f in record["end"]["forfeits"]] == ["limit_exceeded"]
    assert logs[0].detail == "was killed by SIGXCPU (over its CPU time) before answering"


def test_the_program_sees_no_secrets_and_no_network(monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "do-not-leak")
    monkeypatch.setenv("DATABASE_URL", "postgres://postgres@127.0.0.1/league")
    process = ProgramProcess(program("reports_environment"), Limits(move_seconds=5), worker_sandbox())
    try:
        process.send({"type": "act", "observation": {}, "legal_actions": ["stop"]})
        answer = json.loads(process.read_line(60))  # returns as soon as the program answers
    finally:
        process.close()
    report = json.loads(process.output_text())

    assert answer == {"action": "stop"}
    assert report == {"variables": ["HOME", "LANG", "PATH", "PWD"], "network": "unreachable"}


def test_commands_are_checked_before_anything_starts():
    with pytest.raises(ExternalBotError, match="no executable program 'no-such-bot-here'"):
        resolve_command(["no-such-bot-here", "--fast"])
    with pytest.raises(ExternalBotError, match="absolute path, not 'bots/mine.py'"):
        resolve_command(["bots/mine.py"])
    with pytest.raises(ExternalBotError, match="a program followed by its arguments"):
        resolve_command([])
    assert resolve_command(["python3", "-V"])[1:] == ["-V"]


def test_a_program_that_never_reads_its_input_is_killed_once_the_pipe_is_full():
    process = ProgramProcess(program("deaf"), Limits(move_seconds=0.3), worker_sandbox())
    big = {"type": "act", "observation": {"padding": "x" * 300_000}, "legal_actions": ["stop"]}
    try:
        with pytest.raises(
            ExternalBotError, match=r"did not read its input within 0.3s \(killed\)"
        ) as caught:
            process.send(big)
        assert caught.value.forfeit_reason == "timeout"
        assert process.process.returncode == -9
    finally:
        process.close()


def test_only_the_system_paths_and_the_bots_own_folder_are_shown():
    folders = worker_sandbox().bot_folders(
        [PYTHON, str(PROGRAMS / "first_legal.py"), "--depth", "/usr/share"]
    )
    command = worker_sandbox().command([PYTHON, "x"], folders, seccomp_fd=9)

    assert folders == [str(PROGRAMS)]
    shown = [command[i + 2] for i, part in enumerate(command) if part in ("--ro-bind", "--symlink")]
    assert shown == [path for path in SYSTEM_PATHS if os.path.lexists(path)] + [str(PROGRAMS)]
    assert command[command.index("--tmpfs") - 2 : command.index("--tmpfs") + 2] == [
        "--size",
        str(16 << 20),
        "--tmpfs",
        "/tmp",
    ]


def test_an_answer_nested_too_deep_is_a_protocol_error_not_a_crash_of_the_worker():
    record, _, logs = play_against_random(program("deep"), Limits(move_seconds=5))

    assert [f["reason"] for f in record["end"]["forfeits"]] == ["protocol_error"]
    assert logs[0].detail.startswith('answered something that is not JSON: \'{"action": [[[[')


def test_an_answer_of_64_kib_plays_and_one_byte_more_forfeits_over_the_answers_cap():
    fits, _, fits_logs = play_against_random(program("padded") + ["65536"], Limits(move_seconds=5))
    over, programs, logs = play_against_random(program("padded") + ["65537"], Limits(move_seconds=5))

    assert MAX_ANSWER_BYTES == 65536
    assert fits["end"] == {"reason": "normal", "forfeits": []}
    assert fits_logs[0].detail == ""
    assert [(f["seat"], f["event"], f["reason"]) for f in over["end"]["forfeits"]] == [
        (0, 1, "limit_exceeded")
    ]
    assert over["outcome"]["places"] == [2, 1]
    assert logs[0].forfeit == "limit_exceeded"
    assert logs[0].detail == (
        "answered more than 65,536 bytes in one line (64 KiB, the most an answer may take)"
    )
    assert programs[0].process.returncode == -9
    assert replay(over).is_terminal()


def test_an_answer_over_the_cap_without_its_newline_forfeits_at_once_not_at_the_move_time():
    record, _, logs = play_against_random(
        program("padded") + ["70000", "endless"], Limits(move_seconds=120, startup_seconds=0)
    )  # the program waits 60 s after its bytes: only the cap ends its turn before the test's own time-out

    assert [f["reason"] for f in record["end"]["forfeits"]] == ["limit_exceeded"]
    assert logs[0].detail == (
        "answered more than 65,536 bytes in one line (64 KiB, the most an answer may take)"
    )


class SkewedClock:
    """The monotonic clock, plus the seconds a test says have passed."""

    def __init__(self):
        self.skew = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.skew


def play_with_slow_parse(monkeypatch, parse_seconds: float, limits: Limits):
    """Nacho Pile as `play_against_random` (program `first_legal`), where parsing each answer takes
    `parse_seconds` on the injected clock."""
    clock = SkewedClock()

    def slow_parse(text, **options):
        clock.skew += parse_seconds
        return parse_json(text, **options)

    monkeypatch.setattr(protocol, "parse_json", slow_parse)
    details = {}
    with ExternalSeats(worker_sandbox(), clock=clock) as seats:
        program_seat = seats.seat(
            label="Program", command=program("first_legal"), limits=limits, seed="bot:7:0"
        )
        record = play_match("nacho_pile", 2, [program_seat, "random"], 7, forfeit_details=details)
        seats.finish(record["outcome"])
        logs = seats.logs(record["end"]["forfeits"], details)
    return record, logs


def test_an_answer_slow_to_parse_is_the_bots_time_out(monkeypatch):
    # The move time is 30 s (and 30 s more to start): the program answers well within it, and each parse
    # takes 61 s on the injected clock.
    record, logs = play_with_slow_parse(monkeypatch, 61.0, Limits(move_seconds=30, startup_seconds=30))

    assert [(f["seat"], f["event"], f["reason"]) for f in record["end"]["forfeits"]] == [(0, 1, "timeout")]
    assert logs[0].detail == (
        "answered too slowly: not read within 60 s, parsing it included (killed): 30 s a move, and 30 s "
        "more for the first answer (the program's start-up)"
    )
    assert record["outcome"]["places"] == [2, 1]


def test_an_answer_parsed_within_the_move_time_plays_on(monkeypatch):
    record, logs = play_with_slow_parse(monkeypatch, 1.0, Limits(move_seconds=30, startup_seconds=30))

    assert record["end"] == {"reason": "normal", "forfeits": []}
    assert logs[0].detail == ""
