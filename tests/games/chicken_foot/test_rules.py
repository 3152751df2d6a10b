"""Chicken Foot rules from hand-built positions (`ChickenFootState.position`)
and hand-chosen deals and draws."""

import pytest

from games.chicken_foot import GAME, ChickenFootState
from games.chicken_foot.render import milestone
from games.chicken_foot.spec import SPEC
from games.core.errors import IllegalAction, OptionError
from games.core.replay import replay
from games.core.runner import play_match

D6 = {"set": "double_six"}

# A double-six layout after the spinner is full: free ends 1 (on 4-1), 4 (on 6-4), 5 (on 5-3) and 5 (on 5-2).
# Of the bones showing a 5 only 5-0, 5-1 and 5-5 are off the table, so a chickie of 5s can never be filled.
FULL_SPINNER_PLAYS = (
    (1, "6-5", "6-6"),
    (0, "6-4", "6-6"),
    (1, "6-3", "6-6"),
    (0, "6-2", "6-6"),
    (1, "5-4", "6-5"),
    (0, "4-1", "5-4"),
    (1, "5-3", "6-3"),
    (0, "5-2", "6-2"),
)


def full_spinner(hands, yard=None, turn=0, options=None):
    return ChickenFootState.position(
        2,
        {**D6, **(options or {})},
        hands=hands,
        yard=yard,
        lead="6-6",
        opener=0,
        plays=FULL_SPINNER_PLAYS,
        turn=turn,
    )


def sort_bones(hand):
    return sorted(hand, key=lambda name: tuple(int(n) for n in name.split("-")))


def dealt(num_players, options, hands):
    """A fresh game whose first deal gives `hands` (the rest is the yard)."""
    state = GAME.start(num_players, options, seed=1)
    state.apply_chance([sort_bones(hand) for hand in hands])
    return state


def play(state, action):
    state.apply({state.deciders()[0]: action})


def observe(state, seat=0):
    return state.observation(seat)


# ----------------------------------------------------------------------------------------------- the spinner


def spinner_start(arms=4):
    return ChickenFootState.position(
        2,
        {**D6, "spinner_arms": arms},
        hands=[["6-2", "6-3", "1-0", "2-0"], ["6-1", "6-4", "1-1", "4-0"]],
        lead="6-6",
        opener=0,
    )


def test_the_spinner_takes_only_its_number_until_its_four_arms_are_down():
    state = spinner_start()
    assert state.deciders() == (1,)
    assert state.legal_actions(1) == ["6-1@6-6", "6-4@6-6"]
    play(state, "6-1@6-6")
    # 1-0 would fit the free 1 of 6-1, but the spinner must be filled first.
    assert state.legal_actions(0) == ["6-2@6-6", "6-3@6-6"]
    play(state, "6-2@6-6")
    assert observe(state)["constraint"] == {"kind": "spinner", "bone": "6-6", "number": 6, "needs": 2}
    assert state.legal_actions(1) == ["6-4@6-6"]
    play(state, "6-4@6-6")
    assert state.legal_actions(0) == ["6-3@6-6"]
    play(state, "6-3@6-6")
    assert observe(state)["constraint"] is None
    assert observe(state)["open_ends"] == [
        {"onto": "6-1", "number": 1},
        {"onto": "6-2", "number": 2},
        {"onto": "6-4", "number": 4},
        {"onto": "6-3", "number": 3},
    ]
    assert state.legal_actions(1) == ["1-1@6-1", "4-0@6-4"]


def test_a_six_armed_spinner_still_blocks_after_four_arms():
    state = spinner_start(arms=6)
    for action in ("6-1@6-6", "6-2@6-6", "6-4@6-6", "6-3@6-6"):
        play(state, action)
    assert observe(state)["constraint"] == {"kind": "spinner", "bone": "6-6", "number": 6, "needs": 2}
    # Seat 1 holds 1-1 and 4-0, which fit free ends, but no 6: it must draw.
    assert state.is_chance() and observe(state)["awaiting"] == "draw" and observe(state)["turn"] == 1


# ----------------------------------------------------------------------------------------------- chickies


