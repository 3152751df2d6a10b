"""The set-based writes of `league.core.bulk`, on whichever database the suite runs (SQLite or PostgreSQL)."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection

from league.core import bulk
from league.matches.models import Match, MatchSeat
from league.ratings.models import RatingPool
from tests.factories import PlayerFactory

WHEN = datetime(2026, 3, 1, 12, tzinfo=UTC)


def insert_matches(pool, count):
    return dict(
        bulk.insert(
            Match,
            ("played_at",),
            [(WHEN + timedelta(microseconds=index),) for index in range(count)],
            returning=("played_at", "id"),
            game_id="nacho_pile",
            game_version=1,
            options={"optional_specials": True},
            status=Match.Status.SCHEDULED,
            owner=Match.Owner.CASUAL,
            visibility=Match.Visibility.PUBLIC,
            rated=True,
            rating_pool_id=pool.pk,
            result_version=0,
            created_at=WHEN,
        )
    )


@pytest.mark.parametrize("parameters", [30_000, 10])  # one statement, or chunks of a few rows (SQLite)
def test_insert_returns_the_new_keys_and_update_matches_rows_on_a_composite_key(db, monkeypatch, parameters):
    monkeypatch.setattr(bulk, "SQLITE_PARAMETERS", parameters)
    pool = RatingPool.objects.create(name="Bulk", game_id="nacho_pile")
    ids = insert_matches(pool, 5)
    matches = list(Match.objects.order_by("played_at"))
    ann, bob = PlayerFactory(name="Ann"), PlayerFactory(name="Bob")
    bulk.insert(
        MatchSeat,
        ("match_id", "seat", "player_id"),
        [(match.pk, seat, player.pk) for match in matches for seat, player in enumerate((ann, bob))],
    )

    bulk.update(
        MatchSeat,
        ("place", "score"),
        [(matches[0].pk, 1, 2, -5), (matches[3].pk, 0, 1, None), (matches[4].pk + 99, 0, 1, 7)],
        key=("match_id", "seat"),
    )
    bulk.update(Match, ("result_version",), [(matches[3].pk, 4)], status=Match.Status.FINISHED)

    assert [ids[match.played_at] for match in matches] == [match.pk for match in matches]
    assert [match.options for match in matches] == [{"optional_specials": True}] * 5
    seats = MatchSeat.objects.order_by("match__played_at", "seat").values_list(
        "player__name", "place", "score"
    )
    assert list(seats) == [
        ("Ann", None, None),
        ("Bob", 2, -5),
        *[("Ann", None, None), ("Bob", None, None)] * 2,
        ("Ann", 1, None),
        ("Bob", None, None),
        ("Ann", None, None),
        ("Bob", None, None),
    ]
    assert list(Match.objects.order_by("played_at").values_list("status", "result_version")) == [
        ("scheduled", 0),
        ("scheduled", 0),
        ("scheduled", 0),
        ("finished", 4),
        ("scheduled", 0),
    ]


def test_nothing_to_write_is_no_statement(db, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert bulk.insert(Match, ("played_at",), [], returning=("id",)) == []
        bulk.update(Match, ("result_version",), [])


def test_insert_returns_the_new_rows_where_sqlite_cannot_return_them_from_the_insert(db, monkeypatch):
    # SQLite before 3.35 inserts row by row and reads the returned columns back (PostgreSQL never asks).
    monkeypatch.setattr(type(connection.features), "can_return_rows_from_bulk_insert", False)
    pool = RatingPool.objects.create(name="Old SQLite", game_id="nacho_pile")
    returned = insert_matches(pool, 3)
    stored = dict(Match.objects.values_list("played_at", "id"))
    assert returned == stored
    assert sorted(returned) == [WHEN + timedelta(microseconds=index) for index in range(3)]
