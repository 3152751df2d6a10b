"""The Chickie Nuggs sampler respects everything a seat knows, and only that."""

import copy
import random

import pytest

from games.chickie_nuggs import GAME
from games.chickie_nuggs.rules import CARD_BY_NAME, KINDS, NUGGET_KINDS, ChickieNuggsState
from games.chickie_nuggs.sampler import InconsistentObservation, feasible, flow_feasible

SAMPLES = 40


def position(hands, pile, **kwargs):
    return ChickieNuggsState.position(hands, pile, rest_of_deck=True, **kwargs)


def act(state, action):
    (seat,) = state.deciders()
    state.apply({seat: action})


def samples(state, seat, count=SAMPLES):
    """Sampled states from `seat`'s observation; each reproduces that observation exactly."""
    rng = random.Random(seat * 1000 + count)
    observation = state.observation(seat)
    out = []
    for _ in range(count):
        sample = GAME.sample_state(copy.deepcopy(observation), rng)
        assert sample.observation(seat) == observation
        assert sample.deciders() == state.deciders() and sample.is_chance() == state.is_chance()
        out.append(sample)
    return out


def top_four(state):
    return tuple(reversed(state.pile[-4:]))


def freezer_table():
    pile = ["nugget4", "flying_nuggets", "nugget2", "bbq", "nugget3", "nugget1"]
    hands = [{"ranch": 1, "nugget1": 1}, {"dropped_nugget": 3}, {"dropped_nugget": 2, "bbq": 1}]
    state = position(hands, pile)
    act(state, "freezer")
    act(state, "keep")
    return state


def test_the_checker_of_the_freezer_keeps_the_top_four_in_every_sample_and_the_others_do_not():
    state = freezer_table()
    assert {top_four(sample) for sample in samples(state, 0)} == {top_four(state)}
    assert len({top_four(sample) for sample in samples(state, 1)}) > 1


def test_a_card_drawn_from_the_known_top_stays_known_in_the_drawers_hand():
    state = freezer_table()
    act(state, "place:nugget1")
    act(state, "draw:1")  # seat 0 draws its nugget4
    act(state, "pass")  # seat 1 draws the Flying Nuggets (empty tray)
    act(state, "pass")  # seat 2 draws the nugget2 that seat 0 saw
    nugget2 = CARD_BY_NAME["nugget2"]
    assert all(sample.hands[2][nugget2] >= 1 for sample in samples(state, 0))
    assert any(sample.hands[2][nugget2] == 0 for sample in samples(state, 1))


def test_a_gimme_without_effect_leaves_the_target_without_nuggets_in_every_sample():
    state = position([{"buffalo": 2}, {"bbq": 2, "ranch": 1}, {"nugget1": 2}], ["incognuggo"] * 4)
    act(state, "gimme:1")
    act(state, "decline")
    state.apply_chance("none")
    for seat in (0, 2):
        assert all(not any(sample.hands[1][k] for k in NUGGET_KINDS) for sample in samples(state, seat))


def test_five_second_rule_tells_the_attacker_that_nothing_higher_is_left():
    state = position(
        [
            {"buffalo": 1, "five_second_rule": 1},
            {"dropped_nugget": 1, "nugget2": 1, "nugget1": 1, "bbq": 3},
            {},
        ],
        ["incognuggo"] * 4,
    )
    act(state, "gimme:1")
    act(state, "dropped_nugget")
    act(state, "five_second_rule")
    assert state.observation(0)["hand"] == {"nugget2": 1}
    higher = (CARD_BY_NAME["nugget3"], CARD_BY_NAME["nugget4"])
    assert all(not any(sample.hands[1][k] for k in higher) for sample in samples(state, 0))
    assert any(any(sample.hands[1][k] for k in higher) for sample in samples(state, 2))


