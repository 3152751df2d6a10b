"""The replay view of a Nobody but Us Chickens table: plain data from hand-built positions, exact values."""

from games.nobody_but_us_chickens import NobodyButUsChickensState
from games.nobody_but_us_chickens.view import table

HAND = ["healthy", "healthy", "plump", "fox", "rat", "dog"]


def night_2_hour_4():
    return NobodyButUsChickensState.position(
        3,
        night=1,
        hour=3,
        hands=[HAND] * 3,
        coop=["prize", "plump"],
        claimed=[["healthy"], [], ["sickly"]],
        night_scores=[[4, 2, 7]],
    )


def seat(hand, claimed, points, fox_king=False, top_dog=False, active=False):
    return {
        "hand": hand,
        "claimed": claimed,
        "points": points,
        "fox_king": fox_king,
        "top_dog": top_dog,
        "active": active,
    }


def test_the_start_of_an_hour_counts_nights_and_hours_from_one():
    assert table(night_2_hour_4()) == {
        "night": 2,
        "nights": 3,
        "hour": 4,
        "hours": 9,
        "coop": ["plump", "prize"],
        "revealed": [],
        "seats": [
            seat(HAND, ["healthy"], 4, top_dog=True),
            seat(HAND, [], 2, fox_king=True),
            seat(HAND, ["sickly"], 7),
        ],
    }


def test_a_rat_reveal_shows_the_cards_played_and_who_takes():
    state = night_2_hour_4()
    state.apply({0: "rat", 1: "healthy", 2: "plump"})

    view = table(state)

    assert view["revealed"] == ["rat", "healthy", "plump"]
    assert view["coop"] == ["healthy", "plump", "plump", "prize"]
    assert [seat["active"] for seat in view["seats"]] == [True, False, False]
    assert [seat["hand"] for seat in view["seats"]] == [
        ["healthy", "healthy", "plump", "fox", "dog"],
        ["healthy", "plump", "fox", "rat", "dog"],
        ["healthy", "healthy", "fox", "rat", "dog"],
    ]
