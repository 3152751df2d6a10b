"""The replay view of a Chicken Foot table: plain data from hand-built positions, exact values."""

from games.chicken_foot import ChickenFootState
from games.chicken_foot.view import table
from games.core.replay import iter_steps
from games.core.runner import play_match

D6 = {"set": "double_six"}
PLAYS = (
    (1, "6-5", "6-6"),
    (0, "6-4", "6-6"),
    (1, "6-3", "6-6"),
    (0, "6-2", "6-6"),
    (1, "5-4", "6-5"),
    (0, "4-1", "5-4"),
    (1, "3-1", "4-1"),
)


def tile(bone, ends, seat, children=(), double=False):
    return {"bone": bone, "ends": ends, "double": double, "seat": seat, "children": list(children)}


def test_the_layout_is_a_tree_from_the_spinner_each_tile_joining_end_first():
    state = ChickenFootState.position(
        2,
        D6,
        hands=[["1-0", "3-3"], ["2-0", "0-0"]],
        lead="6-6",
        opener=0,
        plays=PLAYS,
        turn=0,
        scores=[10, 0],
        round_number=2,
        led=["5-5"],
    )

    assert table(state) == {
        "round": 2,
        "rounds_total": 7,
        "yard_size": 16,
        "lines": [
            tile(
                "6-6",
                [6, 6],
                0,
                [
                    tile(
                        "6-5",
                        [6, 5],
                        1,
                        [tile("5-4", [5, 4], 1, [tile("4-1", [4, 1], 0, [tile("3-1", [1, 3], 1)])])],
                    ),
                    tile("6-4", [6, 4], 0),
                    tile("6-3", [6, 3], 1),
                    tile("6-2", [6, 2], 0),
                ],
                double=True,
            )
        ],
        "open_ends": [
            {"number": 3, "onto": "3-1"},
            {"number": 4, "onto": "6-4"},
            {"number": 3, "onto": "6-3"},
            {"number": 2, "onto": "6-2"},
        ],
        "seats": [
            {
                "hand": [tile("1-0", [1, 0], None), tile("3-3", [3, 3], None, double=True)],
                "points": 10,
                "active": True,
            },
            {
                "hand": [tile("0-0", [0, 0], None, double=True), tile("2-0", [2, 0], None)],
                "points": 0,
                "active": False,
            },
        ],
    }


def test_every_hand_is_shown_from_its_own_seats_observation():
    record = play_match("chicken_foot", 3, ["greedy", "heuristic", "random"], 12, options=D6)
    steps = iter_steps(record)
    next(steps)
    state = next(steps).state  # right after the deal (and the lead played from it)

    hands = [[bone["bone"] for bone in seat["hand"]] for seat in table(state)["seats"]]

    assert hands == [state.observation(seat)["hand"] for seat in range(3)]
    assert [len(hand) for hand in hands] == state.observation(0)["hand_sizes"] == [7, 6, 7]
    assert "6-6" not in sum(hands, []) and "6-6" in record["events"][0][1][1]
