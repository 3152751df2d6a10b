"""Single and double elimination brackets, multi-seat elimination, top cuts after a Swiss stage."""

import random
from collections import Counter

import pytest

from league.pairing import (
    Entrant,
    OpenCut,
    PairingError,
    RoundInputs,
    StagePlan,
    TableResult,
    TableSpec,
    bracket_champion,
    double_elimination_bracket,
    generate_round,
    open_cut,
    single_elimination_bracket,
)
from tests.league.pairing.support import field, pairs, seed_number

FOUR_SEATS = TableSpec(preferred=4, minimum=3, maximum=4)


def better_seed_wins(table):
    return min(table.seats, key=seed_number)


def result(table, winner):
    return TableResult(
        seats=table.seats, places={p: 1 if p == winner else 2 for p in table.seats}, label=table.label
    )


def play_out(format_name, entrants, decide=better_seed_wins, **options):
    """Generate and play every round;
    return the rounds as (label, seats) lists, the results, the last error."""
    results = []
    rounds = []
    round_number = 1
    while True:
        try:
            draft = generate_round(
                format_name,
                RoundInputs(entrants=entrants, round_number=round_number, results=results, **options),
            )
        except PairingError as error:
            return rounds, results, str(error)
        rounds.append([(table.label, table.seats) for table in draft.tables])
        results.extend(result(table, decide(table)) for table in draft.tables)
        round_number += 1


def test_single_elimination_of_eight_with_a_third_place_match():
    rounds, results, end = play_out("single_elimination", field(8), third_place=True)
    assert rounds == [
        [("R1-1", ("p1", "p8")), ("R1-2", ("p4", "p5")), ("R1-3", ("p2", "p7")), ("R1-4", ("p3", "p6"))],
        [("R2-1", ("p1", "p4")), ("R2-2", ("p2", "p3"))],
        [("F", ("p1", "p2")), ("3P", ("p3", "p4"))],
    ]
    assert end == "the bracket is finished after 3 rounds"
    assert bracket_champion(single_elimination_bracket(8, third_place=True), field(8), results) == "p1"


def test_single_elimination_of_five_top_seeds_wait_out_the_first_round_and_upsets_carry_through():
    rounds, _results, _end = play_out(
        "single_elimination", field(5), decide=lambda table: max(table.seats, key=seed_number)
    )
    assert rounds == [
        [("R1-2", ("p4", "p5"))],
        [("R2-1", ("p1", "p5")), ("R2-2", ("p2", "p3"))],
        [("F", ("p3", "p5"))],
    ]


def test_generating_the_next_round_before_results_are_in_is_refused():
    first = generate_round("single_elimination", RoundInputs(entrants=field(4), round_number=1))
    partial = [result(first.tables[0], "p1")]
    with pytest.raises(PairingError, match="round 1 is not complete: no result for R1-2"):
        generate_round("single_elimination", RoundInputs(entrants=field(4), round_number=2, results=partial))


def test_a_drawn_match_is_won_by_the_better_standing_then_seed():
    entrants = [Entrant(id="a", seed=1), Entrant(id="b", seed=2, score=3)]
    draw = TableResult(seats=("a", "b"), places={"a": 1, "b": 1}, label="F")
    assert bracket_champion(single_elimination_bracket(2), entrants, [draw]) == "b"
    entrants = [Entrant(id="a", seed=1), Entrant(id="b", seed=2)]
    assert bracket_champion(single_elimination_bracket(2), entrants, [draw]) == "a"


def test_double_elimination_without_the_need_for_a_reset():
    rounds, results, end = play_out("double_elimination", field(4))
    assert rounds == [
        [("W1-1", ("p1", "p4")), ("W1-2", ("p2", "p3"))],
        [("W2-1", ("p1", "p2")), ("L1-1", ("p3", "p4"))],
        [("L2-1", ("p2", "p3"))],
        [("GF", ("p1", "p2"))],
    ]
    assert end == "the bracket is finished after 4 rounds"
    assert bracket_champion(double_elimination_bracket(4), field(4), results) == "p1"


def test_double_elimination_reset_when_the_losers_bracket_winner_takes_the_grand_final():
    def p2_wins_the_finals(table):
        return "p2" if table.label in ("GF", "GF2") else better_seed_wins(table)

    rounds, results, end = play_out("double_elimination", field(4), decide=p2_wins_the_finals)
    assert rounds[3:] == [[("GF", ("p1", "p2"))], [("GF2", ("p1", "p2"))]]
    assert end == "the bracket is finished after 5 rounds"
    assert bracket_champion(double_elimination_bracket(4), field(4), results) == "p2"


def test_double_elimination_with_the_reset_switched_off_ends_at_the_grand_final():
    def p2_wins_the_final(table):
        return "p2" if table.label == "GF" else better_seed_wins(table)

    rounds, results, end = play_out(
        "double_elimination", field(4), decide=p2_wins_the_final, grand_final_reset=False
    )
    assert rounds[-1] == [("GF", ("p1", "p2"))]
    assert end == "the bracket is finished after 4 rounds"
    assert bracket_champion(double_elimination_bracket(4, reset=False), field(4), results) == "p2"


