"""Nacho Pile rules from hand-built positions (NachoPileState.position), with exact expected results."""

import pytest

from games.core.errors import IllegalAction, OptionError
from games.nacho_pile import NachoPileState
from games.nacho_pile.rules import PHASE_OVER
from games.nacho_pile.search import EVALUATOR
from tests.games.nacho_pile import short_of_the_end

FULL_BAG = {
    "1": 6,
    "2": 6,
    "3": 6,
    "4": 6,
    "5": 6,
    "6": 6,
    "7": 6,
    "W": 6,
    "steal": 2,
    "score": 2,
    "remove": 2,
}
NO_SPECIALS = {"steal": 0, "score": 0, "remove": 0}


def draw(chip):
    """A chance event: `chip` comes out of the bag."""
    return ("chip", chip)


def play(state, *events):
    """Apply draws and decisions (of the seat to move) in order; return the state."""
    for event in events:
        if isinstance(event, tuple):
            state.apply_chance(event[1])
        else:
            state.apply({state.deciders()[0]: event})
    return state


def piles(state, where="fronts"):
    """{seat: {value: chips}} of every non-empty pile in front of (or on the plate of) each seat,
    Wilds included."""
    table = {}
    for seat, place in enumerate(state.observation(0)[where]):
        counts = {
            value + 1: numbers + wilds
            for value, (numbers, wilds) in enumerate(zip(place["numbers"], place["wilds"], strict=True))
            if numbers + wilds
        }
        if counts:
            table[seat] = counts
    return table


def specials_on_plate(state, seat):
    return state.observation(0)["plates"][seat]["specials"]


# ----- drawing and busting ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "drawn", "chip", "busts"),
    [
        ({}, [3], 3, True),
        ({}, [3, 5], 4, False),
        ({}, ["W", 1], "W", True),
        ({}, ["W", 1], 2, False),
        ({}, ["steal"], "steal", True),
        ({}, ["remove", "score"], "steal", False),
        ({"specials_all_identical": True}, ["remove"], "score", True),
        ({"specials_all_identical": True}, ["remove", 2], "W", False),
        ({}, ["W", 1, 2, 3, 4, 5, 6], 7, True),  # the Wild would have no value left
        ({}, [1, 2, 3, 4, 5, 6, 7], "W", True),  # a Wild drawn with no value left
        ({}, ["W", 1, 2, 3, 4, 5], 6, False),  # 7 is still free for the Wild
        ({}, [1, 2, 3, 4, 5, 6, 7], "steal", False),
    ],
)
def test_which_draws_bust(options, drawn, chip, busts):
    state = play(NachoPileState.position(4, options=options, current=1, drawn=drawn), "draw", draw(chip))
    observation = state.observation(1)
    if busts:
        assert (observation["current"], observation["phase"], observation["drawn"]) == (2, "draw", [])
        assert observation["bag"] == FULL_BAG
    else:
        assert (observation["current"], observation["phase"], observation["drawn"]) == (
            1,
            "draw_or_stop",
            [*drawn, chip],
        )
        assert state.legal_actions(1) == ["draw", "stop"]


def test_a_bust_returns_every_chip_drawn_specials_included_and_the_next_seat_claims_its_piles():
    state = NachoPileState.position(
        4, current=1, drawn=[3, "steal", "W", "remove"], fronts={2: {5: 2}, 3: {6: 1}}
    )
    assert state.observation(0)["bag"] == {
        **FULL_BAG,
        "3": 5,
        "5": 4,
        "6": 5,
        "W": 5,
        "steal": 1,
        "remove": 1,
    }
    play(state, "draw", draw("steal"))
    observation = state.observation(0)
    assert observation["bag"] == {**FULL_BAG, "5": 4, "6": 5}
    assert (observation["current"], observation["turn"], observation["phase"]) == (2, 1, "draw")
    assert piles(state, "plates") == {2: {5: 2}}  # seat 2 claimed its pile at the start of its turn
    assert piles(state) == {3: {6: 1}}
    assert specials_on_plate(state, 1) == NO_SPECIALS


def test_the_first_draw_of_a_turn_is_compulsory_and_stop_follows_any_safe_draw():
    state = NachoPileState.position(3, current=2)
    assert state.is_chance() and state.deciders() == ()
    play(state, draw("remove"))
    assert state.deciders() == (2,) and state.legal_actions(2) == ["draw", "stop"]
    play(state, "draw")
    assert state.is_chance()


# ----- stopping: Wilds and taking piles ---------------------------------------------------------------------


