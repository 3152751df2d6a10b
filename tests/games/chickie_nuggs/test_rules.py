"""Chickie Nuggs rules, from hand-built positions (`ChickieNuggsState.position`),
with exact expected results."""

import pytest

from games.chickie_nuggs import GAME
from games.chickie_nuggs.rules import CARD_NAMES, DECK_COUNTS, FLYING, ChickieNuggsState
from games.core.errors import IllegalAction

NUGGETS = ["nugget1", "nugget2", "nugget3", "nugget4"]
HELD = [name for name in CARD_NAMES if name != "flying_nuggets"]


def position(hands, pile, **kwargs):
    return ChickieNuggsState.position(hands, pile, **kwargs)


def act(state, action):
    """Apply one action of the single deciding seat."""
    (seat,) = state.deciders()
    state.apply({seat: action})


def hand(state, seat):
    return state.observation(seat)["hand"]


def last_events(state, seat, count):
    return state.observation(seat)["log"][-count:]


# ----- the deck and the deal --------------------------------------------------------------------------------


def test_the_deck_holds_the_76_cards_of_the_rulings():
    assert dict(zip(CARD_NAMES, DECK_COUNTS, strict=True)) == {
        "nugget1": 12,
        "nugget2": 8,
        "nugget3": 6,
        "nugget4": 4,
        "buffalo": 6,
        "ranch": 3,
        "sweet_sour": 3,
        "bbq": 3,
        "honey_mustard": 3,
        "flying_nuggets": 6,
        "burnt_nugget": 8,
        "incognuggo": 7,
        "dropped_nugget": 5,
        "five_second_rule": 2,
    }
    assert sum(DECK_COUNTS) == 76


def test_the_deal_holds_the_flying_nuggets_out_then_shuffles_them_into_the_pile():
    state = GAME.start(4, seed=0)
    assert state.is_chance() and len(state.pile) == 70 and FLYING not in state.pile
    state.apply_chance(
        list(range(70))
    )  # the deck in card order: the last cards are dealt first, one per seat
    assert hand(state, 0) == {
        "sweet_sour": 1,
        "honey_mustard": 1,
        "burnt_nugget": 2,
        "incognuggo": 2,
        "dropped_nugget": 1,
        "five_second_rule": 1,
    }
    assert hand(state, 3) == {
        "ranch": 1,
        "bbq": 1,
        "honey_mustard": 1,
        "burnt_nugget": 2,
        "incognuggo": 2,
        "dropped_nugget": 1,
    }
    assert state.hand_sizes == [8, 8, 8, 8]
    assert state.is_chance() and len(state.pile) == 70 - 32 + 6 and state.pile.count(FLYING) == 6
    assert not state.chance_is_possible(list(range(43)))
    assert not state.chance_is_possible([0] * 44)
    state.apply_chance(list(range(44)))
    assert state.deciders() == (0,) and state.observation(1)["phase"] == "turn"


# ----- the turn: plays, placement, draw ---------------------------------------------------------------------


def test_two_plays_then_only_the_placement_is_left():
    state = position(
        [{"buffalo": 1, "ranch": 1, "burnt_nugget": 1, "nugget2": 1}, {"bbq": 1}, {"bbq": 1}],
        ["nugget1"] * 5,
        trays=[[], [3], []],
    )
    assert state.legal_actions(0) == [
        "gimme:1",
        "gimme:2",
        "freezer",
        "burn:1:0",
        "place:nugget2",
        "place:buffalo",
        "place:ranch",
    ]
    act(state, "burn:1:0")
    act(state, "freezer")
    act(state, "keep")
    assert state.plays == 2
    assert state.legal_actions(0) == ["place:nugget2", "place:buffalo"]
    with pytest.raises(IllegalAction):
        state.apply({0: "gimme:1"})


def test_a_full_tray_refuses_a_seventh_nugget():
    state = position([{"nugget4": 1, "bbq": 1}, {"bbq": 1}], ["nugget1"] * 3, trays=[[1, 1, 1, 1, 1, 1]])
    assert state.legal_actions(0) == ["skip", "pass", "place:bbq"]
    with pytest.raises(IllegalAction):
        state.apply({0: "place:nugget4"})
    assert len(state.tray_nuggets[0]) == 6 and hand(state, 0) == {"nugget4": 1, "bbq": 1}


