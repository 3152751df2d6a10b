"""Rule tests of Nobody but Us Chickens from hand-built positions (`NobodyButUsChickensState.position`), with
exact results."""

import random

import pytest

from games.core.errors import IllegalAction, OptionError
from games.nobody_but_us_chickens import GAME
from games.nobody_but_us_chickens.rules import NobodyButUsChickensState

# A hand at the start of hour 3 (six cards left): the Sickly and Prize Chickens
# and one Healthy already played.
HOUR_3_HAND = ["healthy", "healthy", "plump", "fox", "rat", "dog"]


def at_hour_3(coop, night=0, options=None):
    """Four players at hour 3 of `night`, every hand HOUR_3_HAND, with `coop` in the coop."""
    return NobodyButUsChickensState.position(
        4, options, night=night, hour=3, hands=[HOUR_3_HAND] * 4, coop=coop
    )


def play_hour(state, picks, takes=()):
    """Apply one pick per seat, then each expected (seat, take) decision; return
    the seats that had to take."""
    state.apply(dict(enumerate(picks)))
    takers = []
    for seat, take in takes:
        assert state.deciders() == (seat,)
        takers.append(seat)
        state.apply({seat: take})
    return takers


def claimed(state):
    return state.observation(0)["claimed"]


def coop(state):
    return state.observation(0)["coop"]


@pytest.mark.parametrize(
    ("night", "coop_before", "takes", "expected_claimed", "expected_coop"),
    [
        # Fox King seat 0: Foxes 1 and 3 take first (clockwise), then the Rat (seat 2), then the Foxes again.
        (
            0,
            ["prize", "plump", "sickly"],
            [(1, "take_prize"), (3, "take_plump"), (2, "take_healthy")],
            [[], ["prize", "sickly"], ["healthy"], ["plump"]],
            [],
        ),
        # Fox King seat 2: clockwise from seat 2 the Fox of seat 3 goes first.
        (
            2,
            ["prize", "plump", "sickly"],
            [(3, "take_prize"), (1, "take_plump"), (2, "take_healthy")],
            [[], ["plump"], ["healthy"], ["prize", "sickly"]],
            [],
        ),
        # A fuller coop: after the Rat's one Chicken the Foxes keep taking in turn until it is empty.
        (
            0,
            ["prize", "plump", "sickly", "healthy", "healthy"],
            [
                (1, "take_prize"),
                (3, "take_plump"),
                (2, "take_healthy"),
                (1, "take_healthy"),
                (3, "take_healthy"),
            ],
            [[], ["healthy", "prize", "sickly"], ["healthy"], ["healthy", "plump"]],
            [],
        ),
    ],
)
def test_two_foxes_and_a_rat_take_in_the_ruled_order(
    night, coop_before, takes, expected_claimed, expected_coop
):
    state = at_hour_3(coop_before, night=night)
    play_hour(state, ["healthy", "fox", "rat", "fox"], takes)
    # The last Chicken (one kind left) is taken without a decision and the next hour begins.
    assert state.phase == "pick" and state.hour == 4
    assert claimed(state) == expected_claimed
    assert coop(state) == expected_coop


def test_a_take_offers_every_kind_in_the_coop_and_refuses_others():
    state = at_hour_3(["prize", "sickly"])
    state.apply(dict(enumerate(["healthy", "fox", "rat", "fox"])))
    assert state.deciders() == (1,)
    assert state.legal_actions(1) == ["take_healthy", "take_prize", "take_sickly"]
    with pytest.raises(IllegalAction):
        state.apply({1: "take_plump"})
    with pytest.raises(IllegalAction):
        state.legal_actions(2)


@pytest.mark.parametrize(
    ("options", "takes", "expected_claimed", "expected_coop"),
    [
        # A lone Dog routs the Rat and takes the whole coop (no choice: it is the only taker).
        ({}, [], [["healthy", "plump", "prize", "sickly"], [], [], []], []),
        # Read literally, a lone Dog does nothing: the Rat takes one Chicken of its choice, the rest stay.
        (
            {"lone_dog_powerless": True},
            [(1, "take_prize")],
            [[], ["prize"], [], []],
            ["healthy", "plump", "sickly"],
        ),
    ],
)
def test_a_guard_dog_against_a_rat(options, takes, expected_claimed, expected_coop):
    state = at_hour_3(["prize", "sickly"], options=options)
    play_hour(state, ["dog", "rat", "plump", "healthy"], takes)
    assert state.phase == "pick" and state.hour == 4
    assert claimed(state) == expected_claimed
    assert coop(state) == expected_coop


