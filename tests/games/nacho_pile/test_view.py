"""The replay view of a Nacho Pile table: plain data from hand-built positions, exact values."""

import json

from games.core.replay import replay
from games.core.runner import play_match
from games.nacho_pile import NachoPileState
from games.nacho_pile.view import table


def number(value, count=1):
    return {"label": str(value), "kind": "number", "number": value, "count": count}


def test_a_turn_in_progress_shows_the_draw_the_piles_and_the_bag():
    state = NachoPileState.position(
        3,
        current=1,
        drawn=[2, "W"],
        fronts={0: {4: 2}},
        front_wilds={2: {6: 1}},
        plates={1: {1: 3, "steal": 1}},
        plate_wilds={1: {5: 1}},
        bag={5: 2, "W": 1, "remove": 1},
    )

    assert table(state) == {
        "seats": [
            {"front": [number(4, 2)], "plate": [], "plate_chips": 0, "active": False},
            {
                "front": [],
                "plate": [
                    number(1, 3),
                    {"label": "W5", "kind": "wild", "number": 5, "count": 1},
                    {"label": "Steal", "kind": "special", "number": 0, "count": 1},
                ],
                "plate_chips": 5,
                "active": True,
            },
            {
                "front": [{"label": "W6", "kind": "wild", "number": 6, "count": 1}],
                "plate": [],
                "plate_chips": 0,
                "active": False,
            },
        ],
        "drawn": [number(2), {"label": "W", "kind": "wild", "number": 0, "count": 1}],
        "bag": [
            number(5, 2),
            {"label": "W", "kind": "wild", "number": 0, "count": 1},
            {"label": "remove", "kind": "special", "number": 0, "count": 1},
        ],
        "bag_size": 4,
        "last_chip": None,
    }


def test_the_end_of_a_match_shows_the_last_chip_and_nobody_to_move():
    record = play_match("nacho_pile", 2, ["random", "random"], 5)

    view = table(replay(record))

    assert view["last_chip"] == {"label": "W", "kind": "wild", "number": 0, "count": 1}
    assert (view["bag"], view["bag_size"]) == ([], 0)
    assert [seat["active"] for seat in view["seats"]] == [False, False]
    assert [seat["plate_chips"] for seat in view["seats"]] == [21, 32]
    assert json.loads(json.dumps(view)) == view  # plain data