def test_placing_is_compulsory_with_a_nugget_and_a_free_slot_but_a_sauce_meets_it():
    state = position([{"nugget1": 1, "bbq": 1}, {"bbq": 1}], ["nugget1"] * 3)
    assert state.legal_actions(0) == ["skip", "place:nugget1", "place:bbq"]
    act(state, "place:bbq")
    assert state.observation(1)["trays"][0] == {"nuggets": [], "sauces": ["bbq"]}


def test_the_two_sauce_slots_fill_up():
    state = position([{"nugget1": 1, "buffalo": 1}, {"bbq": 1}], ["nugget1"] * 3, sauces=[["ranch", "bbq"]])
    assert state.legal_actions(0) == ["gimme:1", "place:nugget1"]


def test_nothing_to_place_means_passing_to_the_draw():
    state = position([{"dropped_nugget": 3}, {"bbq": 1}], ["nugget3", "nugget1"])
    assert state.legal_actions(0) == ["pass"]
    act(state, "pass")
    assert hand(state, 0) == {"nugget3": 1, "dropped_nugget": 3}
    assert state.deciders() == (1,) and state.pile == [0]
    # Passing with a free nugget slot told everyone that the hand held no nugget then;
    # the drawn card is unknown.
    no_nuggets = [name for name in HELD if name not in NUGGETS]
    assert state.observation(1)["hand_knowledge"][0] == [
        {"could_be": no_nuggets, "count": 3},
        {"could_be": HELD, "count": 1},
    ]


def test_a_hand_of_two_or_fewer_may_draw_two():
    state = position([{"nugget1": 1, "bbq": 1}, {"bbq": 1}], ["nugget4", "nugget3", "nugget2"])
    act(state, "place:nugget1")
    assert state.deciders() == (0,) and state.legal_actions(0) == ["draw:1", "draw:2"]
    act(state, "draw:2")
    assert hand(state, 0) == {"nugget3": 1, "nugget4": 1, "bbq": 1}
    assert state.observation(0)["pile_size"] == 1 and state.deciders() == (1,)


def test_a_hand_of_three_draws_one_without_a_choice():
    state = position([{"nugget1": 1, "bbq": 3}, {"bbq": 1}], ["nugget4", "nugget3", "nugget2"])
    act(state, "place:nugget1")
    assert hand(state, 0) == {"nugget4": 1, "bbq": 3}
    assert state.deciders() == (1,)


def test_the_draw_that_empties_the_pile_ends_the_game_even_with_a_small_hand():
    state = position([{"nugget3": 1}, {"nugget4": 1}], ["nugget2"])
    act(state, "place:nugget3")
    assert state.is_terminal() and not state.deciders()
    assert state.outcome().places == (1, 2) and state.outcome().scores == (3.0, 0.0)


# ----- sauces as actions ------------------------------------------------------------------------------------


def gimme_table(target_hand, attacker_hand=None):
    return position(
        [attacker_hand or {"buffalo": 1, "five_second_rule": 1}, target_hand, {"nugget1": 2}],
        ["ranch"] * 4,
    )


def test_gimme_answered_by_dropped_nugget_answered_by_five_second_rule_hands_over_the_highest_nugget():
    state = gimme_table({"dropped_nugget": 1, "nugget1": 1, "nugget4": 1, "nugget2": 1})
    act(state, "gimme:1")
    assert state.deciders() == (1,) and state.legal_actions(1) == ["dropped_nugget", "decline"]
    act(state, "dropped_nugget")
    assert state.deciders() == (0,) and state.legal_actions(0) == ["five_second_rule", "decline"]
    act(state, "five_second_rule")
    assert hand(state, 0) == {"nugget4": 1}
    assert hand(state, 1) == {"nugget1": 1, "nugget2": 1}
    assert state.observation(2)["discard"] == {"buffalo": 1, "dropped_nugget": 1, "five_second_rule": 1}
    assert state.deciders() == (0,) and state.plays == 1  # the answers are not plays
    # The giver knows what it gave; the third seat only that a nugget changed hands.
    assert state.observation(1)["hand_knowledge"][0] == [{"could_be": ["nugget4"], "count": 1}]
    assert state.observation(2)["hand_knowledge"][0] == [{"could_be": NUGGETS, "count": 1}]
    assert state.observation(2)["log"][-1] == {"event": "gave_highest", "seat": 1, "to": 0}
    assert state.observation(0)["log"][-1] == {"event": "gave_highest", "seat": 1, "to": 0, "card": "nugget4"}


