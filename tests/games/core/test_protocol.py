"""The bot protocol's client on its own, as an author runs it on their machine: a program started as a plain
child process (no sandbox) plays through the very code the league's workers use (`games.core.protocol`)."""

import sys
from pathlib import Path

from games.core.protocol import Limits, LocalSeats
from games.core.replay import replay
from games.core.runner import bot_seed, play_match

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "random_bot.py"
LIMITS = Limits(move_seconds=10, startup_seconds=10)


def play_locally(command: list[str], seed: int = 7):
    """Nacho Pile, two seats: the program in seat 0, the built-in random bot in seat 1."""
    details: dict[int, str] = {}
    with LocalSeats() as seats:
        mine = seats.seat(label="mine", command=command, limits=LIMITS, seed=bot_seed(seed, 0))
        record = play_match("nacho_pile", 2, [mine, "random"], seed, forfeit_details=details)
        seats.finish(record["outcome"])
    return record, details


def test_the_example_bot_plays_a_whole_match_locally_and_the_record_replays():
    record, details = play_locally([sys.executable, str(EXAMPLE)])

    assert record["end"] == {"reason": "normal", "forfeits": []}
    assert details == {}
    assert record["seats"][0] == {
        "bot": "external",
        "params": {"definition": "mine"},
        "external": {"definition": "mine"},
    }
    assert replay(record).is_terminal()
    again, _ = play_locally([sys.executable, str(EXAMPLE)])
    assert again == record


def test_an_answer_that_is_not_json_forfeits_the_seat_with_the_protocols_words(tmp_path):
    garbage = tmp_path / "garbage.py"
    garbage.write_text("import sys\nfor line in sys.stdin:\n    print('hello', flush=True)\n")

    record, details = play_locally([sys.executable, str(garbage)])

    assert [(f["seat"], f["event"], f["reason"]) for f in record["end"]["forfeits"]] == [
        (0, 1, "protocol_error")
    ]
    assert details == {0: "answered something that is not JSON: 'hello'"}
    assert record["outcome"]["places"] == [2, 1]