def test_double_elimination_of_sixteen_crosses_the_drops():
    rounds, _results, _end = play_out("double_elimination", field(16))
    assert rounds[2] == [
        ("W3-1", ("p1", "p4")),
        ("W3-2", ("p2", "p3")),
        ("L2-1", ("p7", "p9")),
        ("L2-2", ("p6", "p12")),
        ("L2-3", ("p8", "p10")),
        ("L2-4", ("p5", "p11")),
    ]
    # the losers of W2 meet survivors from the other half of the bracket: nobody they have played
    met_before = {frozenset(seats) for played in rounds[:2] for _label, seats in played}
    assert [frozenset(seats) in met_before for label, seats in rounds[2] if label.startswith("L")] == [
        False
    ] * 4
    assert len(rounds) == 8


@pytest.mark.parametrize("seed", range(12))
def test_double_elimination_everyone_but_the_champion_loses_twice(seed):
    generator = random.Random(seed)
    rounds, results, _end = play_out(
        "double_elimination", field(13), decide=lambda table: generator.choice(table.seats)
    )
    losses = Counter(player for done in results for player, place in done.places.items() if place == 2)
    champion = bracket_champion(double_elimination_bracket(13), field(13), results)
    assert champion is not None
    assert {player: count for player, count in losses.items() if player != champion} == dict.fromkeys(
        [f"p{number}" for number in range(1, 14) if f"p{number}" != champion], 2
    )
    assert losses[champion] <= 1


def test_top_two_of_four_elimination():
    options = {"table": FOUR_SEATS, "advance": 2}
    entrants = field(16)
    results = []
    drafts = []
    for round_number in range(1, 4):
        draft = generate_round(
            "single_elimination",
            RoundInputs(entrants=entrants, round_number=round_number, results=results, **options),
        )
        drafts.append(draft)
        for table in draft.tables:
            order = sorted(table.seats, key=seed_number)
            results.append(
                TableResult(
                    seats=table.seats,
                    places={p: place for place, p in enumerate(order, 1)},
                    label=table.label,
                )
            )
    assert [sorted(table, key=seed_number) for table in pairs(drafts[0])] == [
        ["p1", "p8", "p9", "p16"],
        ["p2", "p7", "p10", "p15"],
        ["p3", "p6", "p11", "p14"],
        ["p4", "p5", "p12", "p13"],
    ]
    # the eight survivors again at two even tables, and nobody meets a first-round table-mate
    assert [sorted(table, key=seed_number) for table in pairs(drafts[1])] == [
        ["p1", "p4", "p6", "p7"],
        ["p2", "p3", "p5", "p8"],
    ]
    assert drafts[1].quality.repeat_pairs == 0
    assert [table.label for table in drafts[2].tables] == ["Final"]
    assert sorted(drafts[2].tables[0].seats, key=seed_number) == ["p1", "p2", "p3", "p4"]
    assert drafts[2].final
    with pytest.raises(PairingError, match="ends with the final table in round 3"):
        generate_round(
            "single_elimination", RoundInputs(entrants=entrants, round_number=4, results=results, **options)
        )


def test_a_tie_at_the_cut_goes_to_the_better_standing_then_the_better_seed():
    options = {"table": FOUR_SEATS, "advance": 2}
    entrants = field(8)
    first = generate_round("single_elimination", RoundInputs(entrants=entrants, round_number=1, **options))
    assert [sorted(table, key=seed_number) for table in pairs(first)] == [
        ["p1", "p4", "p5", "p8"],
        ["p2", "p3", "p6", "p7"],
    ]
    top, bottom = first.tables
    results = [
        TableResult(seats=top.seats, places={"p1": 1, "p4": 2, "p5": 2, "p8": 4}, label=top.label),
        TableResult(seats=bottom.seats, places={"p2": 1, "p3": 2, "p6": 3, "p7": 4}, label=bottom.label),
    ]
    final = generate_round(
        "single_elimination", RoundInputs(entrants=entrants, round_number=2, results=results, **options)
    )
    assert sorted(final.tables[0].seats, key=seed_number) == ["p1", "p2", "p3", "p4"]
    stronger_five = [
        entrant if entrant.id != "p5" else Entrant(id="p5", seed=5, score=2) for entrant in entrants
    ]
    final = generate_round(
        "single_elimination", RoundInputs(entrants=stronger_five, round_number=2, results=results, **options)
    )
    assert sorted(final.tables[0].seats, key=seed_number) == ["p1", "p2", "p3", "p5"]