def test_dropped_nugget_cancels_gimme_when_the_attacker_does_not_answer():
    state = gimme_table({"dropped_nugget": 1, "nugget4": 1})
    act(state, "gimme:1")
    act(state, "dropped_nugget")
    act(state, "decline")
    assert hand(state, 0) == {"five_second_rule": 1}
    assert hand(state, 1) == {"nugget4": 1}
    assert state.deciders() == (0,)


def test_an_attacker_without_five_second_rule_is_still_asked():
    state = gimme_table({"dropped_nugget": 1, "nugget4": 1}, attacker_hand={"buffalo": 1, "bbq": 1})
    act(state, "gimme:1")
    act(state, "dropped_nugget")
    assert state.deciders() == (0,) and state.legal_actions(0) == ["decline"]


def test_gimme_standing_takes_a_random_nugget_as_a_chance_event():
    state = gimme_table({"nugget2": 1, "nugget3": 1, "bbq": 1})
    act(state, "gimme:1")
    assert state.legal_actions(1) == ["decline"]
    act(state, "decline")
    assert state.is_chance()
    assert [state.chance_is_possible(c) for c in ("nugget2", "nugget3", "nugget1", "bbq", "none")] == [
        True,
        True,
        False,
        False,
        False,
    ]
    state.apply_chance("nugget3")
    assert hand(state, 0) == {"nugget3": 1, "five_second_rule": 1}
    assert hand(state, 1) == {"nugget2": 1, "bbq": 1}
    assert state.observation(2)["hand_knowledge"][0] == [
        {"could_be": NUGGETS, "count": 1},
        {"could_be": HELD, "count": 1},
    ]


def test_gimme_on_a_hand_without_nuggets_has_no_effect_and_tells_everyone():
    state = gimme_table({"bbq": 2})
    act(state, "gimme:1")
    act(state, "decline")
    assert not state.chance_is_possible("nugget1") and state.chance_is_possible("none")
    state.apply_chance("none")
    assert hand(state, 1) == {"bbq": 2} and hand(state, 0) == {"five_second_rule": 1}
    no_nuggets = [name for name in HELD if name not in NUGGETS]
    assert state.observation(2)["hand_knowledge"][1] == [{"could_be": no_nuggets, "count": 2}]


def test_five_second_rule_against_a_hand_without_nuggets_has_no_effect():
    state = gimme_table({"dropped_nugget": 1, "bbq": 1})
    act(state, "gimme:1")
    act(state, "dropped_nugget")
    act(state, "five_second_rule")
    assert hand(state, 0) == {} and hand(state, 1) == {"bbq": 1}


def test_being_asked_for_dropped_nugget_looks_the_same_to_the_others_whether_or_not_the_target_holds_one():
    holding = gimme_table({"dropped_nugget": 1, "nugget2": 1})
    not_holding = gimme_table({"burnt_nugget": 1, "nugget2": 1})
    for state in (holding, not_holding):
        act(state, "gimme:1")
    assert holding.deciders() == not_holding.deciders() == (1,)
    for seat in (0, 2):
        assert holding.observation(seat) == not_holding.observation(seat)
    assert holding.legal_actions(1) == ["dropped_nugget", "decline"]
    assert not_holding.legal_actions(1) == ["decline"]


def test_gimme_may_target_any_opponent_even_one_with_an_empty_hand():
    state = position([{"buffalo": 1}, {}, {"bbq": 1}], ["ranch"] * 3)
    assert state.legal_actions(0) == ["gimme:1", "gimme:2", "pass", "place:buffalo"]


