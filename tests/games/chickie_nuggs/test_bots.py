"""The Chickie Nuggs heuristic bot: its choices in hand-built positions, and its strength against `random`."""

import random

import pytest

from games.chickie_nuggs import GAME, HeuristicBot
from games.chickie_nuggs.rules import ChickieNuggsState
from games.cli import main
from games.core.arena import play_series


def heuristic_choice(state):
    (seat,) = state.deciders()
    bot = HeuristicBot(GAME, seat, state.num_players, state.options, None, random.Random(0))
    return bot.act(state.observation(seat), state.legal_actions(seat))


def act(state, action):
    (seat,) = state.deciders()
    state.apply({seat: action})


def test_it_places_its_best_nugget():
    state = ChickieNuggsState.position([{"nugget1": 1, "nugget2": 1, "bbq": 1}, {"bbq": 1}], ["nugget1"] * 3)
    assert heuristic_choice(state) == "place:nugget2"


def test_it_prefers_a_sauce_to_a_nugget_worth_no_more():
    hands = [{"nugget1": 1, "bbq": 1, "incognuggo": 1}, {"bbq": 1}]
    state = ChickieNuggsState.position(hands, ["nugget1"] * 3)
    assert heuristic_choice(state) == "place:bbq"
    state = ChickieNuggsState.position(hands, ["nugget1"] * 3, options={"sauce_value_bbq": 0})
    assert heuristic_choice(state) == "place:nugget1"


def test_it_burns_the_leaders_best_nugget():
    state = ChickieNuggsState.position(
        [{"burnt_nugget": 1, "nugget1": 1}, {"bbq": 1}, {"bbq": 1}],
        ["nugget1"] * 3,
        trays=[[], [2, 2, 1], [4, 3, 1, 1]],
    )
    assert heuristic_choice(state) == "burn:2:0"


def test_it_keeps_dropped_nugget_for_a_gimme_on_a_hand_with_nuggets():
    for target_hand, answer in (
        ({"dropped_nugget": 1, "nugget3": 1}, "dropped_nugget"),
        ({"dropped_nugget": 2}, "decline"),
    ):
        state = ChickieNuggsState.position([{"buffalo": 1}, target_hand], ["nugget1"] * 3)
        act(state, "gimme:1")
        assert heuristic_choice(state) == answer


def test_it_aims_gimme_at_the_hand_most_likely_to_hold_nuggets():
    hands = [{"buffalo": 2, "nugget1": 1}, {"bbq": 2, "ranch": 1}, {"nugget2": 1, "bbq": 1}]
    state = ChickieNuggsState.position(hands, ["nugget1"] * 3, rest_of_deck=True)
    act(state, "gimme:1")
    act(state, "decline")
    state.apply_chance("none")  # everyone now knows seat 1 holds no nugget
    assert heuristic_choice(state) == "gimme:2"


def test_it_answers_dropped_nugget_with_five_second_rule():
    state = ChickieNuggsState.position(
        [{"buffalo": 1, "five_second_rule": 1}, {"dropped_nugget": 1, "nugget4": 1}], ["nugget1"] * 3
    )
    act(state, "gimme:1")
    act(state, "dropped_nugget")
    assert heuristic_choice(state) == "five_second_rule"


@pytest.mark.parametrize("num_players", [3, 4])
def test_heuristic_beats_random(num_players):
    bots = ["heuristic"] + ["random"] * (num_players - 1)
    result = play_series("chickie_nuggs", bots, num_players, games=300, seed=11)
    assert result.lines["heuristic"].wins_low > 1 / num_players


def test_play_from_the_command_line(capsys):
    status = main(
        ["play", "chickie_nuggs", "--players", "3", "--bots", "heuristic,random,random", "--seed", "3"]
    )
    out, _ = capsys.readouterr()
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "  chance: the deck without the Flying Nuggets is shuffled and dealt"
    assert any(line.startswith("  seat 0 (heuristic): places ") for line in lines)
    assert "chickie_nuggs v1, seed 3: " in out and "ended normal" in out
