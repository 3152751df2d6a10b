"""Nacho Pile through the runner, the arena and the CLI: termination, bot strength,
the heuristic's choices."""

import json
import random

from games.cli import main
from games.core.arena import play_series
from games.core.bot import Bot
from games.core.replay import replay
from games.core.runner import SeatPlayer, play_match
from games.nacho_pile import GAME, NachoPileState
from games.nacho_pile.bots import HeuristicBot


class NeverStops(Bot):
    """Draws whenever it may: every turn busts, so the bag never runs down."""

    name = "never_stops"

    def act(self, observation, legal_actions):
        return "draw" if "draw" in legal_actions else legal_actions[0]


def test_a_table_that_never_stops_ends_at_the_turn_cap_and_the_record_says_so():
    never_stops = SeatPlayer(
        "never_stops",
        make=lambda game, seat, num_players, options, rng: NeverStops(
            game, seat, num_players, options, None, rng
        ),
    )
    record = play_match("nacho_pile", 3, [never_stops] * 3, seed=2)
    assert record["end"] == {"reason": "turn_cap", "forfeits": []}
    assert len(record["events"]) == GAME.max_events == 20_000
    assert record["outcome"] == {"places": [1, 1, 1], "scores": [0, 0, 0]}
    assert replay(json.loads(json.dumps(record))).outcome().to_json() == record["outcome"]


def test_the_heuristic_bot_beats_random_at_four_seats():
    series = play_series("nacho_pile", ["heuristic", "random", "random", "random"], 4, games=300, seed=1)
    assert series.turn_caps == 0
    assert series.lines["heuristic"].wins_low > 0.25


def heuristic_choice(state, seat=0):
    bot = HeuristicBot(GAME, seat, state.num_players, state.options, None, random.Random(0))
    return bot.act(state.observation(seat), state.legal_actions(seat))


def test_the_heuristic_stops_when_a_bust_is_likely_and_draws_when_a_big_pile_is_in_reach():
    assert heuristic_choice(NachoPileState.position(4, drawn=[1, 2, 3, 4, 5, 6])) == "stop"
    assert heuristic_choice(NachoPileState.position(4, drawn=[1, 2, 3, "steal"])) == "stop"
    assert heuristic_choice(NachoPileState.position(4, drawn=[1])) == "draw"
    assert heuristic_choice(NachoPileState.position(4, drawn=[1, 2], fronts={1: {5: 4}, 2: {6: 4}})) == "draw"


def test_the_heuristic_spends_its_wild_and_specials_on_the_biggest_piles():
    wild = NachoPileState.position(4, drawn=[2, "W"], fronts={1: {5: 3}, 2: {6: 1}})
    wild.apply({0: "stop"})
    assert heuristic_choice(wild) == 5
    specials = NachoPileState.position(
        4, drawn=[3, "steal", "remove"], fronts={1: {5: 2}, 2: {6: 4}, 3: {1: 1}}
    )
    specials.apply({0: "stop"})
    assert heuristic_choice(specials) == ["steal", 2, 6]
    specials.apply({0: ["steal", 2, 6]})
    assert heuristic_choice(specials) == ["remove", 1, 5]


def test_the_cli_plays_nacho_pile(capsys):
    argv = ["play", "nacho_pile", "--players", "4", "--bots", "heuristic,random,random,random", "--seed", "3"]
    assert main([*argv, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record == play_match("nacho_pile", 4, ["heuristic", "random", "random", "random"], 3)
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("  chance: draws ")
    assert "  seat 0 (heuristic): " in out
    assert f"nacho_pile v1, seed 3: {len(record['events'])} events, ended normal" in out


def test_the_heuristic_decides_the_same_from_the_state_as_from_its_observation():
    # A search's heuristic rollouts ask `act_in_state`, which reads the state's counts instead of an
    # observation; every draw-or-stop of 60 games at 2-6 seats, with both Special variants, must agree.
    decisions = {"draw": 0, "stop": 0}
    for seed in range(60):
        players = 2 + seed % 5
        options = {"specials_all_identical": seed % 2 == 1, "optional_specials": seed % 3 == 0}
        state = GAME.start(players, options, seed)
        rng = random.Random(seed)
        bots = [
            HeuristicBot(GAME, s, players, state.options, {"caution": 0.5 + seed % 4 / 2}, rng)
            for s in range(players)
        ]
        while not state.is_terminal():
            if state.is_chance():
                state.apply_chance(state.sample_chance(rng))
                continue
            seat = state.current
            legal = state.legal_actions(seat)
            expected = bots[seat].act(state.observation(seat), legal)
            assert bots[seat].act_in_state(state, seat, legal) == expected
            if legal == ["draw", "stop"]:
                decisions[expected] += 1
            # Random play mixes in busts and long turns the heuristic alone would not reach.
            state.apply({seat: expected if rng.random() < 0.5 else legal[rng.randrange(len(legal))]})
    assert decisions["draw"] > 1000 and decisions["stop"] > 500