def test_steal_takes_a_random_card_of_a_hand_that_holds_one():
    state = position([{"sweet_sour": 1}, {"nugget3": 1, "bbq": 1}, {}], ["ranch"] * 3)
    assert state.legal_actions(0) == ["steal:1", "pass", "place:sweet_sour"]
    act(state, "steal:1")
    assert [state.chance_is_possible(c) for c in ("nugget3", "bbq", "ranch", "none")] == [
        True,
        True,
        False,
        False,
    ]
    state.apply_chance("bbq")
    assert hand(state, 0) == {"bbq": 1} and hand(state, 1) == {"nugget3": 1}
    assert state.observation(1)["hand_knowledge"][0] == [{"could_be": ["bbq"], "count": 1}]
    assert state.observation(2)["hand_knowledge"][0] == [{"could_be": HELD, "count": 1}]
    assert state.observation(2)["log"][-1] == {"event": "stole", "seat": 0, "from": 1}


def test_check_the_freezer_shows_the_top_four_to_the_checker_alone():
    pile = ["nugget4", "flying_nuggets", "nugget2", "bbq", "nugget3", "nugget1"]
    state = position([{"ranch": 1, "nugget1": 1}, {"dropped_nugget": 3}, {"dropped_nugget": 3}], pile)
    act(state, "freezer")
    assert state.observation(0)["pile_top"] == ["nugget4", "flying_nuggets", "nugget2", "bbq"]
    assert state.observation(1)["pile_top"] == [] and state.observation(2)["pile_top"] == []
    assert state.legal_actions(0) == ["keep", "shuffle"]
    act(state, "keep")
    act(state, "place:nugget1")
    act(state, "draw:1")
    assert hand(state, 0) == {"nugget4": 1}
    assert state.observation(0)["pile_top"] == ["flying_nuggets", "nugget2", "bbq"]
    act(state, "pass")  # seat 1 draws the Flying Nuggets; its tray is empty, so nobody takes anything
    act(state, "pass")  # seat 2 draws the nugget2: the checker knows it
    assert state.observation(0)["pile_top"] == ["bbq"]
    no_nuggets = [name for name in HELD if name not in NUGGETS]  # seat 2 passed with free nugget slots
    assert state.observation(0)["hand_knowledge"][2] == [
        {"could_be": ["nugget2"], "count": 1},
        {"could_be": no_nuggets, "count": 3},
    ]
    assert state.observation(1)["hand_knowledge"][2] == [
        {"could_be": no_nuggets, "count": 3},
        {"could_be": HELD, "count": 1},
    ]


def test_check_the_freezer_then_shuffle_forgets_the_top():
    state = position([{"ranch": 1, "nugget1": 1}, {"bbq": 1}], ["nugget4", "nugget3", "nugget2"])
    act(state, "freezer")
    act(state, "shuffle")
    assert state.is_chance() and state.chance_is_possible([2, 0, 1]) and not state.chance_is_possible([0, 1])
    state.apply_chance([2, 0, 1])
    assert state.pile == [3, 1, 2]  # bottom to top: the old top (nugget4) was index 2, now at the bottom
    assert state.observation(0)["pile_top"] == [] and state.deciders() == (0,)


def test_check_the_freezer_on_a_short_pile_shows_what_there_is_and_a_single_card_is_simply_kept():
    state = position([{"ranch": 1, "nugget1": 1}, {"bbq": 1}], ["nugget4"])
    act(state, "freezer")
    assert state.observation(0)["pile_top"] == ["nugget4"]
    assert state.deciders() == (0,) and state.legal_actions(0) == ["place:nugget1"]


def test_skip_in_a_two_player_game_gives_the_same_player_another_turn():
    state = position([{"bbq": 1, "nugget1": 1}, {"nugget2": 1}], ["ranch"] * 3)
    act(state, "skip")
    assert state.deciders() == (0,) and state.plays == 0
    assert hand(state, 0) == {"nugget1": 1} and state.observation(0)["pile_size"] == 3
    assert state.observation(1)["trays"][0] == {"nuggets": [], "sauces": []}
    assert last_events(state, 1, 3) == [
        {"event": "play", "seat": 0, "card": "bbq"},
        {"event": "skipped", "seat": 1},
        {"event": "turn", "seat": 0},
    ]