def test_stop_puts_chips_in_front_and_takes_every_matching_pile_of_the_others():
    state = NachoPileState.position(
        4, drawn=[3, 6], fronts={1: {3: 2, 5: 1}, 2: {6: 4}}, front_wilds={3: {3: 1}}, plates={1: {3: 2}}
    )
    play(state, "stop")
    assert piles(state) == {0: {3: 4, 6: 5}}  # seat 1 claimed its 5 at the start of its turn
    assert piles(state, "plates") == {1: {3: 2, 5: 1}}
    assert state.observation(0)["fronts"][0]["wilds"] == [0, 0, 1, 0, 0, 0, 0]
    assert state.observation(0)["current"] == 1


def test_the_wild_takes_a_value_not_drawn_this_turn_and_takes_piles_of_that_value():
    state = NachoPileState.position(4, drawn=[2, "W", 5], fronts={2: {4: 3}}, front_wilds={3: {4: 1}})
    play(state, "stop")
    assert state.observation(0)["phase"] == "wild"
    assert state.legal_actions(0) == [1, 3, 4, 6, 7]
    for bad in (2, 5, 4.0, True, 8):
        with pytest.raises(IllegalAction):
            state.apply({0: bad})
    play(state, 4)
    assert piles(state) == {0: {2: 1, 4: 5, 5: 1}}
    assert state.observation(0)["fronts"][0]["wilds"] == [0, 0, 0, 2, 0, 0, 0]


def test_a_wild_with_one_value_left_may_only_take_that_value():
    state = play(NachoPileState.position(2, drawn=[1, 2, 3, 4, 6, 7, "W"]), "stop")
    assert state.legal_actions(0) == [5]
    play(state, 5)
    assert piles(state) == {0: {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1}}


def test_a_wild_keeps_its_value_when_its_pile_is_taken_later():
    state = NachoPileState.position(3, drawn=["W"])
    play(state, "stop", 6)  # seat 0 makes its Wild a 6
    play(state, draw(6), "stop")  # seat 1 draws a real 6 and takes the pile
    assert piles(state) == {1: {6: 2}}
    assert state.observation(0)["fronts"][1] == {
        "numbers": [0, 0, 0, 0, 0, 1, 0],
        "wilds": [0, 0, 0, 0, 0, 1, 0],
    }


# ----- Specials ---------------------------------------------------------------------------------------------


def test_steal_takes_one_pile_of_another_player_wilds_travelling_with_it():
    state = NachoPileState.position(
        4, drawn=[2, "steal"], fronts={1: {5: 2}, 2: {6: 1}}, front_wilds={1: {5: 1}}
    )
    play(state, "stop")
    assert state.observation(0)["pending_specials"] == ["steal"]
    assert state.legal_actions(0) == [["steal", 1, 5], ["steal", 2, 6]]
    play(state, ["steal", 1, 5])
    assert piles(state) == {0: {2: 1, 5: 3}, 2: {6: 1}}
    assert state.observation(0)["fronts"][0]["wilds"] == [0, 0, 0, 0, 1, 0, 0]
    assert specials_on_plate(state, 0) == {"steal": 1, "score": 0, "remove": 0}
    assert state.observation(0)["current"] == 1


def test_a_steal_with_nothing_to_steal_goes_to_the_plate_without_a_decision():
    state = play(NachoPileState.position(3, drawn=[2, "steal"], fronts={0: {4: 1}}), "stop")
    assert state.is_chance() and state.observation(0)["current"] == 1
    assert piles(state) == {0: {2: 1, 4: 1}}
    assert specials_on_plate(state, 0) == {"steal": 1, "score": 0, "remove": 0}


def test_score_moves_the_whole_pile_of_a_drawn_value_onto_the_plate():
    state = play(NachoPileState.position(3, drawn=[4, 1, "score"], fronts={1: {4: 2}, 2: {6: 3}}), "stop")
    assert state.legal_actions(0) == [["score", 1], ["score", 4]]
    play(state, ["score", 4])
    assert piles(state) == {0: {1: 1}, 2: {6: 3}}
    assert piles(state, "plates") == {0: {4: 3}}
    assert specials_on_plate(state, 0) == {"steal": 0, "score": 1, "remove": 0}


def test_score_counts_the_wilds_value_as_drawn():
    state = play(NachoPileState.position(3, drawn=["W", "score", 1]), "stop", 3)
    assert state.legal_actions(0) == [["score", 1], ["score", 3]]
    play(state, ["score", 3])
    assert piles(state, "plates") == {0: {3: 1}}
    assert state.observation(0)["plates"][0]["wilds"] == [0, 0, 1, 0, 0, 0, 0]


def test_score_is_ignored_when_no_other_chip_was_drawn():
    state = play(NachoPileState.position(3, drawn=["score"], fronts={1: {2: 2}}), "stop")
    assert state.is_chance() and state.observation(0)["current"] == 1
    assert piles(state, "plates") == {1: {2: 2}}
    assert specials_on_plate(state, 0) == {"steal": 0, "score": 1, "remove": 0}


