"""One author's uploaded programs never share a rated table, in the pure draws of leagues and ladders: who
plays a sitting, how its tables are dealt, and that a draw without such a pair is what it was without the
rule."""

import random

import pytest

from league.bots.matchmaking import (
    INFORMATIVE,
    SIMILAR,
    BotStanding,
    LadderEvent,
    draw_ladder_round,
    draw_round,
    keep_authors_apart,
    ladder_schedule,
    seated_within_rule,
)

A, B = 501, 502


def test_a_sitting_seats_at_most_one_bot_of_an_author_per_table_the_next_in_order_take_the_extra_seats():
    authors = {1: A, 2: A, 3: A, 4: A, 5: None, 6: None}
    # three tables of two would need three of A's four bots with only two others: two tables are drawn
    assert seated_within_rule([1, 2, 3, 4, 5, 6], authors, 2, 3) == [1, 2, 5, 6]
    assert seated_within_rule([5, 1, 6, 2, 3, 4], authors, 2, 3) == [5, 1, 6, 2]
    eight = [1, 2, 3, 4, 5, 6, 7, 8]
    assert seated_within_rule(eight, {**authors, 7: B, 8: B}, 2, 4) == eight
    assert seated_within_rule([1, 2, 3], {1: A, 2: A, 3: A}, 2, 1) == []
    assert seated_within_rule([1, 2, 3, 4], {}, 2, 2) == [1, 2, 3, 4]


def test_tables_without_a_pair_are_kept_and_a_pair_is_dealt_apart_in_order():
    assert keep_authors_apart([[1, 2], [3, 4]], {1: A, 3: A}) == [[1, 2], [3, 4]]
    # 1 and 2 are A's: the players in the same order (1, 2, 3, 4) are dealt so that each table takes the
    # first whose author is not there yet
    assert keep_authors_apart([[1, 2], [3, 4]], {1: A, 2: A}) == [[1, 3], [2, 4]]
    # an author with as many bots left as tables left places one at each table, first
    assert keep_authors_apart([[5, 6, 1], [2, 3, 4]], {1: A, 2: A, 3: B, 4: B}) == [[1, 3, 5], [2, 4, 6]]


def standings(count: int, authors: dict[int, int], rng: random.Random) -> list[BotStanding]:
    return [
        BotStanding(
            bot_id=bot_id,
            mu=rng.uniform(15, 35),
            sigma=rng.uniform(1, 8),
            matches=rng.randrange(0, 5),
            seat_counts=(),
            author=authors.get(bot_id),
        )
        for bot_id in range(1, count + 1)
    ]


def check_apart(tables, authors):
    for table in tables:
        seen = [authors[bot_id] for bot_id in table.seats if authors.get(bot_id) is not None]
        assert len(seen) == len(set(seen)), table