def test_the_victim_of_a_steal_knows_what_the_thief_holds():
    state = position(
        [{"sweet_sour": 1, "bbq": 2}, {"nugget4": 1, "ranch": 2}, {"bbq": 1}], ["incognuggo"] * 4
    )
    act(state, "steal:1")
    state.apply_chance("nugget4")
    nugget4 = CARD_BY_NAME["nugget4"]
    assert all(sample.hands[0][nugget4] >= 1 for sample in samples(state, 1))
    assert any(sample.hands[0][nugget4] == 0 for sample in samples(state, 2))


def test_face_down_nuggets_are_redrawn_for_the_others_but_kept_for_their_owner():
    hands = [{"incognuggo": 1, "nugget4": 1, "burnt_nugget": 2}, {"bbq": 1}, {"bbq": 1}]
    state = position(hands, ["incognuggo"] * 4)
    act(state, "incognuggo:nugget4")
    owner_values = {sample.tray_nuggets[0][0][0] for sample in samples(state, 0)}
    other_values = {sample.tray_nuggets[0][0][0] for sample in samples(state, 1)}
    assert owner_values == {CARD_BY_NAME["nugget4"]}
    assert len(other_values) > 1 and other_values <= set(NUGGET_KINDS)


def test_a_face_down_nugget_taken_by_flying_nuggets_is_known_to_its_owner_in_the_takers_hand():
    hands = [{"dropped_nugget": 3}, {"bbq": 1}, {"bbq": 1}]
    state = position(hands, ["flying_nuggets", "ranch"], trays=[["down4", 1]])
    act(state, "pass")
    act(state, "take:0")  # seat 1 takes the face-down nugget blind; seat 2 gets the 1
    nugget4 = CARD_BY_NAME["nugget4"]
    assert all(sample.hands[1][nugget4] >= 1 for sample in samples(state, 0))
    assert any(sample.hands[1][nugget4] == 0 for sample in samples(state, 2))


def test_samples_of_random_games_play_to_the_end():
    rng = random.Random(4)
    state = GAME.start(4, seed=4)
    steps = 0
    while not state.is_terminal():
        if steps % 10 == 5:
            for sample in samples(state, steps % 4, count=2):
                while not sample.is_terminal():
                    if sample.is_chance():
                        sample.apply_chance(sample.sample_chance(rng))
                    else:
                        sample.apply({s: rng.choice(sample.legal_actions(s)) for s in sample.deciders()})
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
        else:
            state.apply({s: rng.choice(state.legal_actions(s)) for s in state.deciders()})
        steps += 1
    assert steps > 50


def test_an_observation_that_does_not_add_up_is_refused_with_a_clear_message():
    state = freezer_table()
    observation = state.observation(0)
    observation["hand_knowledge"][1] = [{"could_be": ["nugget4"], "count": 3}]  # only 4 exist: 1 seen, 3 here
    observation["hand_knowledge"][2] = [{"could_be": ["nugget4"], "count": 3}]
    with pytest.raises(InconsistentObservation, match="no deal of the unseen cards fits"):
        GAME.sample_state(observation, random.Random(1))
    observation = state.observation(0)
    observation["pile_size"] += 1
    with pytest.raises(InconsistentObservation, match="does not add up"):
        GAME.sample_state(observation, random.Random(1))


def test_the_max_flow_check_agrees_with_halls_condition():
    rng = random.Random(8)
    agreed = {True: 0, False: 0}
    for _ in range(400):
        groups = {}
        for _ in range(rng.randint(1, 6)):
            mask = rng.randrange(1, 1 << KINDS)
            if mask & (mask - 1):  # several kinds: single kinds are settled before either check
                groups[mask] = rng.randint(1, 4)
        supply = [rng.randint(0, 2) for _ in range(KINDS)]
        by_hall = feasible(groups, supply)
        assert flow_feasible(list(groups.items()), supply) == by_hall
        agreed[by_hall] += 1
    assert agreed[True] > 50 and agreed[False] > 50
