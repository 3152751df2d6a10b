import pytest

from games.core.playthrough import apply_changes, changes


@pytest.mark.parametrize(
    ("old", "new", "edits"),
    [
        ({"a": 1, "b": [1]}, {"a": 1, "b": [1]}, []),
        ({"a": 1}, {"a": True}, [["=", ["a"], True]]),
        ({"log": [1, 2]}, {"log": [1, 2, 3, 4]}, [["+", ["log"], [3, 4]]]),
        ({"hand": [1, 2, 3]}, {"hand": [1, 3]}, [["=", ["hand"], [1, 3]]]),
        ({"trays": [{"n": 1}, {"n": 2}]}, {"trays": [{"n": 1}, {"n": 5}]}, [["=", ["trays", 1, "n"], 5]]),
        ({"a": 1, "gone": 2}, {"a": 1, "new": None}, [["-", ["gone"]], ["=", ["new"], None]]),
        ([1], {"x": 1}, [["=", [], {"x": 1}]]),
    ],
)
def test_changes_are_the_edits_that_rebuild_the_new_observation(old, new, edits):
    assert changes(old, new) == edits
    assert apply_changes(old, edits) == new


def test_applying_changes_leaves_the_old_observation_as_it_was():
    old = {"log": [[1]], "hand": {"5": 1}}

    apply_changes(old, [["+", ["log"], [[2]]], ["=", ["hand", "5"], 0]])

    assert old == {"log": [[1]], "hand": {"5": 1}}
