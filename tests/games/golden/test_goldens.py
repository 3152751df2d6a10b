"""Golden playthroughs: each checked-in record is played again from its inputs and must come out byte for byte
the same, and replays to its stored outcome; a changed engine shows up as a diff, not as a different game."""

import json

import pytest

from games import registry
from games.core.replay import replay
from tests.games.golden.goldens import FOLDER, GOLDENS, REGENERATE, Golden, difference, play, version_mismatch


def stored_bytes(golden: Golden) -> bytes:
    if not golden.path.exists():
        pytest.fail(f"{golden} has no record yet: write it with `{REGENERATE} {golden.game}`")
    return golden.path.read_bytes()


@pytest.mark.parametrize("golden", GOLDENS, ids=str)
def test_a_golden_plays_again_byte_for_byte(golden):
    stored = stored_bytes(golden)
    mismatch = version_mismatch(golden, json.loads(stored), registry.get_spec(golden.game).version)
    if mismatch:
        pytest.fail(mismatch)

    changed = difference(stored, play(golden))

    if changed:
        pytest.fail(
            f"{golden} ({golden.command}) plays differently, and {golden.game} is still at the golden's "
            f"version.\n{changed}\n"
            f"A change of the rules or encodings bumps the game's version; then `{REGENERATE} {golden.game}`."
        )


@pytest.mark.parametrize("golden", GOLDENS, ids=str)
def test_a_golden_replays_to_its_stored_outcome(golden):
    record = json.loads(stored_bytes(golden))

    state = replay(record)

    assert state.is_terminal()
    assert state.outcome().to_json() == record["outcome"]
    assert record["end"] == {"reason": "normal", "forfeits": []}
    assert len(record["seats"]) == golden.players


def test_every_golden_file_is_named_by_a_golden():
    on_disk = {path.relative_to(FOLDER).as_posix() for path in FOLDER.glob("*/*.json")}
    named = {golden.path.relative_to(FOLDER).as_posix() for golden in GOLDENS}

    assert on_disk == named
    assert len(named) == len(GOLDENS)


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_the_goldens_of_a_game_cover_its_player_counts_variants_and_bot_kinds(game_id):
    spec = registry.get_spec(game_id)
    goldens = [golden for golden in GOLDENS if golden.game == game_id]

    assert {golden.players for golden in goldens} >= {spec.min_players, spec.max_players}
    assert any(golden.options for golden in goldens)
    assert {bot.split(":")[0] for golden in goldens for bot in golden.bots} >= {
        "random",
        "heuristic",
        "search",
    }


@pytest.mark.parametrize(
    "golden", [g for g in GOLDENS if any(b.startswith("search") for b in g.bots)], ids=str
)
def test_search_bots_of_the_goldens_play_on_an_iteration_budget_alone(golden):
    seats = json.loads(stored_bytes(golden))["seats"]
    search = [seat["params"] for seat in seats if seat["bot"] == "search"]

    assert search
    assert all(params["time_limit"] == 0 and params["iterations"] <= 50 for params in search)


RECORD = {
    "game": "toy",
    "version": 1,
    "events": [["c", [1, 2]], ["m", {"0": "draw"}], ["m", {"0": "stop"}]],
    "outcome": {"places": [1, 2]},
}


def encoded(record: dict) -> bytes:
    return json.dumps(record, sort_keys=True, separators=(",", ":")).encode()


def test_difference_names_the_first_differing_event_and_the_fields_that_follow_from_it():
    fresh = {**RECORD, "events": [["c", [1, 2]], ["m", {"0": "stop"}]], "outcome": {"places": [2, 1]}}

    assert difference(encoded(RECORD), encoded(fresh)) == (
        "first differing event: #1 (golden has 3 events, now 2)\n"
        '  before it, both: ["c",[1,2]]\n'
        '  golden: ["m",{"0":"draw"}]\n'
        '  now:    ["m",{"0":"stop"}]\n'
        'outcome: golden {"places":[1,2]}, now {"places":[2,1]}'
    )


def test_difference_of_a_record_that_stops_early_and_of_equal_records():
    fresh = {**RECORD, "events": RECORD["events"][:2]}

    assert difference(encoded(RECORD), encoded(fresh)) == (
        "first differing event: #2 (golden has 3 events, now 2)\n"
        '  before it, both: ["m",{"0":"draw"}]\n'
        '  golden: ["m",{"0":"stop"}]\n'
        "  now:    (no more events)"
    )
    assert difference(encoded(RECORD), encoded(RECORD)) is None


def test_difference_of_the_same_record_in_other_bytes_names_the_first_differing_byte():
    spaced = json.dumps(RECORD, sort_keys=True).encode()

    assert difference(encoded(RECORD), spaced) == (
        "the same record encoded differently: first differing byte at 10: "
        'golden b\'[["c",[1,2]],["m",{"0":"draw"}],["m",{"0\', '
        'now b\' [["c", [1, 2]], ["m", {"0": "draw"}], [\''
    )


def test_a_golden_of_another_version_says_which_and_how_to_regenerate():
    golden = Golden("nacho_pile", "2p-random-heuristic", ("random", "heuristic"), seed=1)

    assert version_mismatch(golden, {"version": 1}, 2) == (
        "tests/games/golden/nacho_pile/2p-random-heuristic.json is a golden of nacho_pile version 1; the "
        "game is at version 2: regenerate it with `python -m tests.games.golden.regenerate nacho_pile`"
    )
    assert version_mismatch(golden, {"version": 2}, 2) is None


def test_a_golden_names_the_command_that_prints_it():
    golden = Golden(
        "chicken_foot",
        "x",
        ("greedy", "search:iterations=20;c=0.5"),
        seed=7,
        options=(("set", "double_six"),),
    )

    assert golden.command == (
        "python -m games play chicken_foot --players 2 --bots 'greedy,search:iterations=20;c=0.5' --seed 7"
        " --option set=double_six --json"
    )
