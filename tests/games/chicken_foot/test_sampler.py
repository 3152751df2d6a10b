"""The sampler respects what the history reveals: every sampled position is one the public history could have
come from, and the inferences of passes, draws and the lead hold in every sample."""

import copy
import random

import pytest

from games.chicken_foot import GAME, ChickenFootState
from tests.games.chicken_foot.test_rules import D6, dealt, full_spinner, play, sort_bones


def positions_of_random_games(num_players, options, seed, every):
    """Mid-round positions (a seat to play or draw, or a lead draw due) of random games."""
    rng = random.Random(seed)
    state = GAME.start(num_players, options, seed)
    step = 0
    while not state.is_terminal():
        if step % every == 0 and state.observation(0)["awaiting"] in ("play", "draw", "lead_draw"):
            yield state
        if state.is_chance():
            state.apply_chance(state.sample_chance(rng))
        else:
            state.apply({s: rng.choice(state.legal_actions(s)) for s in state.deciders()})
        step += 1


def replay_round_of(sample):
    """Deal the sampled hands as they were at the start of the round and replay the round's public history."""
    views = [sample.observation(seat) for seat in range(sample.num_players)]
    public = views[0]
    deal = []
    for seat, view in enumerate(views):
        hand = set(view["hand"]) | {e["bone"] for e in public["layout"] if e["seat"] == seat}
        hand -= {
            e["bone"] for e in view["history"] if e["event"] in ("draw", "lead_draw") and e["seat"] == seat
        }
        deal.append(sort_bones(hand))
    led_this_round = any(e["event"] == "lead" for e in public["history"])
    openers = [r["opener"] for r in public["rounds"] if r["opener"] is not None]
    state = ChickenFootState.position(
        sample.num_players,
        public["options"],
        hands=deal,
        round_number=public["round"],
        led=public["led_doubles"][:-1] if led_this_round else public["led_doubles"],
        scores=public["scores"],
        previous_opener=openers[-1] if openers else None,
    )
    for index, entry in enumerate(public["history"]):
        kind, seat = entry["event"], entry["seat"]
        if kind in ("draw", "lead_draw"):
            state.apply_chance(views[seat]["history"][index]["bone"])
        elif kind == "play":
            state.apply({seat: f"{entry['bone']}@{entry['onto']}"})
    return state


@pytest.mark.parametrize(
    ("num_players", "options", "every"),
    [
        (4, {}, 3),
        (2, D6, 3),
        (3, {"lead_policy": "draw_until_required"}, 3),
        (5, {"lead_policy": "skip_unheld"}, 3),
        (4, {"round_end": "all_passed_yard_empty"}, 3),
        (6, {"set": "double_twelve", "spinner_arms": 6}, 20),
    ],
)
def test_every_sample_is_a_position_the_public_history_could_have_come_from(num_players, options, every):
    rng = random.Random(5)
    checked = 0
    for state in positions_of_random_games(num_players, options, seed=num_players, every=every):
        for seat in range(num_players):
            sample = GAME.sample_state(copy.deepcopy(state.observation(seat)), rng)
            rebuilt = replay_round_of(sample)
            for other in range(num_players):
                expected = sample.observation(other)
                got = rebuilt.observation(other)
                del expected["rounds"], got["rounds"]
                assert got == expected
            checked += 1
    assert checked >= 50


def test_a_pass_shows_the_player_holds_none_of_the_numbers_it_passed_on():
    state = full_spinner([["0-0", "1-0"], ["3-3", "2-0", "6-0"]], turn=1)
    state.apply_chance("3-0")  # seat 1 draws, cannot play, passes on 1, 4 and 5
    rng = random.Random(1)
    hands = set()
    for _ in range(200):
        sample = GAME.sample_state(state.observation(0), rng)
        hand = sample.observation(1)["hand"]
        assert len(hand) == 4
        assert not any(n in ("1", "4", "5") for bone in hand for n in bone.split("-"))
        hands.add(tuple(hand))
    # Bones without a 1, 4 or 5 left unseen by seat 0: 2-0, 2-2, 3-0, 3-2, 3-3, 6-0 (6 of them):
    # C(6, 4) hands.
    assert len(hands) == 15


def test_a_bone_drawn_after_a_pass_may_show_the_numbers_passed_on():
    state = full_spinner([["1-1", "0-0"], ["3-3", "2-0", "6-0"]], turn=1)
    state.apply_chance("3-0")  # seat 1 draws and passes on 1, 4 and 5
    play(state, "1-1@4-1")  # a chickie of 1s
    state.apply_chance("4-0")  # seat 1 draws and passes on 1 only
    seen = state.observation(0)
    assert [(e["event"], e.get("numbers")) for e in seen["history"][-5:]] == [
        ("draw", [1, 4, 5]),
        ("pass", [1, 4, 5]),
        ("play", None),
        ("draw", [1]),
        ("pass", [1]),
    ]
    rng = random.Random(2)
    with_four_or_five = 0
    for _ in range(300):
        hand = GAME.sample_state(seen, rng).observation(1)["hand"]
        numbers = [bone.split("-") for bone in hand]
        assert not any("1" in pair for pair in numbers)
        showing = sum(1 for pair in numbers if "4" in pair or "5" in pair)
        assert showing <= 1  # only the second drawn bone may show a 4 or a 5
        with_four_or_five += showing
    assert with_four_or_five > 0


def test_finding_the_lead_shows_who_holds_no_higher_double():
    state = dealt(
        4,
        D6,
        [
            ["1-0", "2-0", "3-0", "4-0", "5-0"],
            ["2-1", "3-1", "4-1", "5-1", "6-1"],
            ["3-2", "4-2", "5-2", "6-2", "5-5"],
            ["4-3", "5-3", "6-3", "5-4", "6-4"],
        ],
    )
    rng = random.Random(3)
    for _ in range(200):
        sample = GAME.sample_state(state.observation(3), rng)
        for seat in range(3):
            assert "6-6" not in sample.observation(seat)["hand"]
    # While seats are still drawing for the lead, nobody holds a double that could lead.
    state = dealt(
        4,
        {**D6, "lead_policy": "draw_until_required"},
        [
            ["1-0", "2-0", "3-0", "4-0", "5-0"],
            ["2-1", "3-1", "4-1", "5-1", "6-1"],
            ["3-2", "4-2", "5-2", "6-2", "5-5"],
            ["4-3", "5-3", "6-3", "5-4", "6-4"],
        ],
    )
    state.apply_chance("3-3")
    for _ in range(200):
        sample = GAME.sample_state(state.observation(0), rng)
        assert all("6-6" not in sample.observation(seat)["hand"] for seat in range(4))
        assert sample.observation(0)["awaiting"] == "lead_draw"


def test_a_seat_about_to_play_is_sampled_holding_a_playable_bone():
    state = full_spinner([["0-0", "1-0"], ["3-3", "2-0", "6-0", "4-2"]], turn=1)
    rng = random.Random(4)
    for _ in range(100):
        sample = GAME.sample_state(state.observation(0), rng)
        assert sample.deciders() == (1,) and sample.legal_actions(1)
