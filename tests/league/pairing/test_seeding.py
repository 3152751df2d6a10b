"""Standard bracket seeding, byes to the top seeds, and table sizes."""

import pytest

from league.pairing import (
    PairingError,
    RoundInputs,
    TableSpec,
    generate_round,
    single_elimination_bracket,
    standard_seed_order,
    table_sizes,
)
from tests.league.pairing.support import field, pairs


def test_standard_seed_order_of_sixteen_slots():
    assert standard_seed_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def test_sixteen_players_first_round():
    draft = generate_round("single_elimination", RoundInputs(entrants=field(16), round_number=1))
    assert pairs(draft) == [
        ("p1", "p16"),
        ("p8", "p9"),
        ("p4", "p13"),
        ("p5", "p12"),
        ("p2", "p15"),
        ("p7", "p10"),
        ("p3", "p14"),
        ("p6", "p11"),
    ]
    assert [table.label for table in draft.tables] == [f"R1-{number}" for number in range(1, 9)]
    assert draft.advanced == ()


def test_eight_players_first_round():
    draft = generate_round("single_elimination", RoundInputs(entrants=field(8), round_number=1))
    assert pairs(draft) == [("p1", "p8"), ("p4", "p5"), ("p2", "p7"), ("p3", "p6")]


def test_five_players_top_three_seeds_get_the_byes():
    draft = generate_round("single_elimination", RoundInputs(entrants=field(5), round_number=1))
    assert pairs(draft) == [("p4", "p5")]
    assert draft.advanced == ("p1", "p2", "p3")
    assert draft.quality.byes == 3


def test_thirteen_players_top_three_seeds_get_the_byes():
    draft = generate_round("single_elimination", RoundInputs(entrants=field(13), round_number=1))
    assert pairs(draft) == [("p8", "p9"), ("p4", "p13"), ("p5", "p12"), ("p7", "p10"), ("p6", "p11")]
    assert [table.label for table in draft.tables] == ["R1-2", "R1-3", "R1-4", "R1-6", "R1-8"]
    assert draft.advanced == ("p1", "p2", "p3")


def test_a_bye_means_sitting_out_the_first_round():
    bracket = single_elimination_bracket(5)
    second_round = [match for match in bracket.matches if match.label.startswith("R2-")]
    assert [match.label for match in second_round] == ["R2-1", "R2-2"]
    draft = generate_round("single_elimination", RoundInputs(entrants=field(5), round_number=1))
    assert "R2-2" not in [table.label for table in draft.tables]


@pytest.mark.parametrize(
    ("players", "spec", "sizes", "byes"),
    [
        (13, TableSpec(4, 3, 4), [4, 3, 3, 3], 0),
        (12, TableSpec(4, 3, 4), [4, 4, 4], 0),
        (7, TableSpec(4, 3, 4), [4, 3], 0),
        (6, TableSpec(4, 3, 4), [3, 3], 0),
        (5, TableSpec(4, 3, 4), [4], 1),
        (5, TableSpec(4, 3, 5), [5], 0),
        (9, TableSpec(4, 4, 4), [4, 4], 1),
        (9, TableSpec(2, 2, 2), [2, 2, 2, 2], 1),
        (10, TableSpec(2, 2, 2), [2, 2, 2, 2, 2], 0),
        (17, TableSpec(6, 3, 6), [6, 6, 5], 0),
    ],
)
def test_table_sizes_use_short_tables_then_long_tables_then_byes(players, spec, sizes, byes):
    assert table_sizes(players, spec) == (sizes, byes)


def test_too_few_players_for_one_table_is_a_clear_error():
    with pytest.raises(PairingError, match=r"too few players \(2\) for a table: the minimum is 3"):
        table_sizes(2, TableSpec(4, 3, 4))


def test_table_spec_rejects_a_preferred_size_outside_its_bounds():
    with pytest.raises(PairingError, match="minimum <= preferred <= maximum"):
        TableSpec(preferred=5, minimum=3, maximum=4)
