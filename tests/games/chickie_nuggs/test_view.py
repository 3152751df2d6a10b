"""The replay view of a Chickie Nuggs table: plain data from hand-built positions, exact values."""

from games.chickie_nuggs import ChickieNuggsState
from games.chickie_nuggs.view import nugget, table


def test_each_tray_and_hand_is_shown_as_its_owner_sees_it():
    state = ChickieNuggsState.position(
        [{"nugget1": 1, "bbq": 2}, {"flying_nuggets": 1}, {}],
        ["nugget2", "nugget3"],
        trays=[[3, "down2"], [], [4]],
        sauces=[["sweet_sour"], [], ["honey_mustard"]],
        discard={"nugget4": 2, "ranch": 1},
        turn=1,
    )

    assert state.observation(1)["trays"][0]["nuggets"][1] == {"face_down": [1, 2, 3, 4]}  # hidden from seat 1
    assert table(state) == {
        "pile_size": 2,
        "discard_size": 3,
        "seats": [
            {
                "nuggets": [{"value": 3, "face_down": False}, {"value": 2, "face_down": True}],
                "sauces": ["sweet_sour"],
                "points": 6,
                "hand": [{"card": "nugget1", "count": 1}, {"card": "bbq", "count": 2}],
                "active": False,
            },
            {
                "nuggets": [],
                "sauces": [],
                "points": 0,
                "hand": [{"card": "flying_nuggets", "count": 1}],
                "active": True,
            },
            {
                "nuggets": [{"value": 4, "face_down": False}],
                "sauces": ["honey_mustard"],
                "points": 5,
                "hand": [],
                "active": False,
            },
        ],
    }


def test_a_face_down_nugget_of_unknown_value_has_no_value():
    assert nugget({"face_down": [1, 2, 3, 4]}) == {"value": None, "face_down": True}
    assert nugget({"face_down": [3]}) == {"value": 3, "face_down": True}
    assert nugget(2) == {"value": 2, "face_down": False}