def test_skip_in_a_four_player_game_passes_over_the_next_player():
    state = position([{"bbq": 1}, {"bbq": 1}, {"bbq": 1}, {"bbq": 1}], ["ranch"] * 3)
    act(state, "skip")
    assert state.deciders() == (2,)


def test_honey_mustard_discards_a_nugget_of_ones_own_tray_revealing_a_face_down_one():
    state = position([{"honey_mustard": 1, "nugget4": 1}, {"bbq": 1}], ["ranch"] * 3, trays=[[1, 3, "down2"]])
    assert state.legal_actions(0)[:3] == ["discard:0", "discard:1", "discard:2"]
    act(state, "discard:2")
    assert state.observation(1)["trays"][0]["nuggets"] == [1, 3]
    assert state.observation(1)["discard"] == {"nugget2": 1, "honey_mustard": 1}


# ----- action cards -----------------------------------------------------------------------------------------


def test_burnt_nugget_burns_an_opponents_nugget_a_face_down_one_blind():
    state = position(
        [{"burnt_nugget": 1, "nugget1": 1}, {"bbq": 1}], ["ranch"] * 3, trays=[[], [2, 2, "down4", 3]]
    )
    assert state.legal_actions(0) == ["burn:1:0", "burn:1:2", "burn:1:3", "place:nugget1"]
    act(state, "burn:1:2")
    assert state.observation(0)["trays"][1]["nuggets"] == [2, 2, 3]
    assert state.observation(0)["discard"] == {"nugget4": 1, "burnt_nugget": 1}
    assert state.plays == 1


def test_burnt_nugget_needs_a_nugget_on_an_opponents_tray():
    state = position([{"burnt_nugget": 1, "nugget1": 1}, {"bbq": 1}], ["ranch"] * 3, trays=[[4]])
    assert state.legal_actions(0) == ["place:nugget1"]


def test_incognuggo_hides_the_value_from_the_others_until_it_is_scored_at_the_end():
    state = position([{"incognuggo": 1, "nugget4": 1, "nugget1": 1}, {"bbq": 1}], ["ranch", "bbq"])
    assert "incognuggo:nugget1" in state.legal_actions(0) and "incognuggo:nugget4" in state.legal_actions(0)
    act(state, "incognuggo:nugget4")
    assert state.observation(0)["trays"][0]["nuggets"] == [{"face_down": [4]}]
    assert state.observation(1)["trays"][0]["nuggets"] == [{"face_down": [1, 2, 3, 4]}]
    assert state.observation(0)["tray_points"] == [4, 0] and state.observation(1)["tray_points"] == [0, 0]
    assert state.observation(1)["log"][-1] == {"event": "place_face_down", "seat": 0}
    assert state.observation(0)["log"][-1] == {"event": "place_face_down", "seat": 0, "card": "nugget4"}
    act(state, "draw:1")
    act(state, "place:bbq")  # seat 1 takes the last card: the game ends
    assert state.is_terminal()
    assert state.outcome().scores == (4.0, 1.0) and state.outcome().places == (1, 2)
    assert state.observation(1)["trays"][0]["nuggets"] == [{"face_down": [4]}]  # turned up for the scoring
    assert state.observation(1)["tray_points"] == [4, 1]


def test_incognuggo_is_one_of_the_two_plays():
    state = position([{"incognuggo": 1, "ranch": 2, "nugget2": 1}, {"bbq": 1}], ["bbq"] * 6)
    act(state, "freezer")
    act(state, "keep")
    act(state, "freezer")
    act(state, "keep")
    assert state.legal_actions(0) == ["place:nugget2"]


def test_incognuggo_needs_a_free_nugget_slot():
    state = position([{"incognuggo": 1, "nugget2": 1}, {"bbq": 1}], ["bbq"] * 3, trays=[[1] * 6])
    assert state.legal_actions(0) == ["pass"]


# ----- Flying Nuggets ---------------------------------------------------------------------------------------


def flying_table(tray, num_players=3):
    hands = [{"dropped_nugget": 3}] + [{"bbq": 1} for _ in range(num_players - 1)]
    return position(hands, ["flying_nuggets", "ranch", "ranch"], trays=[tray])