def test_remove_returns_any_pile_to_the_bag_wilds_as_w():
    state = NachoPileState.position(4, drawn=[1, "remove"], fronts={2: {6: 2}}, front_wilds={2: {6: 1}})
    play(state, "stop")
    assert state.legal_actions(0) == [["remove", 0, 1], ["remove", 2, 6]]
    play(state, ["remove", 2, 6])
    assert piles(state) == {0: {1: 1}}
    assert state.observation(0)["bag"] == {**FULL_BAG, "1": 5, "remove": 1}
    assert specials_on_plate(state, 0) == {"steal": 0, "score": 0, "remove": 1}


def test_a_remove_whose_only_target_is_your_own_pile_must_take_it():
    state = play(NachoPileState.position(2, drawn=[1, "remove"]), "stop")
    assert state.legal_actions(0) == [["remove", 0, 1]]
    play(state, ["remove", 0, 1])
    assert piles(state) == {}
    assert state.observation(0)["bag"] == {**FULL_BAG, "remove": 1}


def test_with_optional_specials_a_special_may_be_declined():
    state = NachoPileState.position(
        2, options={"optional_specials": True}, drawn=[1, "remove", "steal"], fronts={1: {3: 1}}
    )
    play(state, "stop")
    assert state.legal_actions(0) == [
        ["steal", 1, 3],
        ["remove", 0, 1],
        ["remove", 1, 3],
        ["decline", "steal"],
        ["decline", "remove"],
    ]
    play(state, ["decline", "remove"], ["steal", 1, 3])
    assert piles(state) == {0: {1: 1, 3: 1}}
    assert specials_on_plate(state, 0) == {"steal": 1, "score": 0, "remove": 1}


@pytest.mark.parametrize(
    ("first", "then", "fronts_after", "bag_changes"),
    [
        # Remove first: the Steal has nothing left to take and goes to the plate unused.
        (["remove", 1, 5], [], {0: {3: 1}}, {"5": 6}),
        # Steal first: the Remove must then take one of the player's own piles.
        (["steal", 1, 5], [["remove", 0, 5]], {0: {3: 1}}, {"5": 6}),
        (["steal", 1, 5], [["remove", 0, 3]], {0: {5: 2}}, {"3": 6}),
    ],
)
def test_the_player_chooses_the_order_of_the_specials(first, then, fronts_after, bag_changes):
    state = play(NachoPileState.position(3, drawn=[3, "steal", "remove"], fronts={1: {5: 2}}), "stop")
    assert state.legal_actions(0) == [["steal", 1, 5], ["remove", 0, 3], ["remove", 1, 5]]
    play(state, first)
    if then:
        assert state.legal_actions(0) == [["remove", 0, 3], ["remove", 0, 5]]
        play(state, *then)
    assert state.is_chance() and state.observation(0)["current"] == 1
    assert piles(state) == fronts_after
    assert state.observation(0)["bag"] == {**FULL_BAG, "3": 5, "5": 4, "steal": 1, "remove": 1, **bag_changes}
    assert specials_on_plate(state, 0) == {"steal": 1, "score": 0, "remove": 1}


# ----- the end ----------------------------------------------------------------------------------------------


def test_last_chip_a_number_ties_on_that_number_go_to_most_chips():
    state = NachoPileState.position(
        3,
        bag={2: 1, 6: 1},
        plates={0: {6: 2, 1: 3}, 1: {6: 1, 3: 5}, 2: {6: 2}},
        plate_wilds={1: {6: 1}},
        fronts={2: {4: 1}},
    )
    play(state, draw(2))  # one chip left: the drawer stops at once
    assert state.is_terminal()
    observation = state.observation(0)
    assert observation["last_chip"] == 6 and observation["bag"] == dict.fromkeys(FULL_BAG, 0)
    assert piles(state) == {}
    assert piles(state, "plates") == {0: {1: 3, 2: 1, 6: 2}, 1: {3: 5, 6: 2}, 2: {4: 1, 6: 2}}
    outcome = state.outcome()
    assert outcome.scores == (2, 2, 2)  # sixes; seat 1's Wild counts as a 6
    assert outcome.places == (2, 1, 3)  # tied on sixes: chips in total decide (6, 7 and 3)


def test_last_chip_a_wild_most_chips_in_total_wins():
    state = NachoPileState.position(
        3, bag={1: 1, "W": 1}, plates={0: {5: 4}, 1: {2: 1, 3: 1, 4: 1, "steal": 1}, 2: {7: 2}}
    )
    play(state, draw(1))
    assert state.is_terminal() and state.observation(2)["last_chip"] == "W"
    assert state.outcome().scores == (5, 4, 2)
    assert state.outcome().places == (1, 2, 3)


