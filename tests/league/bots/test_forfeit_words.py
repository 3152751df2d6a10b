"""What an author reads of a forfeit: in words, at which of their program's decisions, with the time allowed
stated (a move's limit, the start-up's allowance and what was left of its time bank), never an internal
class name."""

import pytest

from league.bots.playing import SeatBot, forfeit_decision, play_league_match
from league.bots.services.work import seat_bot
from league.bots.uploads import bot_check, bot_upload
from league.programs.programs import seats_ready
from league.programs.sandboxing import sandbox
from tests.factories import UserFactory

EXITS_AT_17 = b"""import json, sys
decisions = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        decisions += 1
        if decisions == 17:
            sys.exit(1)
        print(json.dumps({"action": message["legal_actions"][0]}), flush=True)
"""

NEVER_FLUSHES = b"""import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        print(json.dumps({"action": message["legal_actions"][0]}))
"""


def test_the_decision_of_a_forfeit_counts_its_seats_decisions_only():
    events = [["c", 5], ["m", {"0": "a"}], ["m", {"1": "b"}], ["m", {"0": "c", "1": "d"}], ["c", 1]]
    assert forfeit_decision(events, 0, 5) == 3
    assert forfeit_decision(events, 1, 3) == 2
    assert forfeit_decision(events, 1, 0) == 1


def play_upload(data: bytes, *, seed: int = 3):
    bot = bot_upload(by=UserFactory(), game_id="nacho_pile", name="Quitter", data=data)
    assert bot_check(bot_id=bot.pk) == "ready"
    bot.refresh_from_db()
    seat = seats_ready([seat_bot(bot)])[0]
    return play_league_match(
        game_id="nacho_pile",
        options={},
        seed=seed,
        seats=[SeatBot(label="Dice", strategy="random"), seat],
        sandbox=sandbox(),
    )


@pytest.mark.sandbox
@pytest.mark.django_db
def test_a_program_that_exits_with_status_1_at_decision_17_is_told_so_in_words():
    played = play_upload(EXITS_AT_17)
    assert [(f["seat"], f["reason"]) for f in played.record["end"]["forfeits"]] == [(1, "crashed")]
    (log,) = [log for log in played.logs if log.seat == 1]
    assert log.detail == "At decision 17, your program exited with status 1 before answering"


@pytest.mark.sandbox
@pytest.mark.django_db
def test_a_program_that_never_flushes_is_told_the_move_limit_the_start_up_allowance_and_its_time_bank():
    played = play_upload(NEVER_FLUSHES)
    assert [(f["seat"], f["reason"]) for f in played.record["end"]["forfeits"]] == [(1, "timeout")]
    (log,) = [log for log in played.logs if log.seat == 1]
    assert log.detail == (
        "At decision 1, your program gave no answer within 6 s and the 10.000 s left in its time bank "
        "(killed): 1 s a move, and 5 s more for the first answer (the program's start-up)"
    )