@pytest.mark.parametrize("options", [{}, {"lone_dog_powerless": True}])
def test_dogs_alone_do_nothing(options):
    state = at_hour_3(["prize"], options=options)
    play_hour(state, ["dog", "dog", "healthy", "plump"])
    assert state.phase == "pick" and state.hour == 4
    assert claimed(state) == [[], [], [], []]
    assert coop(state) == ["healthy", "plump", "prize"]
    assert state.observation(0)["hands"] == [
        ["healthy", "healthy", "plump", "fox", "rat"],
        ["healthy", "healthy", "plump", "fox", "rat"],
        ["healthy", "plump", "fox", "rat", "dog"],
        ["healthy", "healthy", "fox", "rat", "dog"],
    ]


@pytest.mark.parametrize(
    ("options", "picks", "takes", "expected_claimed"),
    [
        # One Dog against a Fox: by default the Dog (seat 1) rescues the whole coop.
        ({}, ["fox", "dog", "healthy", "healthy"], [], [[], ["healthy", "healthy", "prize"], [], []]),
        # lone_dog_powerless: the Fox acts as if the Dog were absent and takes everything.
        (
            {"lone_dog_powerless": True},
            ["fox", "dog", "healthy", "healthy"],
            [],
            [["healthy", "healthy", "prize"], [], [], []],
        ),
        # Two Dogs rout predators under both readings; counter-clockwise from the Top Dog (seat 3): seat 2,
        # then 1.
        (
            {},
            ["fox", "dog", "dog", "rat"],
            [(2, "take_prize"), (1, "take_plump"), (2, "take_healthy")],
            [[], ["plump", "sickly"], ["healthy", "prize"], []],
        ),
        (
            {"lone_dog_powerless": True},
            ["fox", "dog", "dog", "rat"],
            [(2, "take_prize"), (1, "take_plump"), (2, "take_healthy")],
            [[], ["plump", "sickly"], ["healthy", "prize"], []],
        ),
    ],
)
def test_the_lone_dog_under_both_readings(options, picks, takes, expected_claimed):
    coop_before = ["prize"] if picks[2] == "healthy" else ["prize", "plump", "sickly", "healthy"]
    state = at_hour_3(coop_before, options=options)
    play_hour(state, picks, takes)
    assert state.phase == "pick" and state.hour == 4
    assert claimed(state) == expected_claimed
    assert coop(state) == []


@pytest.mark.parametrize(
    "picks", [["fox", "rat", "fox", "rat"], ["fox", "rat", "dog", "dog"], ["rat", "dog", "rat", "rat"]]
)
def test_predators_with_an_empty_coop_get_nothing(picks):
    state = at_hour_3([])
    play_hour(state, picks)
    assert state.phase == "pick" and state.hour == 4
    assert claimed(state) == [[], [], [], []]
    assert coop(state) == []
    assert [len(hand) for hand in state.observation(0)["hands"]] == [5, 5, 5, 5]


def test_a_lone_fox_takes_the_whole_coop_without_a_decision():
    state = at_hour_3(["prize", "sickly", "plump"])
    play_hour(state, ["healthy", "plump", "fox", "healthy"])
    assert claimed(state) == [[], [], ["healthy", "healthy", "plump", "plump", "prize", "sickly"], []]
    assert coop(state) == []


def test_rats_without_a_fox_take_one_chicken_each_and_leave_the_rest():
    state = at_hour_3(["prize", "sickly"], night=1)
    # Fox King seat 1: the Rats take clockwise from seat 1, so seat 3 before seat 0.
    play_hour(state, ["rat", "healthy", "plump", "rat"], [(3, "take_prize"), (0, "take_plump")])
    assert claimed(state) == [["plump"], [], [], ["prize"]]
    assert coop(state) == ["healthy", "sickly"]


def test_a_rat_facing_one_kind_of_chicken_takes_it_without_a_decision():
    state = at_hour_3(["healthy"])
    play_hour(state, ["rat", "healthy", "dog", "rat"])
    # Seat 2's lone Dog routs both Rats and takes the two Healthy Chickens.
    assert claimed(state) == [[], [], ["healthy", "healthy"], []]
    state = at_hour_3(["healthy"])
    play_hour(state, ["rat", "healthy", "healthy", "rat"])
    assert claimed(state) == [["healthy"], [], [], ["healthy"]]
    assert coop(state) == ["healthy"]