def test_a_chickie_blocks_every_other_end_until_its_three_toes_are_down():
    state = spinner_start()
    for action in ("6-1@6-6", "6-2@6-6", "6-4@6-6", "6-3@6-6", "1-1@6-1"):
        play(state, action)
    assert observe(state)["constraint"] == {"kind": "chickie", "bone": "1-1", "number": 1, "needs": 3}
    # Seat 0 holds 1-0 and 2-0; 2-0 fits the free 2 of 6-2 but must wait.
    assert state.legal_actions(0) == ["1-0@1-1"]
    play(state, "1-0@1-1")
    # Seat 1 holds 4-0, which fits 6-4, and no 1: it draws.
    assert state.is_chance() and observe(state)["turn"] == 1
    state.apply_chance("3-1")
    assert state.legal_actions(1) == ["3-1@1-1"]
    play(state, "3-1@1-1")
    state.apply_chance("2-1")
    assert state.legal_actions(0) == ["2-1@1-1"]
    play(state, "2-1@1-1")
    assert observe(state)["constraint"] is None
    assert state.legal_actions(1) == ["4-0@6-4", "4-0@1-0"]


def test_a_double_on_a_free_end_is_a_chickie_and_is_described_so():
    state = full_spinner([["5-5", "3-3"], ["2-0"]])
    assert state.legal_actions(0) == ["5-5@5-3", "5-5@5-2"]
    assert state.describe_action(0, "5-5@5-2") == "plays 5-5 on 5-2: chickie 5s!"
    play(state, "5-5@5-2")
    assert observe(state, 1)["constraint"] == {"kind": "chickie", "bone": "5-5", "number": 5, "needs": 3}
    assert observe(state, 1)["layout"][-1] == {"bone": "5-5", "onto": "5-2", "seat": 0, "joins": 5}


BLOCK_HANDS = [
    ["5-5", "3-3", "4-4", "2-0", "0-0", "1-0", "2-1", "2-2"],
    ["5-1", "6-1", "4-2", "1-1", "3-1", "3-2", "6-0"],
]
BLOCK_YARD = ["3-0", "4-3", "4-0", "5-0"]


def blocked_chickie(options=None):
    """Seat 0 opens a chickie of 5s that can never be filled; seat 1 adds 5-1;
    both draw a bone that misses."""
    state = full_spinner(BLOCK_HANDS, BLOCK_YARD, options=options)
    assert state.legal_actions(0) == ["1-0@4-1", "2-1@4-1", "4-4@6-4", "5-5@5-3", "5-5@5-2"]
    play(state, "5-5@5-3")
    assert state.legal_actions(1) == ["5-1@5-5"]
    play(state, "5-1@5-5")
    state.apply_chance("3-0")
    state.apply_chance("4-3")
    return state


@pytest.mark.parametrize("round_end", ["all_passed", "yard_empty"])
def test_an_unfillable_chickie_ends_the_round_after_a_full_cycle_of_passes(round_end):
    state = blocked_chickie({"round_end": round_end})
    seen = observe(state)
    assert seen["awaiting"] == "deal" and seen["rounds_played"] == 1
    assert [entry["event"] for entry in seen["history"][-4:]] == ["draw", "pass", "draw", "pass"]
    assert seen["rounds"][0] == {
        "round": 1,
        "lead": "6-6",
        "skipped": False,
        "opener": 0,
        "went_out": None,
        "hands": [
            ["0-0", "1-0", "2-0", "2-1", "2-2", "3-0", "3-3", "4-4"],
            ["1-1", "3-1", "3-2", "4-2", "4-3", "6-0", "6-1"],
        ],
        "points": [77, 37],
        "totals": [77, 37],
    }
    assert seen["scores"] == [77, 37]


def test_with_all_passed_yard_empty_the_blocked_round_goes_on_until_the_yard_is_empty():
    state = blocked_chickie({"round_end": "all_passed_yard_empty"})
    assert observe(state)["rounds_played"] == 0
    assert observe(state)["awaiting"] == "draw" and observe(state)["turn"] == 0
    state.apply_chance("4-0")
    state.apply_chance("5-0")
    assert state.legal_actions(1) == ["5-0@5-5"]
    play(state, "5-0@5-5")
    # The yard is empty: seat 0 and seat 1 pass without drawing, and the round ends.
    seen = observe(state)
    assert seen["awaiting"] == "deal"
    assert [(e["event"], e["seat"]) for e in seen["history"][-2:]] == [("pass", 0), ("pass", 1)]
    assert seen["rounds"][0]["points"] == [81, 37]
    assert seen["rounds"][0]["went_out"] is None


@pytest.mark.parametrize(("value", "points"), [(0, 27), (25, 52), (50, 77)])
def test_the_double_blank_counts_its_ruled_value(value, points):
    state = blocked_chickie({"double_blank_value": value})
    assert observe(state)["rounds"][0]["points"] == [points, 37]