def test_last_chip_a_special_most_chips_in_total_wins_and_ties_share():
    state = NachoPileState.position(
        3, bag={"remove": 1, 3: 1}, plates={0: {3: 1}, 1: {5: 2, "score": 1}, 2: {1: 1, 2: 1}}
    )
    play(state, draw(3))
    assert state.is_terminal() and state.observation(1)["last_chip"] == "remove"
    assert state.outcome().scores == (2, 3, 2)
    assert state.outcome().places == (2, 1, 2)


def test_last_chip_a_number_most_of_it_wins_and_the_last_stop_resolves_a_wild_counting_as_its_value():
    state = NachoPileState.position(2, drawn=[2], bag={"W": 1, 5: 1}, plates={1: {1: 4}})
    play(state, "draw", draw("W"))
    assert not state.is_terminal() and state.legal_actions(0) == [1, 3, 4, 5, 6, 7]
    play(state, 5)
    assert state.is_terminal() and state.observation(0)["last_chip"] == 5
    assert state.outcome().scores == (1, 0)
    assert state.outcome().places == (1, 2)  # one 5 beats none, though seat 1 has more chips (4 to 2)


def test_at_the_last_stop_a_remove_sends_chips_out_of_the_game():
    state = NachoPileState.position(
        3, drawn=["remove"], bag={5: 1, 7: 1}, fronts={1: {4: 2}}, plates={2: {7: 1}}
    )
    assert state.observation(0)["out_of_game"]["4"] == 4
    play(state, "draw", draw(5))
    assert state.observation(0)["last_chip"] == 7
    assert state.legal_actions(0) == [["remove", 0, 5], ["remove", 1, 4]]
    play(state, ["remove", 1, 4])
    assert state.is_terminal()
    observation = state.observation(0)
    assert observation["out_of_game"]["4"] == 6
    assert observation["bag"] == dict.fromkeys(FULL_BAG, 0)
    assert piles(state, "plates") == {0: {5: 1}, 2: {7: 1}}
    assert state.outcome().scores == (0, 0, 1)
    assert state.outcome().places == (
        2,
        3,
        1,
    )  # tied on sevens: seat 0 has 2 chips (with its Remove), seat 1 none


def test_before_the_end_the_outcome_counts_chips_in_total_on_plates_and_in_front():
    state = NachoPileState.position(
        3, plates={0: {1: 2}, 1: {2: 1, "score": 1}}, fronts={1: {3: 1}, 2: {4: 2}}
    )
    assert state.outcome().scores == (2, 3, 2)
    assert state.outcome().places == (2, 1, 2)


# ----- positions --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"drawn": [3, 3]}, "busts"),
        ({"fronts": {1: {8: 1}}}, "not a pile value"),
        ({"plates": {1: {4: 7}}}, "more chips of some kind"),
        ({"bag": {"joker": 1}}, "not a chip"),
        ({"bag": {1: 1}}, "at least two chips"),
        ({"current": 5}, "no seat 5"),
    ],
)
def test_impossible_positions_are_refused(kwargs, message):
    with pytest.raises(OptionError, match=message):
        NachoPileState.position(3, **kwargs)


def test_a_special_has_a_target_exactly_when_it_has_target_actions():
    """The quick test for "this Special has a target" agrees with the list of its actions, all along random
    games, for every Special and every player count."""
    import random

    from games.nacho_pile import GAME
    from games.nacho_pile.rules import SPECIAL_CODES

    checked = 0
    for seed in range(30):
        num_players = 2 + seed % 5
        state = GAME.start(num_players, None, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if not state.is_chance():
                for code in SPECIAL_CODES:
                    assert state._has_target(code) == bool(state._targets(code))
                    checked += 1
                state.apply({s: rng.choice(state.legal_actions(s)) for s in state.deciders()})
            else:
                state.apply_chance(state.sample_chance(rng))
    assert checked > 1000


def test_a_position_short_of_the_end_is_scored_by_what_each_possible_last_chip_would_decide():
    # Seat 0 leads the 3s (2 on its plate and a Wild given 3 in front), seat 1 the 5s and chips in total.
    state = short_of_the_end()
    mix = EVALUATOR.evaluation_mix(state)
    assert [(weight, outcome.places, outcome.scores) for weight, outcome in mix] == [
        (0.25, (1, 2, 3), (3, 0, 0)),  # the last 3: seat 0 has three
        (0.5, (2, 1, 3), (0, 3, 0)),  # a 5: seat 1 has three, and more chips in total
        (0.25, (2, 1, 3), (3, 4, 0)),  # the Wild: chips in total
    ]
    state.phase = PHASE_OVER  # over: the outcome itself decides
    assert EVALUATOR.evaluation_mix(state) is None