@pytest.mark.parametrize(
    ("last_cards", "healthy_coop", "expected_night_scores"),
    [
        # No predator in the last hour: the coop's Chickens score for no one.
        (["healthy", "healthy", "dog", "plump"], False, [5, 1, 0, 1]),
        # Healthy Coop: +1 for seat 0 (Prize, Healthy) and seat 3 (Healthy); not seat 1 (it holds the Sickly
        # Chicken) nor seat 2 (no Chicken at all).
        (["healthy", "healthy", "dog", "plump"], True, [6, 1, 0, 2]),
        # Seat 2's Fox sweeps the coop in the last hour, Sickly Chicken included: 3 points and no bonus.
        (["healthy", "healthy", "fox", "plump"], False, [5, 1, 3, 1]),
        (["healthy", "healthy", "fox", "plump"], True, [6, 1, 3, 2]),
    ],
)
def test_dawn_scoring_and_the_healthy_coop_bonus(last_cards, healthy_coop, expected_night_scores):
    state = NobodyButUsChickensState.position(
        4,
        {"healthy_coop": healthy_coop},
        hour=8,
        hands=[[card] for card in last_cards],
        coop=["sickly"],
        claimed=[["prize", "healthy"], ["plump", "sickly"], [], ["healthy"]],
    )
    # The last card is forced: it is played at once and the night ends.
    assert state.night == 1 and state.hour == 0 and state.phase == "pick"
    observation = state.observation(2)
    assert observation["night_scores"] == [expected_night_scores]
    assert observation["totals"] == expected_night_scores
    assert observation["coop"] == [] and observation["claimed"] == [[], [], [], []]
    assert observation["hands"][2] == [
        "healthy",
        "healthy",
        "healthy",
        "plump",
        "prize",
        "sickly",
        "fox",
        "rat",
        "dog",
    ]
    assert (observation["fox_king"], observation["top_dog"]) == (1, 0)


def test_the_last_card_is_played_without_a_decision_but_a_one_kind_pick_before_it_is_asked():
    state = NobodyButUsChickensState.position(
        4, hour=7, hands=[["healthy", "healthy"]] * 2 + [["dog", "fox"]] * 2
    )
    assert state.deciders() == (0, 1, 2, 3)
    assert state.legal_actions(0) == ["healthy"]
    state.apply({0: "healthy", 1: "healthy", 2: "dog", 3: "dog"})
    # Hour 9 is forced: both Foxes take the four Healthy Chickens in turn (one kind: no decision); then dawn.
    assert state.night == 1 and state.hour == 0 and state.phase == "pick"
    log = state.observation(0)["log"]
    assert log == [
        {"night": 0, "hour": 7, "revealed": ["healthy", "healthy", "dog", "dog"], "takes": []},
        {
            "night": 0,
            "hour": 8,
            "revealed": ["healthy", "healthy", "fox", "fox"],
            "takes": [[2, "healthy"], [3, "healthy"], [2, "healthy"], [3, "healthy"]],
        },
    ]
    assert state.observation(0)["night_scores"] == [[0, 0, 2, 2]]


def test_short_summer_nights_have_seven_cards_and_seven_hours():
    state = GAME.start(3, {"short_summer_nights": True})
    assert state.legal_actions(0) == ["healthy", "plump", "prize", "sickly", "fox", "dog"]
    assert state.observation(1)["hand"] == ["healthy", "healthy", "plump", "prize", "sickly", "fox", "dog"]
    assert state.observation(1)["hours"] == 7
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply({seat: rng.choice(state.legal_actions(seat)) for seat in state.deciders()})
    log = state.observation(0)["log"]
    assert [(entry["night"], entry["hour"]) for entry in log] == [(n, h) for n in range(3) for h in range(7)]
    assert all("rat" not in entry["revealed"] for entry in log)
    with pytest.raises(OptionError, match="cannot be held"):
        NobodyButUsChickensState.position(3, {"short_summer_nights": True}, hour=6, hands=[["rat"]] * 3)


