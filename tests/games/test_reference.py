"""Each game's reference for bot authors (games/<game>/reference.py, shown on the site's docs): it names every
key its observation has, at every decision of whole matches of every table size, and its example is the very
messages the protocol's client sends a program in seat 0."""

import json
import random
import sys
import textwrap

import pytest

from games import registry
from games.core.protocol import Limits, LocalSeats
from games.core.reference import decisions
from games.core.runner import bot_seed, play_match

GAMES = registry.game_ids()


def test_every_game_has_a_reference():
    assert GAMES == ["nacho_pile", "nobody_but_us_chickens", "chicken_foot", "chickie_nuggs"]
    for game_id in GAMES:
        reference = registry.reference(game_id)
        assert reference is not None, game_id
        names = [entry.name for entry in reference.observation]
        assert len(names) == len(set(names)), game_id
        assert reference.actions and reference.summary and reference.decisions


@pytest.mark.parametrize("game_id", GAMES)
def test_the_reference_names_every_key_of_every_observation(game_id):
    spec = registry.get_spec(game_id)
    described = {entry.name for entry in registry.reference(game_id).observation}
    low = spec.min_players if game_id != "nobody_but_us_chickens" else 3
    for players in sorted({low, spec.max_players}):
        for seed in (1, 2):
            state = registry.get_game(game_id).start(players, {}, seed)
            rng = random.Random(seed)
            seen = 0
            while not state.is_terminal() and seen < 400:
                if state.is_chance():
                    state.apply_chance(state.sample_chance(rng))
                    continue
                for seat in range(players):
                    assert set(state.observation(seat)) == described, (game_id, players, seed, seat)
                state.apply({seat: rng.choice(state.legal_actions(seat)) for seat in state.deciders()})
                seen += 1
            assert set(state.observation(0)) == described


@pytest.mark.parametrize("game_id", GAMES)
def test_the_example_is_what_a_program_in_seat_0_is_sent(game_id, tmp_path):
    """A program that writes down the messages it gets, in seat 0 of the local runner's match with every other
    seat `random`, gets the example's `start` and first `act`, byte for byte as JSON."""
    players = registry.reference(game_id).example_players
    example = decisions(game_id, num_players=players, seed=7, picks=(1,))
    script = tmp_path / "bot.py"
    script.write_text(
        textwrap.dedent(
            """
            import json, sys
            with open(sys.argv[1], "w") as out:
                for line in sys.stdin:
                    message = json.loads(line)
                    out.write(line)
                    if message["type"] == "act":
                        print(json.dumps({"action": message["legal_actions"][0]}), flush=True)
                    elif message["type"] == "end":
                        break
            """
        )
    )
    heard = tmp_path / "heard.jsonl"
    with LocalSeats() as seats:
        mine = seats.seat(
            label="mine",
            command=[sys.executable, str(script), str(heard)],
            limits=Limits(move_seconds=5),
            seed=bot_seed(7, 0),
        )
        record = play_match(game_id, players, [mine] + ["random"] * (players - 1), 7)
        seats.finish(record["outcome"])
    assert record["end"]["forfeits"] == []
    messages = [json.loads(line) for line in heard.read_text().splitlines()]
    assert messages[0] == example.start
    assert messages[1] == example.decisions[0].act
    assert example.decisions[0].number == 1


def test_a_later_pick_past_the_last_decision_is_the_last():
    example = decisions("nacho_pile", num_players=2, seed=3, picks=(1, 10_000))
    assert [decision.number for decision in example.decisions] == [1, example.total_decisions]
    assert example.decisions[1].answer == {"action": example.decisions[1].act["legal_actions"][0]}
