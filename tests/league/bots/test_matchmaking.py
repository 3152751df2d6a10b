"""Matchmaking draws rounds from plain data: fewest matches first, similar ratings, even seats, seeded."""

from collections import Counter

import pytest

from league.bots.matchmaking import BotStanding, draw_round, match_seed


def fresh(bot_ids, mu=25.0, sigma=8.333, matches=0):
    return [BotStanding(bot_id, mu, sigma, matches) for bot_id in bot_ids]


def test_the_same_seed_and_bots_draw_the_same_round_and_another_seed_another():
    standings = fresh(range(1, 7))
    first = draw_round(standings=standings, table_size=2, sittings=4, league_seed=5, round_number=3)
    again = draw_round(standings=standings, table_size=2, sittings=4, league_seed=5, round_number=3)
    other = draw_round(standings=standings, table_size=2, sittings=4, league_seed=6, round_number=3)

    assert first == again
    assert [t.seats for t in first] != [t.seats for t in other]


def test_every_bot_plays_once_per_sitting_and_every_match_has_its_own_seed():
    tables = draw_round(standings=fresh(range(1, 7)), table_size=2, sittings=3, league_seed=1, round_number=1)

    assert [(t.index, t.sitting) for t in tables] == [(i, i // 3) for i in range(9)]
    for sitting in range(3):
        seated = [bot for t in tables if t.sitting == sitting for bot in t.seats]
        assert sorted(seated) == [1, 2, 3, 4, 5, 6]
    assert [t.seed for t in tables] == [match_seed(1, 1, i) for i in range(9)]
    assert len({t.seed for t in tables}) == 9


def test_bots_with_the_fewest_matches_play_first():
    standings = [BotStanding(1, 25, 8, matches=0)] + fresh([2, 3, 4, 5], matches=3)
    tables = draw_round(standings=standings, table_size=2, sittings=5, league_seed=9, round_number=2)

    played = Counter(bot for t in tables for bot in t.seats)
    assert played[1] == 5
    assert sorted(played[bot] + 3 for bot in (2, 3, 4, 5)) == [6, 7, 7, 7]


def test_similar_ratings_sit_together_once_ratings_are_certain():
    standings = [BotStanding(bot_id, mu, 0.0) for bot_id, mu in ((1, 10.0), (2, 40.0), (3, 20.0), (4, 30.0))]
    tables = draw_round(standings=standings, table_size=2, sittings=1, league_seed=4, round_number=8)

    assert [sorted(t.seats) for t in tables] == [[2, 4], [1, 3]]


def test_at_one_table_every_bot_sits_in_every_seat_equally_often():
    tables = draw_round(standings=fresh(range(1, 5)), table_size=4, sittings=8, league_seed=2, round_number=1)

    for bot in range(1, 5):
        assert [sum(1 for t in tables if t.seats[seat] == bot) for seat in range(4)] == [2, 2, 2, 2]


def test_seat_counts_carried_from_earlier_rounds_are_evened_out():
    standings = [BotStanding(1, 25, 8, 3, (3, 0)), BotStanding(2, 25, 8, 3, (0, 3))]
    tables = draw_round(standings=standings, table_size=2, sittings=3, league_seed=3, round_number=4)

    assert [t.seats for t in tables] == [(2, 1), (2, 1), (2, 1)]


def test_a_round_needs_enough_bots_for_a_table():
    with pytest.raises(ValueError, match="3 bots cannot fill a table of 4"):
        draw_round(standings=fresh([1, 2, 3]), table_size=4, sittings=1, league_seed=1, round_number=1)
