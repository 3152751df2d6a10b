"""The size of a top cut (docs/tournaments.md, "The size of a top cut"): which cuts can be played, and the
largest a field can fill. Pure: no database."""

import pytest

from league.pairing import TableSpec, cut_problem, largest_cut, pod_elimination_plan
from league.pairing.stages import playable_cuts

FOURS = TableSpec(preferred=4, minimum=3, maximum=4)  # tables of 4, short tables of 3 allowed
EXACT_FOURS = TableSpec(preferred=4, minimum=4, maximum=4)
TWOS = TableSpec(preferred=2, minimum=2, maximum=2)


def test_the_cuts_that_work_at_tables_of_4_with_2_advancing():
    assert playable_cuts(FOURS, 2)[:7] == [3, 4, 8, 16, 32, 64, 128]
    assert playable_cuts(EXACT_FOURS, 2)[:4] == [4, 8, 16, 32]
    assert playable_cuts(FOURS, 1)[:5] == [3, 4, 12, 16, 48]  # 8 leaves 2 for the final table
    assert playable_cuts(FOURS, 3) == [3, 4]


@pytest.mark.parametrize(
    ("cut", "table", "advance", "problem"),
    [
        (1, FOURS, 2, "a top cut needs at least 2 players"),
        (8, FOURS, 4, "with tables of 4, fewer than 4 players must advance from each table"),
        (
            6,
            FOURS,
            2,
            "a top cut of 6 at tables of 4 with 2 advancing is not a whole number of tables of 4 "
            "(cuts that work: 3, 4, 8, 16, 32 ...)",
        ),
        (
            12,
            FOURS,
            2,
            "a top cut of 12 at tables of 4 with 2 advancing has 6 players in its round 2, a whole number "
            "of tables of 4 (cuts that work: 3, 4, 8, 16, 32 ...)",
        ),
        (
            8,
            FOURS,
            1,
            "a top cut of 8 at tables of 4 with 1 advancing leaves 2 for the final table, fewer than its "
            "minimum of 3 (cuts that work: 3, 4, 12, 16, 48 ...)",
        ),
        (300, TWOS, 1, None),
        (7, TWOS, 1, None),
    ],
)
def test_a_cut_that_cannot_be_played_says_why(cut, table, advance, problem):
    assert cut_problem(cut, table, advance) == problem


def test_double_elimination_takes_at_most_256():
    assert cut_problem(256, TWOS, 1, "double_elimination") is None
    assert cut_problem(257, TWOS, 1, "double_elimination") == (
        "a double-elimination top cut takes at most 256 players"
    )


def test_every_cut_taken_is_played_by_the_elimination_at_whole_tables_without_byes():
    for table in (FOURS, EXACT_FOURS, TableSpec(preferred=3, minimum=2, maximum=3)):
        for advance in range(1, table.preferred):
            for cut in playable_cuts(table, advance):
                *rounds, final = pod_elimination_plan(cut, table, advance)
                assert all(byes == 0 and set(sizes) == {table.preferred} for sizes, byes in rounds)
                assert final[1] == 0 and table.minimum <= final[0][0] <= table.preferred


def test_the_largest_cut_a_field_can_fill():
    assert largest_cut(7, FOURS, 2) == 4
    assert largest_cut(15, FOURS, 2) == 8
    assert largest_cut(7, TWOS, 1) == 7
    assert largest_cut(2, FOURS, 2) is None
