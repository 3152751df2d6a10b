"""A season's points rules on hand-derived tables: field scaling and its rounding, wins and shared wins,
participation and multipliers, best N with equal results at the cut, minimum attendance, qualification by
rank and by points, the tie-breaks in the organizer's order."""

from decimal import Decimal as D

import pytest

from league.seasons.points import Event, EventResult, Rules, score_event, season_table

PLACES = {1: D(10), 2: D(6), 3: D(3)}


def result(player, place, played=3, wins=0):
    return EventResult(player=player, place=place, played=played, wins=D(wins))


def test_points_scale_with_the_field_of_players_who_played_rounded_to_cents():
    event = Event(
        1, 1, [result(1, 1), result(2, 2), result(3, 3), result(4, 4), result(5, 5), result(6, None, 0)]
    )
    scored = score_event(event, Rules(place_points=PLACES, scale_by_field=True))
    # five played (the no-show is not in the field): 10 × 5/16 = 3.125 → 3.13; 6 × 5/16 = 1.875 → 1.88;
    # 3 × 5/16 = 0.9375 → 0.94; places 4 and 5 score 0
    assert {p: s.points for p, s in scored.items()} == {
        1: D("3.13"),
        2: D("1.88"),
        3: D("0.94"),
        4: D(0),
        5: D(0),
    }
    assert 6 not in scored  # a no-show scores nothing and has not attended


def test_wins_shared_wins_participation_and_the_tier_multiplier():
    rules = Rules(place_points=PLACES, per_win=D(1), participation=D(2))
    event = Event(1, 1, [result(1, 1, wins=D("1.5")), result(2, 2, wins=D("0.5"))], multiplier=D("1.5"))
    scored = score_event(event, rules)
    # (10 + 1.5 + 2) × 1.5 = 20.25; (6 + 0.5 + 2) × 1.5 = 12.75
    assert (scored[1].points, scored[2].points) == (D("20.25"), D("12.75"))
    assert (scored[1].place_points, scored[1].win_points, scored[1].participation) == (D(10), D("1.50"), D(2))


def test_best_n_drops_the_later_of_equal_results_at_the_cut():
    events = [Event(1, 1, [result(1, 1)]), Event(2, 2, [result(1, 2)]), Event(3, 3, [result(1, 2)])]
    (row,) = season_table(events, Rules(place_points=PLACES, best_of=2))
    assert row.total == D(16)
    assert [s.event for s in row.counted] == [1, 2]
    assert [s.event for s in row.dropped] == [3]  # equal to event 2's 6 points, and later


def four_players():
    """A at three events, B at one (worth double), C and D at two each."""
    return [
        Event(1, 1, [result("A", 1), result("C", 2), result("D", 2)]),
        Event(2, 2, [result("A", 2), result("C", 2), result("B", 1)], multiplier=D(2)),
        Event(3, 3, [result("A", 3), result("D", 3)]),
    ]


def test_the_minimum_attendance_and_qualifying_by_rank():
    rules = Rules(place_points=PLACES, minimum_events=2, qualify_top=2)
    rows = season_table(four_players(), rules)
    # B: 10 × 2 = 20; A: 10 + 12 + 3 = 25; C: 6 + 12 = 18; D: 6 + 3 = 9
    assert [(r.player, r.total, r.attended, r.rank, r.qualifies) for r in rows] == [
        ("A", D(25), 3, 1, True),
        ("B", D(20), 1, 2, False),  # one event: below the minimum of two
        ("C", D(18), 2, 3, True),
        ("D", D(9), 2, 4, False),  # the two places went to A and C
    ]


def test_qualifying_by_points():
    rules = Rules(place_points=PLACES, minimum_events=2, qualify_points=D(18))
    rows = season_table(four_players(), rules)
    assert [(r.player, r.qualifies) for r in rows] == [("A", True), ("B", False), ("C", True), ("D", False)]


def test_tie_breaks_in_the_organizers_order_and_shared_ranks():
    points = {1: D(6), 2: D(4), 3: D(2)}
    events = [
        # X and Y: one win each over the other, in two events
        Event(1, 1, [result("X", 1), result("Y", 2), result("P", 3), result("Q", 3)]),
        Event(2, 2, [result("Y", 1), result("X", 2), result("P", 2), result("Q", 2)]),
        # P and Q: level on points, events, best and firsts; P ahead of Q at events 3 and 4, Q at 5
        Event(3, 3, [result("P", 1), result("Q", 2)]),
        Event(4, 4, [result("P", 2), result("Q", 3)]),
        Event(5, 5, [result("Q", 1), result("P", 3), result("R", 1), result("S", 1)]),
    ]
    rules = Rules(place_points=points, tie_breaks=["events", "best", "firsts", "head_to_head"])
    rows = season_table(events, rules)
    table = [(r.player, r.total, r.rank) for r in rows]
    # P: 2 + 4 + 6 + 4 + 2 = 18; Q: 2 + 4 + 4 + 2 + 6 = 18; both five events, best 6, one first place each;
    # head to head at events 1, 2 (level), 3 (P), 4 (P), 5 (Q): P ahead twice, Q once
    # X: 6 + 4 = 10, Y: 4 + 6 = 10: two events, best 6, one first each, level head to head: shared rank
    # R and S: 6 each, one event, level everywhere: a shared rank
    assert table == [
        ("P", D(18), 1),
        ("Q", D(18), 2),
        ("X", D(10), 3),
        ("Y", D(10), 3),
        ("R", D(6), 5),
        ("S", D(6), 5),
    ]


def test_rules_that_make_no_sense_are_refused_in_words():
    with pytest.raises(ValueError) as refused:
        season_table([], Rules(best_of=0, qualify_top=3, qualify_points=D(5), tie_breaks=["coin"]))
    assert str(refused.value) == (
        "best of counts at least 1 result; qualify by rank or by points, not both; "
        "unknown tie-break 'coin' (choose from events, best, firsts, head_to_head)"
    )
