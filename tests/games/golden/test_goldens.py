"""Goldens: each checked-in playthrough and record is played again from its inputs and must come out byte for
byte the same, and each record replays to its stored outcome; a changed engine shows up as a diff, not as a
different game, and an observation that shows a seat too much shows up in a playthrough's diff."""

import json

import pytest

from games import registry
from games.chickie_nuggs.rules import ChickieNuggsState
from games.core.playthrough import apply_changes
from games.core.replay import iter_steps, replay
from tests.games.golden.goldens import (
    ALL_PLAYTHROUGH_BYTES,
    FOLDER,
    GOLDENS,
    PLAYTHROUGH_BYTES,
    PLAYTHROUGHS,
    REGENERATE,
    Golden,
    Playthrough,
    difference,
    play,
    playthrough_version,
    text_difference,
    version_mismatch,
)


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
    on_disk = {path.relative_to(FOLDER).as_posix() for path in FOLDER.glob("*/*/*.*")}
    named = {golden.path.relative_to(FOLDER).as_posix() for golden in (*GOLDENS, *PLAYTHROUGHS)}

    assert on_disk == named
    assert len(named) == len(GOLDENS) + len(PLAYTHROUGHS)


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
        "tests/games/golden/records/nacho_pile/2p-random-heuristic.json is a golden of nacho_pile version 1; "
        "the game is at version 2: regenerate it with `python -m tests.games.golden.regenerate nacho_pile`"
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


def stored_playthrough(playthrough: Playthrough) -> bytes:
    if not playthrough.path.exists():
        pytest.fail(f"{playthrough} has no file yet: write it with `{REGENERATE} {playthrough.game}`")
    return playthrough.path.read_bytes()


@pytest.mark.parametrize("playthrough", PLAYTHROUGHS, ids=str)
def test_a_playthrough_plays_again_byte_for_byte(playthrough):
    stored = stored_playthrough(playthrough)
    version = registry.get_spec(playthrough.game).version
    mismatch = version_mismatch(playthrough, {"version": playthrough_version(stored)}, version)
    if mismatch:
        pytest.fail(mismatch)

    changed = text_difference(stored, play(playthrough))

    if changed:
        pytest.fail(
            f"{playthrough} ({playthrough.command}) plays or shows differently, and {playthrough.game} is "
            f"still at the playthrough's version.\n{changed}\n"
            f"A change of the rules, encodings or observations bumps the game's version; then "
            f"`{REGENERATE} {playthrough.game}`."
        )


@pytest.mark.parametrize("playthrough", PLAYTHROUGHS, ids=str)
def test_a_playthrough_holds_every_seats_observation_after_every_event(playthrough):
    lines = stored_playthrough(playthrough).decode().splitlines()
    record = json.loads(
        play(Golden(playthrough.game, "", playthrough.bots, playthrough.seed, playthrough.options))
    )
    seen: list = []
    for step in iter_steps(record):
        header = next(index for index, line in enumerate(lines) if line.startswith(f"step {step.index} "))
        shown = [line for line in lines[header + 1 :] if line.startswith("  seen ")][: step.state.num_players]
        for seat, line in enumerate(shown):
            prefix, _, text = line.partition(": ")
            assert prefix == f"  seen {seat}"
            if step.index == 0:
                observation = json.loads(text)
            else:
                observation = apply_changes(seen[seat], [] if text == "same" else json.loads(text))
            seen[seat : seat + 1] = [observation]
        assert seen == step.observations()
    assert lines[-1].startswith(
        f"end normal: places {json.dumps(record['outcome']['places'], separators=(',', ':'))}"
    )


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_playthroughs_seat_random_players_only_at_a_games_smallest_table_a_larger_one_and_a_variant(game_id):
    mine = [playthrough for playthrough in PLAYTHROUGHS if playthrough.game == game_id]

    assert {bot for playthrough in mine for bot in playthrough.bots} == {"random"}
    assert min(playthrough.players for playthrough in mine) <= registry.get_spec(game_id).min_players
    assert len({playthrough.players for playthrough in mine}) == 2
    assert any(playthrough.options for playthrough in mine)


def test_each_playthrough_is_at_most_200_kb_and_all_at_most_2_mb():
    sizes = {str(playthrough): len(stored_playthrough(playthrough)) for playthrough in PLAYTHROUGHS}

    assert {name: size for name, size in sizes.items() if size > PLAYTHROUGH_BYTES} == {}
    assert sum(sizes.values()) <= ALL_PLAYTHROUGH_BYTES


def test_a_hidden_card_shown_to_another_seat_changes_the_playthrough(monkeypatch):
    playthrough = next(p for p in PLAYTHROUGHS if p.game == "chickie_nuggs" and p.players == 2)
    honest = ChickieNuggsState.observation

    def leaky(self, seat):
        observation = honest(self, seat)
        observation["opponent_hand"] = honest(self, 1 - seat)["hand"]  # seat 1's hidden nuggets, shown to 0
        return observation

    monkeypatch.setattr(ChickieNuggsState, "observation", leaky)

    changed = text_difference(stored_playthrough(playthrough), play(playthrough))

    assert changed is not None
    first, where, golden, now = changed.splitlines()
    assert first.startswith("first differing line: 6 ")
    assert where == "  in: step 0 start"
    assert golden.startswith("  golden:   seen 0: {")
    assert '"opponent_hand":{' in now and "opponent_hand" not in golden


def test_text_difference_names_the_first_differing_line_and_its_step():
    stored = b"playthrough toy v1\nstep 0 start\n  seen 0: {}\nstep 1 chance 3\n  seen 0: []\n"
    fresh = b"playthrough toy v1\nstep 0 start\n  seen 0: {}\nstep 1 chance 3\n  seen 0: [1]\n"

    assert text_difference(stored, fresh) == (
        "first differing line: 5 (golden has 5 lines, now 5)\n"
        "  in: step 1 chance 3\n"
        "  golden:   seen 0: []\n"
        "  now:      seen 0: [1]"
    )
    assert text_difference(stored, stored) is None
    assert playthrough_version(stored) == 1