def test_the_yard_empty_rule_ends_the_round_with_the_turn_that_drew_the_last_bone():
    hands = [
        ["3-3", "2-0"],
        [
            "5-1",
            "4-4",
            "0-0",
            "1-0",
            "1-1",
            "2-1",
            "2-2",
            "3-0",
            "3-1",
            "3-2",
            "4-0",
            "4-2",
            "4-3",
            "5-5",
            "6-0",
            "6-1",
        ],
    ]
    for round_end in ("yard_empty", "all_passed"):
        state = full_spinner(hands, ["5-0"], options={"round_end": round_end})
        state.apply_chance("5-0")
        play(state, "5-0@5-3")
        seen = observe(state)
        if round_end == "yard_empty":
            assert seen["awaiting"] == "deal"
            assert seen["rounds"][0]["points"] == [8, 76 + 50]
        else:
            assert seen["awaiting"] == "play" and seen["turn"] == 1
            assert state.legal_actions(1)[:2] == ["1-0@4-1", "1-1@4-1"]


# ----------------------------------------------------------------------------------------------- a turn


def test_a_player_who_cannot_play_draws_and_must_play_the_drawn_bone():
    state = full_spinner([["0-0", "1-0"], ["3-3", "2-0", "6-0"]], turn=1)
    assert state.is_chance() and observe(state)["awaiting"] == "draw"
    state.apply_chance("5-1")
    assert observe(state, 1)["drew_this_turn"] is True
    assert state.legal_actions(1) == ["5-1@4-1", "5-1@5-3", "5-1@5-2"]
    play(state, "5-1@5-2")
    seen = observe(state)
    assert seen["history"][-2:] == [
        {"event": "draw", "seat": 1, "numbers": [1, 4, 5]},
        {"event": "play", "seat": 1, "bone": "5-1", "onto": "5-2"},
    ]
    assert seen["open_ends"][-1] == {"onto": "5-1", "number": 1}
    assert seen["turn"] == 0 and seen["hand_sizes"] == [2, 3]


def test_a_drawn_bone_that_does_not_fit_is_kept_and_the_player_passes():
    state = full_spinner([["0-0", "1-0"], ["3-3", "2-0", "6-0"]], turn=1)
    state.apply_chance("3-0")
    seen = observe(state)
    assert seen["history"][-2:] == [
        {"event": "draw", "seat": 1, "numbers": [1, 4, 5]},
        {"event": "pass", "seat": 1, "numbers": [1, 4, 5]},
    ]
    assert seen["turn"] == 0 and seen["hand_sizes"] == [2, 4] and seen["passes_in_a_row"] == 1
    # Only the drawer sees what was drawn.
    assert observe(state, 1)["history"][-2]["bone"] == "3-0"
    assert "3-0" in observe(state, 1)["hand"]


def test_a_player_who_cannot_play_passes_on_an_empty_yard():
    rest = [
        "0-0",
        "1-0",
        "1-1",
        "2-1",
        "2-2",
        "3-0",
        "3-1",
        "3-2",
        "4-0",
        "4-2",
        "4-3",
        "4-4",
        "5-0",
        "5-1",
        "5-5",
        "6-1",
    ]
    state = full_spinner([rest, ["3-3", "2-0", "6-0"]], yard=[], turn=1)
    seen = observe(state)
    assert seen["yard_size"] == 0
    assert seen["history"][-1] == {"event": "pass", "seat": 1, "numbers": [1, 4, 5]}
    assert seen["turn"] == 0 and seen["awaiting"] == "play" and seen["passes_in_a_row"] == 1


def test_playing_is_compulsory_and_only_legal_plays_are_accepted():
    state = full_spinner([["0-0", "1-0"], ["3-3", "2-0", "6-0"]])
    assert state.legal_actions(0) == ["1-0@4-1"]
    for bad in ("0-0@4-1", "1-0@6-4", "1-0@6-6", "draw", ["1-0", "4-1"]):
        with pytest.raises(IllegalAction):
            state.apply({0: bad})
    with pytest.raises(IllegalAction):
        state.apply_chance("3-0")


