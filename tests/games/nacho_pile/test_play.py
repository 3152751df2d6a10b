"""Nacho Pile through the runner, the arena and the CLI: termination, bot strength, the heuristic's choices."""

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
        "never_stops", make=lambda game, seat, num_players, options, rng: NeverStops(
            game, seat, num_players, options, None, rng
        )
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
