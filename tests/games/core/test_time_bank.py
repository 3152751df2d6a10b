"""The time bank: an answer over its allowance draws the excess from the program's bank for the match; an
answer that would overdraw it is the seat's `timeout` (the record's existing code)."""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence

import pytest

from games import registry
from games.cli import main
from games.core.protocol import ExternalBotError, Limits, ProtocolBot, bank_text


class ScriptedPipes:
    """A program whose answers take the given seconds on a clock of its own (no process, no real time)."""

    def __init__(self, durations: Sequence[float]):
        self.durations = list(durations)
        self.now = 0.0
        self.closed = False
        self.asked: list[float] = []

    def clock(self) -> float:
        return self.now

    def send(self, message: object) -> None:
        pass

    def read_answer(self, seconds: float) -> str:
        self.asked.append(seconds)
        took = self.durations.pop(0)
        if took > seconds:
            self.now += seconds
            raise ExternalBotError("timeout", f"no answer within {seconds:g}s (killed)")
        self.now += took
        return "stop"


def bot_with(durations: Sequence[float], bank: float) -> tuple[ProtocolBot, ScriptedPipes]:
    pipes = ScriptedPipes(durations)
    game = registry.get_game("nacho_pile")
    limits = Limits(move_seconds=1, startup_seconds=5, time_bank_seconds=bank)
    bot = ProtocolBot(game, 0, 2, {}, random.Random(1), limits, "bot:1:0", lambda: pipes)  # type: ignore[arg-type,return-value]
    return bot, pipes


def test_answers_over_the_move_time_draw_on_the_bank_until_it_is_empty():
    # The first answer may take the start-up allowance too; then 1 s each, with what the bank holds on top.
    bot, pipes = bot_with([5.5, 1.5, 1.0, 2.0, 1.6], bank=2.0)
    for _ in range(4):
        assert bot.act({}, ["draw", "stop"]) == "stop"
    assert bot.bank_after == [2.0, 1.5, 1.5, 0.5]
    with pytest.raises(ExternalBotError) as raised:
        bot.act({}, ["draw", "stop"])
    assert raised.value.forfeit_reason == "timeout"
    assert str(raised.value) == (
        "gave no answer within 1 s and the 0.500 s left in its time bank (killed): 1 s a move, and 5 s more "
        "for the first answer (the program's start-up)"
    )
    assert pipes.asked == [8.0, 3.0, 2.5, 2.5, 1.5]
    assert bot.bank_after == [2.0, 1.5, 1.5, 0.5, 0.0]
    assert bank_text(2.0, bot.bank_after) == (
        "time bank of 2s, drawn on at decision 2 (1.500s left), decision 4 (0.500s left), "
        "decision 5 (0.000s left); 0.000s left after 5 decisions"
    )


def test_without_a_bank_an_answer_over_the_move_time_is_a_timeout_as_before():
    bot, pipes = bot_with([5.5, 1.2], bank=0)
    assert bot.act({}, ["draw", "stop"]) == "stop"
    with pytest.raises(
        ExternalBotError,
        match=r"^no answer within 1s \(killed\): 1 s a move, and 5 s more for the first answer "
        r"\(the program's start-up\)$",
    ):
        bot.act({}, ["draw", "stop"])
    assert pipes.asked == [6.0, 1.0]
    assert bank_text(0, bot.bank_after) == ""


def test_an_untouched_bank_says_so():
    assert bank_text(10, [10.0, 10.0, 10.0]) == "time bank of 10s, untouched over 3 decisions"


def test_the_local_runner_forfeits_a_program_that_empties_its_bank_with_the_timeout_code(capsys, tmp_path):
    slow = tmp_path / "slow.py"
    slow.write_text(
        "import json, sys, time\n"
        "for line in sys.stdin:\n"
        "    message = json.loads(line)\n"
        "    if message['type'] == 'act':\n"
        "        time.sleep(0.3)\n"
        "        print(json.dumps({'action': message['legal_actions'][0]}), flush=True)\n"
    )
    status = main(
        ["play", "nacho_pile", "--seat", f"cmd:{sys.executable} {slow}", "--seat", "random", "--seed", "2",
         "--move-seconds", "0.1", "--startup-seconds", "0", "--time-bank", "0.5"]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert status == 0
    forfeit = next(line for line in out.splitlines() if "forfeited" in line)
    assert forfeit.startswith("  seat 0 forfeited at event ")
    assert ": timeout (gave no answer within 0.1 s and the " in forfeit
    assert forfeit.endswith(
        "s left in its time bank (killed): 0.1 s a move, and 0 s more for the first answer "
        "(the program's start-up))"
    )
    assert "seat 0's time bank of 0.5s, drawn on at decision 1 (" in out