@pytest.mark.parametrize("kind", ["ladder", SIMILAR, INFORMATIVE])
def test_no_draw_seats_two_bots_of_one_author_together_and_every_sitting_is_as_full_as_the_rule_allows(kind):
    rng = random.Random(38)
    for case in range(300):
        count = rng.randrange(4, 14)
        table_size = rng.randrange(2, min(count, 6) + 1)
        authors = {bot_id: rng.choice([A, B, 503, None, None]) for bot_id in range(1, count + 1)}
        bots = standings(count, authors, rng)
        expected = len(seated_within_rule(sorted(authors), authors, table_size, count // table_size))
        if kind == "ladder":
            tables = draw_ladder_round(
                standings=bots,
                table_size=table_size,
                sittings=3,
                newcomer_matches=2,
                ladder_seed=case,
                round_number=1,
            )
        else:
            tables = draw_round(
                standings=bots,
                table_size=table_size,
                sittings=3,
                league_seed=case,
                round_number=1,
                strategy=kind,
            )
        check_apart(tables, authors)
        for sitting in range(3):
            seats = [bot for table in tables if table.sitting == sitting for bot in table.seats]
            assert len(seats) == expected
            assert len(set(seats)) == len(seats)


@pytest.mark.parametrize("kind", ["ladder", SIMILAR, INFORMATIVE])
def test_a_draw_with_no_two_bots_of_one_author_is_the_draw_without_the_rule(kind):
    rng = random.Random(7)
    bots = standings(9, {}, rng)
    everyone_apart = [BotStanding(**{**vars(bot), "author": 900 + bot.bot_id}) for bot in bots]
    if kind == "ladder":

        def draw(given):
            return draw_ladder_round(
                standings=given, table_size=3, sittings=4, newcomer_matches=1, ladder_seed=3, round_number=2
            )
    else:

        def draw(given):
            return draw_round(
                standings=given, table_size=3, sittings=4, league_seed=3, round_number=2, strategy=kind
            )

    assert draw(everyone_apart) == draw(bots)


def test_an_author_with_more_bots_than_tables_sees_the_extra_ones_sit_out_in_turn():
    # Four of A's programs and two built-ins, tables of two: two tables a sitting, so two of A's sit out
    # each sitting, and across the round each of A's plays as often as the sittings allow.
    authors = {1: A, 2: A, 3: A, 4: A}
    bots = [
        BotStanding(bot_id=bot_id, mu=25.0, sigma=8.0, author=authors.get(bot_id)) for bot_id in range(1, 7)
    ]
    tables = draw_ladder_round(
        standings=bots, table_size=2, sittings=4, newcomer_matches=0, ladder_seed=11, round_number=1
    )
    check_apart(tables, authors)
    assert len(tables) == 8
    played = {bot_id: sum(bot_id in table.seats for table in tables) for bot_id in range(1, 7)}
    assert played == {1: 2, 2: 2, 3: 2, 4: 2, 5: 4, 6: 4}


def test_a_ladder_of_one_authors_programs_only_waits_and_its_schedule_replays_with_the_authors_of_the_log():
    alone = [LadderEvent(0, "enter", bot_id, A) for bot_id in (1, 2, 3)]
    assert (
        ladder_schedule(events=alone, table_size=2, sittings=2, newcomer_matches=0, ladder_seed=1, rounds=3)
        == []
    )
    joined = [*alone, LadderEvent(0, "enter", 4, None)]
    rounds = ladder_schedule(
        events=joined, table_size=2, sittings=2, newcomer_matches=0, ladder_seed=1, rounds=3
    )
    assert [len(drawn.tables) for drawn in rounds] == [2, 2, 2]
    for drawn in rounds:
        for table in drawn.tables:
            assert 4 in table.seats  # the one other bot sits at every table, against one of A's


def test_a_ladder_older_than_the_rule_replays_its_earlier_rounds_as_drawn_and_keeps_authors_apart_after():
    """The migration that wrote each past entry's author also set `authors_apart_from` to the ladder's next
    position: the rounds drawn before keep their tables (two of A's together among them), the later ones
    follow the rule."""
    events = [LadderEvent(0, "enter", bot_id, A if bot_id <= 2 else None) for bot_id in (1, 2, 3, 4)]
    settings = {"table_size": 2, "sittings": 2, "newcomer_matches": 0, "ladder_seed": 1, "rounds": 6}
    unruled = [LadderEvent(0, "enter", bot_id, None) for bot_id in (1, 2, 3, 4)]
    before_the_rule = ladder_schedule(events=unruled, **settings)
    start = before_the_rule[3].start
    replayed = ladder_schedule(events=events, authors_apart_from=start, **settings)

    assert any(set(table.seats) == {1, 2} for drawn in before_the_rule[:3] for table in drawn.tables)
    assert replayed[:3] == before_the_rule[:3]
    later = [set(table.seats) for drawn in replayed[3:] for table in drawn.tables]
    assert len(later) == 12 and {1, 2} not in later