def test_going_out_on_a_double_ends_the_round_with_the_chickie_unfilled():
    state = full_spinner([["4-4"], ["3-3", "2-0"]])
    assert state.legal_actions(0) == ["4-4@6-4"]
    play(state, "4-4@6-4")
    seen = observe(state)
    assert seen["awaiting"] == "deal" and seen["round"] == 2
    assert seen["constraint"] == {"kind": "chickie", "bone": "4-4", "number": 4, "needs": 3}
    summary = seen["rounds"][0]
    assert (
        summary["went_out"] == 0 and summary["points"] == [0, 8] and summary["hands"] == [[], ["2-0", "3-3"]]
    )
    assert milestone(state).splitlines()[0] == "Round 1 of 7 · spinner 6-6 led by seat 0 · seat 0 went out"


# ----------------------------------------------------------------------------------------------- the lead

NO_SIX_SIX = [
    ["1-0", "2-0", "3-0", "4-0", "5-0"],
    ["2-1", "3-1", "4-1", "5-1", "6-1"],
    ["3-2", "4-2", "5-2", "6-2", "5-5"],
    ["4-3", "5-3", "6-3", "5-4", "6-4"],
]


def test_seed_highest_held_leads_with_the_highest_double_anyone_holds():
    state = dealt(4, D6, NO_SIX_SIX)
    seen = observe(state)
    assert seen["lead_double"] == "5-5" and seen["opener"] == 2 and seen["led_doubles"] == ["5-5"]
    assert seen["history"] == [{"event": "lead", "seat": 2, "bone": "5-5"}]
    assert seen["yard_size"] == 8 and seen["hand_sizes"] == [5, 5, 4, 5]
    assert state.legal_actions(3) == ["5-3@5-5", "5-4@5-5"]


def test_draw_until_required_draws_in_turn_until_the_rounds_double_appears():
    state = dealt(4, {**D6, "lead_policy": "draw_until_required"}, NO_SIX_SIX)
    assert observe(state)["awaiting"] == "lead_draw" and observe(state)["turn"] == 0
    state.apply_chance("3-3")
    assert observe(state)["turn"] == 1
    state.apply_chance("6-6")
    seen = observe(state, 2)
    assert seen["lead_double"] == "6-6" and seen["opener"] == 1
    assert seen["history"] == [
        {"event": "lead_draw", "seat": 0},
        {"event": "lead_draw", "seat": 1},
        {"event": "lead", "seat": 1, "bone": "6-6"},
    ]
    assert observe(state, 0)["history"][0] == {"event": "lead_draw", "seat": 0, "bone": "3-3"}
    assert seen["hand_sizes"] == [6, 5, 5, 5]
    assert state.legal_actions(2) == ["6-2@6-6"]


def test_skip_unheld_skips_a_round_whose_double_nobody_holds():
    state = dealt(4, {**D6, "lead_policy": "skip_unheld"}, NO_SIX_SIX)
    seen = observe(state)
    assert seen["awaiting"] == "deal" and seen["round"] == 2
    assert seen["rounds"] == [
        {
            "round": 1,
            "lead": "6-6",
            "skipped": True,
            "opener": None,
            "went_out": None,
            "hands": None,
            "points": [0, 0, 0, 0],
            "totals": [0, 0, 0, 0],
        }
    ]
    assert (
        milestone(state)
        == "Round 1 of 7: nobody held 6-6, skipped\n  totals: seat 0 0, seat 1 0, seat 2 0, seat 3 0"
    )
    state.apply_chance([sort_bones(hand) for hand in NO_SIX_SIX])
    assert observe(state)["lead_double"] == "5-5" and observe(state)["opener"] == 2


def test_the_double_blanks_round_is_never_skipped():
    led = ["6-6", "5-5", "4-4", "3-3", "2-2", "1-1"]
    state = ChickenFootState.position(
        4,
        {**D6, "lead_policy": "skip_unheld"},
        hands=NO_SIX_SIX[:2] + [["3-2", "4-2", "5-2", "6-2", "4-3"], ["5-3", "6-3", "5-4", "6-4", "6-5"]],
        round_number=7,
        led=led,
        previous_opener=1,
    )
    assert observe(state)["awaiting"] == "lead_draw" and observe(state)["turn"] == 2
    state.apply_chance("0-0")
    assert observe(state)["lead_double"] == "0-0" and observe(state)["opener"] == 2


