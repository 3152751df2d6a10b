"""One league match from plain data: the league's seats go straight to the runner, and the record comes out
right the first time (an external program named by its definition, a slow built-in timed by the runner)."""

import sys
from pathlib import Path

from games.core.replay import replay
from games.core.runner import play_match
from league.bots.external import Limits
from league.bots.playing import SeatBot, play_league_match

PROGRAMS = Path(__file__).parent / "programs"


def test_built_in_seats_play_the_runners_match_byte_for_byte():
    seats = [
        SeatBot(label="Careful v1", strategy="heuristic", params={"caution": 1.5}),
        SeatBot(label="Dice v1", strategy="random"),
        SeatBot(label="Dice v2", strategy="random"),
    ]

    record = play_league_match(game_id="nacho_pile", options={}, seed=31, seats=seats)

    assert record == play_match("nacho_pile", 3, [("heuristic", {"caution": 1.5}), "random", "random"], 31)


def test_a_program_is_named_by_its_definition_and_a_slow_built_in_forfeits_on_its_own_limit():
    seats = [
        SeatBot(
            label="Program v2", command=(sys.executable, str(PROGRAMS / "first_legal.py")), limits=Limits(5)
        ),
        SeatBot(
            label="Sleepy v1", strategy="sleepy", params={"seconds": 0.05}, limits=Limits(move_seconds=0.01)
        ),
        SeatBot(label="Dice v1", strategy="random"),
    ]

    record = play_league_match(game_id="nacho_pile", options={}, seed=8, seats=seats)

    assert record["seats"] == [
        {"bot": "external", "params": {"definition": "Program v2"}},
        {"bot": "sleepy", "params": {"seconds": 0.05}},
        {"bot": "random", "params": {}},
    ]
    (forfeit,) = record["end"]["forfeits"]
    assert forfeit["seat"] == 1
    assert forfeit["reason"].startswith("took ") and forfeit["reason"].endswith("s, over the 0.01s limit")
    assert record["outcome"]["places"][1] == 3
    assert replay(record).is_terminal()