def test_fox_king_and_top_dog_rotate_over_a_full_game():
    state = GAME.start(4)
    chickens = ["healthy", "plump", "prize", "sickly"]
    seen = []
    while not state.is_terminal():
        if state.phase == "take":
            state.apply({state.deciders()[0]: state.legal_actions(state.deciders()[0])[0]})
            continue
        fox_king, top_dog, hour = state.fox_king, state.top_dog, state.hour
        if hour == 0:
            picks = chickens
        elif hour == 1:
            picks = ["fox"] * 4
        elif hour == 2:
            picks = chickens[1:] + chickens[:1]
        elif hour == 3:
            picks = ["rat" if seat == fox_king else "dog" for seat in range(4)]
        else:
            picks = [state.legal_actions(seat)[0] for seat in range(4)]
        state.apply(dict(enumerate(picks)))
        if hour == 1:
            first_fox = state.deciders()[0]
        if hour == 3:
            seen.append((state.night, fox_king, top_dog, first_fox, state.deciders()[0]))
    # (night, Fox King, Top Dog, first Fox to take, first Dog to take): the Fox King marker moves left each
    # night and the old Fox King becomes Top Dog.
    assert seen == [(0, 0, 3, 0, 3), (1, 1, 0, 1, 0), (2, 2, 1, 2, 1), (3, 3, 2, 3, 2)]
    assert len(state.observation(0)["night_scores"]) == 4
    assert len(state.observation(0)["log"]) == 36


def test_places_follow_totals_and_ties_share_a_place():
    state = NobodyButUsChickensState.position(
        3, night=2, hour=8, hands=[["healthy"]] * 3, night_scores=[[3, 5, -1], [2, 0, -2]]
    )
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome.places == (1, 1, 3)
    assert outcome.scores == (5.0, 5.0, -3.0)
    assert state.deciders() == ()


def test_scores_before_the_end_count_chickens_claimed_tonight():
    state = at_hour_3(["prize"])
    play_hour(state, ["fox", "healthy", "healthy", "plump"])
    assert state.outcome().scores == (8.0, 0.0, 0.0, 0.0)
    assert state.outcome().places == (1, 2, 2, 2)


def test_two_players_need_the_variant():
    with pytest.raises(OptionError, match="takes 3 to 6 players"):
        GAME.start(2)
    state = GAME.start(2, {"allow_two_players": True})
    assert (state.fox_king, state.top_dog) == (0, 1)
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply({seat: rng.choice(state.legal_actions(seat)) for seat in state.deciders()})
    assert len(state.observation(0)["night_scores"]) == 2
    with pytest.raises(OptionError, match="takes 2 to 6 players"):
        GAME.start(7, {"allow_two_players": True})


def test_observations_hold_the_public_position_and_no_pending_pick():
    state = at_hour_3(["prize"])
    before = [state.observation(seat) for seat in range(4)]
    # At a pick every seat sees the same public position; only its own seat number and hand differ.
    for observation in before:
        assert observation["revealed"] is None and observation["phase"] == "pick" and observation["log"] == []
        assert {k: v for k, v in observation.items() if k not in ("seat", "hand")} == {
            k: v for k, v in before[0].items() if k not in ("seat", "hand")
        }
    state.apply(dict(enumerate(["fox", "rat", "plump", "healthy"])))
    observation = state.observation(3)
    assert observation["revealed"] == ["fox", "rat", "plump", "healthy"]
    assert (observation["phase"], observation["taker"], observation["takers_once"]) == ("take", 0, [0, 1])
    assert observation["takers_repeating"] == [0]


def test_the_sampler_rebuilds_the_true_state():
    state = at_hour_3(["prize", "sickly"], night=1)
    state.apply(dict(enumerate(["fox", "rat", "plump", "fox"])))
    rng = random.Random(0)
    for seat in range(4):
        sample = GAME.sample_state(state.observation(seat), rng)
        assert [sample.observation(other) for other in range(4)] == [
            state.observation(other) for other in range(4)
        ]
        assert sample.deciders() == state.deciders() == (3,)


def test_hand_built_positions_refuse_impossible_hands():
    with pytest.raises(OptionError, match="cannot be held at hour 3"):
        NobodyButUsChickensState.position(
            4, hour=3, hands=[["fox", "fox", "healthy", "healthy", "plump", "dog"]] * 4
        )
    with pytest.raises(OptionError, match="unknown card 'goose'"):
        NobodyButUsChickensState.position(4, hour=8, hands=[["goose"]] * 4)
    with pytest.raises(OptionError, match="expected 4 hands"):
        NobodyButUsChickensState.position(4, hour=8, hands=[["dog"]] * 3)