def test_flying_nuggets_with_an_empty_tray_takes_nothing():
    state = flying_table([])
    act(state, "pass")
    assert state.deciders() == (1,)
    assert state.hand_sizes == [3, 1, 1] and state.observation(1)["discard"] == {"flying_nuggets": 1}


def test_flying_nuggets_with_one_nugget_gives_it_to_the_left_neighbour():
    state = flying_table([3])
    act(state, "pass")
    assert hand(state, 1) == {"nugget3": 1, "bbq": 1} and hand(state, 2) == {"bbq": 1}
    assert state.tray_nuggets[0] == [] and state.deciders() == (1,)


def test_flying_nuggets_with_more_nuggets_lets_left_then_right_choose():
    state = flying_table([3, 1, "down4"])
    act(state, "pass")
    assert state.deciders() == (1,) and state.legal_actions(1) == ["take:0", "take:1", "take:2"]
    act(state, "take:0")
    assert state.deciders() == (2,) and state.legal_actions(2) == ["take:0", "take:1"]
    act(state, "take:1")  # blind: the face-down one
    assert hand(state, 1) == {"nugget3": 1, "bbq": 1} and hand(state, 2) == {"nugget4": 1, "bbq": 1}
    assert state.observation(0)["trays"][0]["nuggets"] == [1]
    assert state.deciders() == (1,) and state.hand_sizes[0] == 3  # Flying Nuggets used up the draw
    # The drawer knows which nugget went where; the left neighbour only that a nugget did.
    assert state.observation(0)["hand_knowledge"][2] == [
        {"could_be": ["nugget4"], "count": 1},
        {"could_be": HELD, "count": 1},
    ]
    assert state.observation(1)["hand_knowledge"][2] == [
        {"could_be": NUGGETS, "count": 1},
        {"could_be": HELD, "count": 1},
    ]


def test_flying_nuggets_in_a_four_player_game_passes_over_the_player_across():
    hands = [{"dropped_nugget": 3}, {"bbq": 1}, {"bbq": 1}, {"bbq": 1}]
    state = position(hands, ["flying_nuggets", "ranch", "ranch"], trays=[[4, 3, 2]])
    act(state, "pass")
    act(state, "take:0")  # seat 1, the left neighbour
    assert state.deciders() == (3,)  # then seat 3, the right neighbour
    act(state, "take:0")
    assert hand(state, 1) == {"nugget4": 1, "bbq": 1} and hand(state, 3) == {"nugget3": 1, "bbq": 1}
    assert hand(state, 2) == {"bbq": 1} and state.observation(2)["trays"][0]["nuggets"] == [2]


def test_flying_nuggets_uses_up_one_of_two_draws():
    state = position(
        [{"nugget1": 1}, {"bbq": 1}, {"bbq": 1}], ["flying_nuggets", "nugget3", "ranch"], trays=[[]]
    )
    act(state, "place:nugget1")
    act(state, "draw:2")
    assert hand(state, 0) == {"nugget3": 1}
    assert state.observation(1)["trays"][0]["nuggets"] == []  # the 1 was placed, then taken by seat 1
    assert hand(state, 1) == {"nugget1": 1, "bbq": 1}
    assert state.deciders() == (1,) and state.observation(1)["pile_size"] == 1


def test_flying_nuggets_in_a_two_player_game_lets_the_lone_opponent_take_two():
    state = flying_table([2, 4, 1], num_players=2)
    act(state, "pass")
    act(state, "take:1")
    assert state.deciders() == (1,) and state.legal_actions(1) == ["take:0", "take:1"]
    act(state, "take:0")
    assert hand(state, 1) == {"nugget2": 1, "nugget4": 1, "bbq": 1}
    assert state.observation(0)["trays"][0]["nuggets"] == [1]


