"""One league match from plain data: the league's seats go straight to the runner, and the record comes out
right the first time (an external program named by its definition, a slow built-in timed by the runner);
the record holds forfeit codes, the logs beside it the words."""

from pathlib import Path

import pytest

from games.core.replay import replay
from games.core.runner import play_match
from games.core.verify import verify
from league.bots.playing import SeatBot, play_league_match
from league.programs.external import Limits, SeatLog
from league.programs.sandboxing import sandbox

PROGRAMS = Path(__file__).parent / "programs"


def test_built_in_seats_play_the_runners_match_byte_for_byte():
    seats = [
        SeatBot(label="Careful v1", strategy="heuristic", params={"caution": 1.5}),
        SeatBot(label="Dice v1", strategy="random"),
        SeatBot(label="Dice v2", strategy="random"),
    ]

    played = play_league_match(game_id="nacho_pile", options={}, seed=31, seats=seats)

    assert played.record == play_match(
        "nacho_pile", 3, [("heuristic", {"caution": 1.5}), "random", "random"], 31
    )
    assert played.logs == []


def test_a_built_in_bot_over_its_limit_forfeits_with_a_code_and_its_time_goes_to_the_log_only():
    seats = [
        SeatBot(
            label="Sleepy v1", strategy="sleepy", params={"seconds": 0.05}, limits=Limits(move_seconds=0.01)
        ),
        SeatBot(label="Dice v1", strategy="random"),
    ]

    played = play_league_match(game_id="nacho_pile", options={}, seed=8, seats=seats)

    (forfeit,) = played.record["end"]["forfeits"]
    assert (forfeit["seat"], forfeit["reason"]) == (0, "timeout")
    (log,) = played.logs
    assert (log.seat, log.label, log.forfeit, log.output) == (0, "Sleepy v1", "timeout", "")
    assert log.detail.startswith("At decision 1, the bot took ") and log.detail.endswith(
        "s, over the 0.01s limit"
    )


def test_an_external_program_plays_only_in_a_sandbox():
    seats = [
        SeatBot(label="Program", command=("/usr/bin/python3", "x.py")),
        SeatBot(label="Dice", strategy="random"),
    ]

    with pytest.raises(ValueError, match="external programs play only in a sandbox"):
        play_league_match(game_id="nacho_pile", options={}, seed=8, seats=seats)


@pytest.mark.sandbox
def test_a_program_is_named_by_its_definition_and_a_slow_built_in_forfeits_on_its_own_limit():
    seats = [
        SeatBot(
            label="Program v2",
            command=("/usr/bin/python3", str(PROGRAMS / "first_legal.py")),
            limits=Limits(5),
            definition="Program",
            version=2,
        ),
        SeatBot(
            label="Sleepy v1", strategy="sleepy", params={"seconds": 0.05}, limits=Limits(move_seconds=0.01)
        ),
        SeatBot(label="Dice v1", strategy="random"),
    ]

    played = play_league_match(game_id="nacho_pile", options={}, seed=8, seats=seats, sandbox=sandbox())
    record = played.record

    assert record["seats"] == [
        {
            "bot": "external",
            "params": {"definition": "Program v2"},
            "external": {"definition": "Program", "version": 2},
        },
        {"bot": "sleepy", "params": {"seconds": 0.05}, "version": 1},
        {"bot": "random", "params": {}, "version": 1},
    ]
    verdict = verify(record)  # the program's seat cannot be re-made; the others are, forfeit and all
    assert verdict.summary() == "verified"
    assert verdict.not_remade == [{"seat": 0, "why": "external program Program v2"}]
    assert verdict.notes == [
        f"seat 1's time-out at event {record['end']['forfeits'][0]['event']} is wall time: taken as recorded"
    ]
    assert [(f["seat"], f["reason"]) for f in record["end"]["forfeits"]] == [(1, "timeout")]
    assert record["outcome"]["places"][1] == 3
    assert replay(record).is_terminal()
    assert [log.seat for log in played.logs] == [0, 1]
    assert played.logs[0] == SeatLog(seat=0, label="Program v2")
