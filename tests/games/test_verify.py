"""Strict verification (games.core.verify): every single-value change to a record is rejected, and naming the
changed event; every untouched record is verified; seats that cannot be re-made are listed.

The mutation test plays records of every game from seeds with built-in bots and changes one value at a time:
each chance outcome to another possible one (drawn from the same state with other generators), each decision
to another legal one. The default run changes every event of a few records (one alternative each); the
`slow` run changes every event of many more records to every alternative found.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from games import registry
from games.core.bot import Bot
from games.core.errors import ReplayError
from games.core.replay import iter_steps, replay
from games.core.runner import SeatPlayer, play_match
from games.core.verify import NOT_VERIFIABLE, REJECTED, VERIFIED, BadRecord, verify

GAMES = ("chickie_nuggs", "chicken_foot", "nacho_pile", "nobody_but_us_chickens")

# Seat line-ups of built-in bots per game (cycled over the records); search on a small iteration budget.
LINEUPS = {
    "chickie_nuggs": [["heuristic", "random", "heuristic"], ["random", "heuristic"], ["heuristic"] * 4],
    "chicken_foot": [
        ["greedy", "heuristic", "random"],
        ["heuristic", "greedy"],
        ["random", "heuristic", "greedy", "heuristic"],
    ],
    "nacho_pile": [
        ["heuristic", "random", "heuristic"],
        ["random", "heuristic"],
        ["heuristic", "random", "random", "heuristic"],
    ],
    "nobody_but_us_chickens": [
        ["heuristic", "random", "heuristic"],
        ["random", "heuristic", "random", "heuristic"],
    ],
}
SEARCH = ("search", {"iterations": 8})


def record_of(game_id: str, number: int, with_search: bool = False) -> dict:
    lineup = list(LINEUPS[game_id][number % len(LINEUPS[game_id])])
    if with_search:
        lineup[0] = SEARCH
    # A JSON round trip: the record as stored and read back.
    return json.loads(json.dumps(play_match(game_id, len(lineup), lineup, seed=1000 + number)))


def alternatives(state, event, rng: random.Random, limit: int) -> list:
    """Up to `limit` other possible values for the event about to be applied to `state` (a clone)."""
    kind, payload = event
    if kind == "c":
        found, seen = [], {json.dumps(payload, sort_keys=True)}
        for _ in range(30):
            value = state.sample_chance(rng)
            key = json.dumps(value, sort_keys=True)
            if key not in seen:
                seen.add(key)
                found.append(("c", None, value))
                if len(found) >= limit:
                    break
        return found
    found = []
    for seat_text, action in payload.items():
        others = [a for a in state.legal_actions(int(seat_text)) if json.dumps(a) != json.dumps(action)]
        rng.shuffle(others)
        found.extend(("m", seat_text, other) for other in others[:limit])
    return found


def mutations(record: dict, limit: int, seed: int = 0):
    """(index, seat, changed record) for every event of `record` and up to `limit` alternatives of each."""
    rng = random.Random(seed)
    events = record["events"]
    for step in iter_steps(record):
        if step.index >= len(events):
            break
        for kind, seat, value in alternatives(step.state.clone(), events[step.index], rng, limit):
            changed = copy.deepcopy(record)
            if kind == "c":
                changed["events"][step.index][1] = value
            else:
                changed["events"][step.index][1][seat] = value
            yield step.index, None if seat is None else int(seat), changed


def legal(record: dict) -> bool:
    try:
        replay(record)
    except ReplayError:
        return False
    return True


def check_all_rejected(record: dict, limit: int) -> tuple[int, int]:
    """Assert every mutation of `record` is rejected; (rejected by value, rejected as illegal)."""
    assert verify(record).status == VERIFIED, verify(record).summary()
    by_value = by_legality = 0
    for index, seat, changed in mutations(record, limit):
        verdict = verify(changed)
        assert verdict.status == REJECTED, (index, seat, verdict.summary())
        try:
            replay(changed)
        except ReplayError:
            by_legality += 1  # the legality check catches it; strict verification says so
            assert "illegal" in verdict.reason
        else:
            by_value += 1  # legal, so only the re-made value catches it: at that very event and seat
            assert (verdict.event, verdict.seat) == (index, seat), verdict.summary()
            assert verdict.summary().startswith(f"rejected: event {index}: ")
    return by_value, by_legality


@pytest.mark.parametrize("game_id", GAMES)
def test_every_single_change_is_rejected(game_id):
    totals = [0, 0]
    for number in range(3):
        by_value, by_legality = check_all_rejected(
            record_of(game_id, number, with_search=number == 0), limit=1
        )
        totals[0] += by_value
        totals[1] += by_legality
    # Changes that stay legal exist in every game: they are what plain replay missed.
    assert totals[0] > 0
    assert totals[0] + totals[1] > 50


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_every_single_change_is_rejected_exhaustive(game_id):
    for number in range(3, 11):
        check_all_rejected(record_of(game_id, number, with_search=number % 4 == 0), limit=4)


@pytest.mark.parametrize("game_id", GAMES)
def test_untouched_records_are_verified(game_id):
    for number in range(12):
        record = record_of(game_id, number, with_search=number % 6 == 0)
        verdict = verify(record)
        assert (verdict.status, verdict.not_remade, verdict.summary()) == (VERIFIED, [], "verified")


def test_every_golden_record_is_verified():
    from tests.games.golden.goldens import GOLDENS

    for golden in GOLDENS:
        assert verify(json.loads(golden.path.read_text())).summary() == "verified", golden.name


def test_a_changed_chance_outcome_is_named():
    record = record_of("nacho_pile", 1)
    index, changed = next(
        (i, changed) for i, seat, changed in mutations(record, limit=1) if seat is None and legal(changed)
    )
    verdict = verify(changed)
    assert verdict.status == REJECTED
    assert (verdict.event, verdict.seat) == (index, None)
    assert verdict.expected == record["events"][index][1]
    assert verdict.recorded == changed["events"][index][1]
    assert verdict.summary() == (
        f"rejected: event {index}: chance: re-made {json.dumps(verdict.expected)}, recorded "
        f"{json.dumps(verdict.recorded)}"
    )


def test_an_illegal_change_is_caught_by_the_legality_check():
    record = record_of("chicken_foot", 0)
    index = next(i for i, event in enumerate(record["events"]) if event[0] == "m")
    seat = next(iter(record["events"][index][1]))
    record["events"][index][1][seat] = "no such move"
    verdict = verify(record)
    assert verdict.status == REJECTED
    assert verdict.event == index
    assert verdict.summary().startswith(f"rejected: event {index}: illegal: ")


def test_a_changed_outcome_is_rejected():
    record = record_of("nacho_pile", 0)
    record["outcome"]["places"] = list(reversed(record["outcome"]["places"]))
    verdict = verify(record)
    assert verdict.status == REJECTED
    assert "is not the outcome the events produce" in verdict.reason


def test_records_without_bot_versions_are_not_verifiable():
    record = record_of("chickie_nuggs", 0)
    for entry in record["seats"]:
        del entry["version"]
    verdict = verify(record)
    assert (verdict.status, verdict.summary()) == (NOT_VERIFIABLE, "not verifiable: no bot versions recorded")
    assert [entry["seat"] for entry in verdict.not_remade] == list(range(len(record["seats"])))


def test_an_old_record_with_a_changed_chance_outcome_is_still_rejected():
    record = record_of("nacho_pile", 0)
    for entry in record["seats"]:
        del entry["version"]
    changed = next(
        changed for _, seat, changed in mutations(record, limit=1) if seat is None and legal(changed)
    )
    assert verify(changed).status == REJECTED


class Outsider(Bot):
    """An in-process stand-in for an external program: plays its first legal action."""

    name = "outsider"

    def act(self, observation, legal_actions):
        return legal_actions[-1]


def outside_seat(definition: dict | None = None) -> SeatPlayer:
    return SeatPlayer(
        "external",
        {"definition": "Program v2"},
        make=lambda game, seat, n, options, rng: Outsider(game, seat, n, options, None, rng),
        external=definition,
    )


def test_an_external_seat_is_listed_as_not_remade_and_checked_for_legality_only():
    seats = ["heuristic", outside_seat({"definition": "Program", "version": 2}), "random"]
    record = json.loads(json.dumps(play_match("nacho_pile", 3, seats, seed=5)))
    assert record["seats"][1] == {
        "bot": "external",
        "params": {"definition": "Program v2"},
        "external": {"definition": "Program", "version": 2},
    }
    assert record["seats"][0] == {
        "bot": "heuristic",
        "params": {"caution": record["seats"][0]["params"]["caution"]},
        "version": 1,
    }
    verdict = verify(record)
    assert verdict.status == VERIFIED
    assert verdict.not_remade == [{"seat": 1, "why": "external program Program v2"}]
    # Another legal decision of the external seat passes where it is made (legality only); the re-made seats'
    # answers to it differ later. Another decision of seat 0 is rejected where it is made.
    external = [
        (i, changed) for i, seat, changed in mutations(record, limit=1) if seat == 1 and legal(changed)
    ]
    assert [index for index, _ in external] == [25]
    verdict = verify(external[0][1])
    assert (verdict.status, verdict.event, verdict.seat) == (REJECTED, 33, 0)
    index, changed = next(
        (i, changed) for i, seat, changed in mutations(record, limit=1) if seat == 0 and legal(changed)
    )
    verdict = verify(changed)
    assert (verdict.status, verdict.event, verdict.seat) == (REJECTED, index, 0)


def test_a_bot_outside_the_registry_is_not_remade():
    record = play_match("nacho_pile", 2, [outside_seat(), "random"], seed=3)
    assert record["seats"][0]["external"] == {}
    assert verify(record).not_remade == [{"seat": 0, "why": "a bot outside the registry"}]


def test_time_limited_search_and_other_versions_are_not_remade():
    record = play_match(
        "nacho_pile", 3, [("search", {"iterations": 5, "time_limit": 30}), "heuristic", "random"], seed=4
    )
    record["seats"][1]["version"] = 0
    record["seats"][2]["version"] = 7
    verdict = verify(record)
    assert verdict.status == VERIFIED
    assert verdict.not_remade == [
        {"seat": 0, "why": "time-limited search (30 s a decision): its choices depend on wall time"},
        {"seat": 1, "why": "bot heuristic version 0 is older than the installed version 1"},
        {"seat": 2, "why": "bot random version 7 is newer than the installed version 1"},
    ]


def test_forfeits_are_remade(toy):
    record = play_match("toy_high_hand", 3, ["raises", "illegal", "keep_high"], seed=2)
    assert {f["reason"] for f in record["end"]["forfeits"]} == {"crashed", "illegal_action"}
    assert verify(record).status == VERIFIED
    # The substitute's decisions after a forfeit are re-made: a change is rejected.
    for index, seat, changed in mutations(record, limit=1):
        assert verify(changed).status == REJECTED, (index, seat)
    # A forfeit the bot would not make again is rejected.
    record = play_match("toy_high_hand", 2, ["keep_high", "keep_high"], seed=2)
    index = next(i for i, event in enumerate(record["events"]) if event[0] == "m" and "0" in event[1])
    record["end"] = {"reason": "forfeit", "forfeits": [{"seat": 0, "event": index, "reason": "crashed"}]}
    record["outcome"]["places"] = [2, 1]
    verdict = verify(record)
    assert verdict.status == REJECTED
    assert verdict.summary() == (
        f"rejected: event {index}: seat 0 (keep_high): the record says the bot forfeited (crashed); re-made, "
        "it plays a legal action"
    )


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ([], "not a match record: a record is a JSON object"),
        ({"format": 1}, "not a match record: it has no 'game'"),
        (
            {**{"format": 1, "game": "nacho_pile", "version": 1, "options": {}, "seed": "x"}},
            "not a match record: its 'seed' has the wrong type",
        ),
    ],
)
def test_a_value_that_is_not_a_record_is_bad_input(value, message):
    with pytest.raises(BadRecord) as caught:
        verify(value)
    assert str(caught.value) == message


def test_another_game_version_is_not_verifiable():
    record = record_of("nacho_pile", 0)
    record["version"] = 99
    verdict = verify(record)
    assert (
        verdict.summary()
        == "not verifiable: the record is of Nacho Pile version 99; this engine plays version 1"
    )


def test_every_registry_bot_sets_its_version_in_its_own_class_body():
    for game_id in GAMES:
        for cls in registry.bots_for(game_id).values():
            if not cls.__module__.startswith("games."):
                continue  # a test's own bot (tests/league/bots/faulty_bots.py)
            assert isinstance(cls.__dict__.get("version"), int), cls


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    from games.cli import main

    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_the_command_line_exit_codes(capsys, tmp_path):
    record = record_of("nacho_pile", 0)
    path = tmp_path / "record.json"

    path.write_text(json.dumps(record))
    status, out, err = run_cli(capsys, "replay", "--strict", str(path))
    assert (status, err) == (0, "")
    assert out.startswith("verified\nnacho_pile v1, seed 1000: ")

    index, seat, changed = next(m for m in mutations(record, limit=1) if m[1] is not None and legal(m[2]))
    path.write_text(json.dumps(changed))
    status, out, err = run_cli(capsys, "replay", "--strict", str(path))
    assert (status, out) == (1, "")
    assert err.startswith(f"rejected: event {index}: seat {seat} (")
    # Plain replay (legality only) still accepts it: the change is a legal one.
    assert run_cli(capsys, "replay", str(path))[0] == 0

    old = copy.deepcopy(record)
    for entry in old["seats"]:
        del entry["version"]
    path.write_text(json.dumps(old))
    status, out, err = run_cli(capsys, "replay", "--strict", str(path))
    assert status == 3
    assert out.startswith(
        "not verifiable: no bot versions recorded\n  seat 0 not re-made (no bot versions recorded)"
    )

    path.write_text("[1, 2]")
    assert run_cli(capsys, "replay", "--strict", str(path)) == (
        2,
        "",
        "python -m games: error: not a match record: a record is a JSON object\n",
    )
    path.write_text("{not json")
    status, _, err = run_cli(capsys, "replay", "--strict", str(path))
    assert status == 2 and err.startswith(f"python -m games: error: {path} is not JSON: ")
    status, _, err = run_cli(capsys, "replay", "--strict", str(tmp_path / "missing.json"))
    assert (status, err) == (
        2,
        f"python -m games: error: cannot read {tmp_path / 'missing.json'}: No such file or directory\n",
    )
    path.write_text(json.dumps({**record, "game": "chess"}))
    status, _, err = run_cli(capsys, "replay", "--strict", str(path))
    assert status == 2 and err.startswith("python -m games: error: unknown game 'chess'")


def test_the_command_line_lists_seats_not_remade(capsys, tmp_path):
    record = play_match("nacho_pile", 2, [("search", {"iterations": 3, "time_limit": 5}), "random"], seed=2)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    status, out, _ = run_cli(capsys, "replay", "--strict", str(path))
    assert status == 0
    assert out.splitlines()[:2] == [
        "verified",
        "  seat 0 not re-made (time-limited search (5 s a decision): its choices depend on wall time): its "
        "decisions checked for legality only",
    ]