def test_seed_highest_held_draws_from_left_of_the_previous_opener_when_no_double_can_lead():
    hands = [
        ["1-0", "2-0", "3-0", "4-0", "5-0"],
        ["2-1", "3-1", "4-1", "5-1", "6-1"],
        ["3-2", "4-2", "5-2", "6-2", "6-0"],
        ["4-3", "5-3", "6-3", "5-4", "6-4"],
    ]
    # 6-6 led in round 1; nobody holds a double now.
    state = ChickenFootState.position(4, D6, hands=hands, round_number=2, led=["6-6"], previous_opener=2)
    assert observe(state)["awaiting"] == "lead_draw" and observe(state)["turn"] == 3
    state.apply_chance("6-6")  # already led: it is kept, and the next seat draws
    assert observe(state)["turn"] == 0
    state.apply_chance("1-1")
    seen = observe(state)
    assert seen["lead_double"] == "1-1" and seen["opener"] == 0 and seen["led_doubles"] == ["6-6", "1-1"]
    assert seen["hand_sizes"] == [5, 5, 5, 6] and seen["turn"] == 1


# ----------------------------------------------------------------------------------------------- whole games


@pytest.mark.parametrize(
    ("set_name", "counts"),
    [
        ("double_six", {2: 8, 3: 7, 4: 5}),
        ("double_nine", {2: 9, 3: 9, 4: 9, 5: 7, 6: 7, 7: 7}),
        ("double_twelve", {2: 15, 3: 12, 4: 12, 5: 9, 6: 9, 7: 9}),
    ],
)
def test_hand_sizes_follow_the_table_and_the_set_limits_the_players(set_name, counts):
    for num_players, size in counts.items():
        state = GAME.start(num_players, {"set": set_name}, seed=num_players)
        deal = state.sample_chance(state.rng)
        assert [len(hand) for hand in deal] == [size] * num_players
    if set_name == "double_six":
        with pytest.raises(OptionError, match="takes 2 to 4 players"):
            SPEC.validate_options({"set": set_name}, 5)


def test_a_seven_player_double_twelve_game_deals_nine_bones_each_and_leads_every_double_once():
    record = play_match(
        "chicken_foot",
        7,
        ["heuristic", "greedy", "random"] * 2 + ["random"],
        seed=12,
        options={"set": "double_twelve"},
    )
    assert record["end"]["reason"] == "normal"
    first_deal = record["events"][0][1]
    assert [len(hand) for hand in first_deal] == [9] * 7
    state = replay(record)
    seen = observe(state)
    assert seen["awaiting"] is None and seen["rounds_played"] == 13
    assert sorted(seen["led_doubles"]) == sorted(f"{n}-{n}" for n in range(13))
    assert [sum(summary["points"][seat] for summary in seen["rounds"]) for seat in range(7)] == seen["scores"]
    assert record["outcome"]["scores"] == seen["scores"]


def test_lowest_total_wins_and_equal_totals_share_a_place():
    state = ChickenFootState.position(3, D6, hands=[["1-0"], ["2-0"], ["3-0"]], scores=[40, 25, 40])
    assert state.outcome().places == (2, 1, 2)


def test_impossible_chance_outcomes_are_refused():
    state = GAME.start(2, D6, seed=3)
    good = state.sample_chance(state.rng)
    assert state.chance_is_possible(good)
    assert not state.chance_is_possible([good[0], good[0]])  # a bone dealt twice
    assert not state.chance_is_possible([good[0][:-1], good[1]])  # a short hand
    assert not state.chance_is_possible([list(reversed(good[0])), good[1]])  # not in canonical order
    state = full_spinner([["0-0", "1-0"], ["3-3", "2-0", "6-0"]], turn=1)
    assert not state.chance_is_possible("6-6")  # on the table
    assert not state.chance_is_possible("1-0")  # in a hand
    assert not state.chance_is_possible("6-7")
    assert state.chance_is_possible("3-0")


def test_the_table_is_drawn_as_a_tree_from_the_spinner():
    state = full_spinner([["5-5", "3-3", "1-0"], ["5-1", "2-0"]])
    play(state, "5-5@5-3")
    play(state, "5-1@5-5")
    assert state.render() == "\n".join(
        [
            "Round 1 of 7 · spinner 6-6 led by seat 0 · yard 14 · seat 0 to draw",
            "    [6-6] spinner",
            "      6-5 5-4 4-1",
            "      6-4",
            "      6-3 3-5 [5-5] chickie, needs 2 more",
            "        5-1",
            "      6-2 2-5",
            "  open ends: 1 on 4-1, 4 on 6-4, 5 on 5-2, 1 on 5-1",
            "  hands: seat 0: 2 bones, seat 1: 1 bone",
            "  totals: seat 0 0, seat 1 0",
        ]
    )
