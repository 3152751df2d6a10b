"""Rating pools: the order of application, corrections that replay, voids, and exact recomputes."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from league.ratings import maths
from league.ratings.models import PendingRatingUpdate, Rating, RatingHistory, RatingPool
from league.ratings.services import pool_differences, pool_update
from league.results.services import result_submit, result_void
from tests.factories import FIRST_PLAY, PlayerFactory

MODEL = maths.DEFAULT_MODEL


def stored(pool):
    return {
        name: (mu, sigma, matches)
        for name, mu, sigma, matches in Rating.objects.filter(pool=pool).values_list(
            "player__name", "mu", "sigma", "matches"
        )
    }


def expected(*matches):
    """Ratings from applying (names, places) matches in order with the maths module directly."""
    skills, counts = {}, {}
    for names, places in matches:
        after = maths.rate(MODEL, [skills.get(n, MODEL.initial()) for n in names], places)
        for name, skill in zip(names, after, strict=True):
            skills[name] = skill
            counts[name] = counts.get(name, 0) + 1
    return {name: (skill.mu, skill.sigma, counts[name]) for name, skill in skills.items()}


def test_a_result_rates_the_players_and_records_history(match_of, submit):
    match = match_of()
    submit(match, [1, 1, 2, 3])

    pool = RatingPool.objects.get(game_id="nacho_pile", kind="people")
    assert stored(pool) == expected((["Ann", "Bob", "Cat", "Dan"], [1, 1, 3, 4]))
    ann = RatingHistory.objects.get(match=match, player__name="Ann")
    assert (ann.mu_before, ann.sigma_before) == (25.0, 25 / 3)
    assert ann.mu_after == stored(pool)["Ann"][0]
    assert (pool.model_name, pool.model_params["beta"]) == ("BradleyTerryFull", 25 / 6)


def test_pools_are_per_game_and_unrated_matches_do_not_count(match_of, submit):
    submit(match_of(game_id="nacho_pile"), [1, 2, 3, 4])
    submit(match_of(game_id="chicken_foot"), scores=[0, 5, 9, 20])
    submit(match_of(game_id="nacho_pile", rated=False), [4, 3, 2, 1])

    assert RatingPool.objects.count() == 2
    nacho = RatingPool.objects.get(game_id="nacho_pile")
    assert stored(nacho) == expected((["Ann", "Bob", "Cat", "Dan"], [1, 2, 3, 4]))


def test_a_correction_replays_every_later_match(match_of, submit, players):
    eve = PlayerFactory(name="Eve")
    first = match_of()
    second = match_of([players[0], players[2], eve])
    third = match_of([eve, players[1]])
    submit(first, [1, 2, 3, 4])
    submit(second, [1, 2, 3])
    submit(third, [1, 2])

    submit(first, [4, 3, 2, 1], reason="entered upside down")

    assert stored(first.rating_pool) == expected(
        (["Ann", "Bob", "Cat", "Dan"], [4, 3, 2, 1]),
        (["Ann", "Cat", "Eve"], [1, 2, 3]),
        (["Eve", "Bob"], [1, 2]),
    )
    assert RatingHistory.objects.filter(pool=first.rating_pool).count() == 9
    assert pool_differences(first.rating_pool) == []


def test_a_result_for_an_earlier_match_is_applied_in_played_order(match_of, submit, players):
    later = match_of(played_at=FIRST_PLAY + timedelta(days=2))
    earlier = match_of(players[:2], played_at=FIRST_PLAY + timedelta(days=1))
    submit(later, [1, 2, 3, 4])
    submit(earlier, [2, 1])

    assert stored(later.rating_pool) == expected(
        (["Ann", "Bob"], [2, 1]),
        (["Ann", "Bob", "Cat", "Dan"], [1, 2, 3, 4]),
    )


def test_a_pool_marks_its_latest_applied_match_and_a_later_result_undoes_nothing(match_of, submit, players):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    first = match_of(played_at=FIRST_PLAY + timedelta(days=1))
    third = match_of(players[:2], played_at=FIRST_PLAY + timedelta(days=3))
    second = match_of(players[1:3], played_at=FIRST_PLAY + timedelta(days=2))
    submit(first, [1, 2, 3, 4])
    pool = RatingPool.objects.get(pk=first.rating_pool_id)
    assert (pool.applied_through_at, pool.applied_through_id) == (first.played_at, first.pk)

    with CaptureQueriesContext(connection) as queries:
        submit(third, [2, 1])
    assert not [q for q in queries if "ratings_ratinghistory" in q["sql"] and q["sql"].startswith("SELECT")]
    pool.refresh_from_db()
    assert (pool.applied_through_at, pool.applied_through_id) == (third.played_at, third.pk)

    submit(second, [1, 2])  # before the mark: the third match is undone and applied again after it
    pool.refresh_from_db()
    assert (pool.applied_through_at, pool.applied_through_id) == (third.played_at, third.pk)
    assert stored(pool) == expected(
        (["Ann", "Bob", "Cat", "Dan"], [1, 2, 3, 4]), (["Bob", "Cat"], [1, 2]), (["Ann", "Bob"], [2, 1])
    )
    assert pool_differences(pool) == []


def test_matches_played_at_the_same_time_apply_in_id_order(match_of, submit, players):
    same_time = FIRST_PLAY + timedelta(days=3)
    one = match_of(players[:2], played_at=same_time)
    two = match_of(players[:2], played_at=same_time)
    submit(two, [1, 2])
    submit(one, [2, 1])

    assert stored(one.rating_pool) == expected((["Ann", "Bob"], [2, 1]), (["Ann", "Bob"], [1, 2]))


def test_a_voided_match_stops_counting(match_of, submit, players):
    first = match_of()
    second = match_of(players[:2])
    submit(first, [1, 2, 3, 4])
    submit(second, [2, 1])

    result_void(match_id=first.pk)
    pool_update(pool_id=first.rating_pool_id)

    assert stored(first.rating_pool) == expected((["Ann", "Bob"], [2, 1]))
    assert not RatingHistory.objects.filter(match=first).exists()


def test_pool_update_is_idempotent(match_of, staff):
    match = match_of()
    result_submit(match_id=match.pk, expected_version=0, places=[1, 2, 3, 4], entered_by=staff)
    assert PendingRatingUpdate.objects.count() == 1

    assert pool_update(pool_id=match.rating_pool_id) == 1
    assert pool_update(pool_id=match.rating_pool_id) == 0
    assert PendingRatingUpdate.objects.count() == 0
    assert RatingHistory.objects.count() == 4


def test_recompute_command_agrees_after_corrections_and_catches_tampering(match_of, submit, players, capsys):
    for round_number in range(6):
        match = match_of(players[round_number % 2 :] if round_number % 3 else None)
        submit(match, list(range(1, match.seats.count() + 1)))
        if round_number % 2:
            submit(match, list(range(match.seats.count(), 0, -1)), reason="reversed")

    call_command("ratings_recompute", "nacho_pile")
    assert "4 ratings equal a recompute from scratch" in capsys.readouterr().out

    Rating.objects.filter(player__name="Cat").update(mu=30.0)
    with pytest.raises(CommandError, match="1 ratings differ") as failure:
        call_command("ratings_recompute", "nacho_pile")
    assert failure.value.returncode == 1
    assert "Cat: stored mu=30.0 sigma=" in capsys.readouterr().out

    call_command("ratings_recompute", "nacho_pile", "--write")
    assert "4 ratings equal a recompute from scratch" in capsys.readouterr().out


def test_recompute_command_refuses_an_unknown_game_with_status_2(db):
    with pytest.raises(CommandError, match="unknown game 'go'") as failure:
        call_command("ratings_recompute", "go")
    assert failure.value.returncode == 2