def test_flying_nuggets_as_the_last_card_is_resolved_before_the_game_ends():
    state = position(
        [{"dropped_nugget": 3}, {"bbq": 1}, {"bbq": 1}], ["flying_nuggets"], trays=[[2, 3], [1], [1, 1]]
    )
    act(state, "pass")
    assert not state.is_terminal() and state.deciders() == (1,)
    act(state, "take:1")
    assert state.is_terminal()
    assert hand(state, 1) == {"nugget3": 1, "bbq": 1} and hand(state, 2) == {"nugget2": 1, "bbq": 1}
    assert state.outcome().scores == (0.0, 1.0, 2.0) and state.outcome().places == (3, 2, 1)


# ----- the end and the tie-breaks ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trays", "sauces", "hands", "places"),
    [
        ([[4], [1, 1]], [[], []], [{}, {}], (1, 2)),  # most tray points
        ([[2], [1, 1]], [[], []], [{}, {}], (2, 1)),  # then most cards on the tray
        ([[2], [1]], [[], ["bbq"]], [{}, {}], (2, 1)),  # a sauce is a card on the tray too
        ([[2], [2]], [[], []], [{"ranch": 1, "bbq": 1}, {"nugget1": 1}], (1, 2)),  # then points in hand
        ([[2], [2]], [[], []], [{"ranch": 1}, {"nugget1": 1, "dropped_nugget": 1}], (1, 1)),  # else shared
    ],
)
def test_each_tie_break_level_decides_a_game(trays, sauces, hands, places):
    state = position(hands, ["burnt_nugget"], trays=trays, sauces=sauces)
    act(state, "pass")  # seat 0 draws the last card (worth nothing in hand): the game ends
    assert state.is_terminal()
    assert state.outcome().places == places


def test_sauce_values_are_options_per_sauce():
    state = position([{}, {}], ["nugget1"], sauces=[["bbq", "ranch"]], options={"sauce_value_bbq": 3})
    assert state.tray_points(0) == 4 and state.observation(1)["tray_points"] == [4, 0]


# ----- hidden information -----------------------------------------------------------------------------------


def test_observations_hide_other_hands_and_the_pile_order():
    state = position([{"nugget4": 2, "five_second_rule": 1}, {"bbq": 1}], ["nugget3", "nugget2"])
    seen_by_1 = state.observation(1)
    assert seen_by_1["hand"] == {"bbq": 1} and seen_by_1["hand_sizes"] == [3, 1]
    assert seen_by_1["hand_knowledge"] == [[{"could_be": HELD, "count": 3}], None]
    assert seen_by_1["pile_size"] == 2 and seen_by_1["pile_top"] == []
    assert sorted(seen_by_1) == [
        "attacker",
        "choosers",
        "discard",
        "draws_left",
        "hand",
        "hand_knowledge",
        "hand_sizes",
        "log",
        "num_players",
        "options",
        "phase",
        "pile_size",
        "pile_top",
        "plays_made",
        "seat",
        "skip_next",
        "target",
        "to_act",
        "tray_points",
        "trays",
        "turn",
    ]


# ----- knowledge kept until an observation asks for it ------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_observations_are_the_same_whether_asked_at_every_event_or_only_now_and_then(seed):
    """What the seats learn is journalled and applied when an observation needs it: asking at every event,
    every seventh, or on clones taken along the way gives the same observations
    (face-down nuggets' values included)."""
    import random

    num_players = 2 + seed % 3
    watched = GAME.start(num_players, None, seed)
    lazy = GAME.start(num_players, None, seed)
    rng = random.Random(seed)
    clones = []
    for step in range(10_000):
        if watched.is_terminal():
            break
        if watched.is_chance():
            outcome = watched.sample_chance(rng)
            watched.apply_chance(outcome)
            lazy.apply_chance(outcome)
        else:
            actions = {s: rng.choice(watched.legal_actions(s)) for s in watched.deciders()}
            watched.apply(actions)
            lazy.apply(actions)
        seen = [watched.observation(s) for s in range(num_players)]
        if step % 7 == 0:
            assert [lazy.observation(s) for s in range(num_players)] == seen
        if step % 11 == 0:
            clones.append((lazy.clone(), seen))
    assert watched.is_terminal()
    assert [lazy.observation(s) for s in range(num_players)] == seen
    for clone, seen_then in clones:
        assert [clone.observation(s) for s in range(num_players)] == seen_then