def test_a_top_cut_after_a_swiss_stage_seeds_the_bracket_by_standings():
    standings = [
        Entrant(id=f"p{number}", seed=number, score=score)
        for number, score in enumerate([1, 3, 2, 3, 0, 2], 1)
    ]
    plan = StagePlan(first="swiss", first_rounds=3, cut=4)
    draft = generate_round("stages", RoundInputs(entrants=standings, round_number=4, stage=plan))
    # ranking: p2 (3, seed 2), p4 (3), p3 (2, seed 3), p6 (2): 1st v 4th, 2nd v 3rd
    assert [(table.label, table.seats) for table in draft.tables] == [
        ("R1-1", ("p2", "p6")),
        ("R1-2", ("p4", "p3")),
    ]
    swiss_round = generate_round("stages", RoundInputs(entrants=field(6), round_number=1, stage=plan))
    assert pairs(swiss_round) == [("p1", "p4"), ("p2", "p5"), ("p3", "p6")]


def test_double_elimination_is_for_two_seat_games():
    with pytest.raises(PairingError, match="double elimination is for 2-seat games"):
        generate_round("double_elimination", RoundInputs(entrants=field(8), round_number=1, table=FOUR_SEATS))


def test_a_multi_seat_elimination_that_cannot_reach_a_final_table_is_refused_before_round_one():
    with pytest.raises(
        PairingError, match="3 players would reach the final, fewer than a table's minimum of 4"
    ):
        generate_round(
            "single_elimination",
            RoundInputs(entrants=field(9), round_number=1, table=TableSpec(4, 4, 4), advance=2),
        )
    with pytest.raises(PairingError, match="a table of 3 with 3 advancing would eliminate nobody"):
        generate_round(
            "single_elimination", RoundInputs(entrants=field(9), round_number=1, table=FOUR_SEATS, advance=3)
        )


def test_multi_seat_elimination_gives_its_byes_to_the_top_seeds():
    options = {"table": TableSpec(4, 4, 4), "advance": 2}
    draft = generate_round("single_elimination", RoundInputs(entrants=field(10), round_number=1, **options))
    assert draft.advanced == ("p1", "p2")
    assert [sorted(table, key=seed_number) for table in pairs(draft)] == [
        ["p3", "p6", "p7", "p10"],
        ["p4", "p5", "p8", "p9"],
    ]
    assert draft.quality.byes == 2


def test_a_decider_settles_a_drawn_match_and_a_tie_at_the_cut():
    entrants = [Entrant(id="a", seed=1), Entrant(id="b", seed=2)]
    draw = TableResult(seats=("a", "b"), places={"a": 1, "b": 1}, label="F", advancing=("b",))
    assert bracket_champion(single_elimination_bracket(2), entrants, [draw]) == "b"
    assert open_cut(("a", "b"), {"a": 1, "b": 1}, 1) == OpenCut(
        place=1, tied=("a", "b"), needed=1, through=()
    )
    assert open_cut(("a", "b"), {"a": 1, "b": 2}, 1) is None
    places = {"p1": 1, "p4": 2, "p5": 2, "p8": 4}
    assert open_cut(("p1", "p4", "p5", "p8"), places, 2) == OpenCut(2, ("p4", "p5"), 1, ("p1",))
    assert open_cut(("p1", "p4", "p5", "p8"), places, 3) is None
    assert open_cut(("p1", "p4", "p5", "p8"), {"p1": 1, "p4": 1, "p5": 1, "p8": 1}, 2) == OpenCut(
        1, ("p1", "p4", "p5", "p8"), 2, ()
    )


def test_a_multi_seat_top_cut_first_round_avoids_the_swiss_stage_rematches():
    """The cut's entrants keep their Swiss opponents: seeds 1, 4, 5, 8 shared a Swiss table, and so did 2, 3,
    6, 7, which is exactly the snake deal of the cut's first round. The optimiser mixes the two tables: two
    players of each Swiss table per cut table, 2 + 2 repeat pairs, the fewest possible (the deal has 12)."""
    met = {
        1: (4, 5, 8),
        4: (1, 5, 8),
        5: (1, 4, 8),
        8: (1, 4, 5),
        2: (3, 6, 7),
        3: (2, 6, 7),
        6: (2, 3, 7),
        7: (2, 3, 6),
    }
    entrants = [
        Entrant(
            id=seed, seed=seed, score=float(9 - seed), standing=seed, opponents=met[seed], seat_history=(0,)
        )
        for seed in range(1, 9)
    ]
    plan = StagePlan(first="swiss", first_rounds=1, cut=8)
    inputs = RoundInputs(
        entrants=entrants,
        round_number=2,
        stage=plan,
        advance=2,
        table=TableSpec(preferred=4, minimum=4, maximum=4),
    )
    draft = generate_round("stages", inputs)
    assert draft.quality.repeat_pairs == 4
    for table in draft.tables:
        assert sorted(len(set(table.seats) & set(group)) for group in ((1, 4, 5, 8), (2, 3, 6, 7))) == [2, 2]
