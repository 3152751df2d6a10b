"""The leased-work pipeline claims, stores and hands back work kind by kind: a league's fixtures, a ladder's
fixtures and challenge matches, each through the same claim over the same lease columns."""

from unittest import mock

import pytest

from league.bots.models import ChallengeMatch, Fixture
from league.bots.services.challenges import challenge_create
from league.bots.services.ladders import ladder_create, ladder_enter
from league.bots.services.leagues import league_start
from league.bots.services.leases import (
    Kind,
    Played,
    leases_claim,
    leases_release,
    leases_store,
    open_owner,
)
from league.matches.models import Match
from league.ratings.models import PendingRatingUpdate, Rating
from league.ratings.services import pool_rate
from league.ratings.tasks import pool_update_task
from tests.league.bots.conftest import make_bots, make_league

pytestmark = pytest.mark.django_db


def record(seats: int) -> dict:
    """A played match's record as the store reads it: seats, outcome (seat 1 first) and forfeits (none)."""
    return {
        "seats": [{}] * seats,
        "outcome": {"places": list(range(1, seats + 1)), "scores": list(range(seats, 0, -1))},
        "end": {"reason": "normal", "forfeits": []},
    }


@pytest.fixture
def three_kinds(staff):
    """A running league (two fixtures open), a running ladder (one) and a queued challenge (three matches)."""
    bots = make_bots(staff)
    with mock.patch("league.bots.services.leagues.queue_work"):
        league = make_league(staff, bots[:3], target_value=1, sittings_per_round=2)
        league_start(league_id=league.pk)
        ladder = ladder_create(
            name="Ladder",
            game_id="nacho_pile",
            table_size=3,
            sittings_per_round=1,
            by=staff,
            pace="scheduled",
        )
        for bot in bots[:3]:
            ladder_enter(ladder_id=ladder.pk, bot_id=bot.pk, by=staff)
        league_start(league_id=ladder.pk)
    with mock.patch("league.bots.services.challenges.queue_challenge_work"):
        challenge = challenge_create(
            bot_id=bots[3].pk, opponent_ids=[bots[4].pk], matches=3, seed=1, by=staff
        )
    return league, ladder, challenge


def test_work_is_found_and_claimed_per_kind(three_kinds):
    league, ladder, challenge = three_kinds

    assert (open_owner([Kind.LEAGUE]), open_owner([Kind.LADDER]), open_owner([Kind.CHALLENGE])) == (
        league.pk,
        ladder.pk,
        challenge.pk,
    )
    assert open_owner([Kind.LEAGUE, Kind.LADDER]) == league.pk  # the lowest id of either kind

    games = leases_claim(Kind.CHALLENGE, token="c", seconds=30, limit=2)
    fixtures = leases_claim(Kind.LADDER, token="l", seconds=30, limit=5, least=1, owner_id=ladder.pk)

    assert [(row.position, row.game_id) for row in games] == [(0, "nacho_pile"), (1, "nacho_pile")]
    assert list(ChallengeMatch.objects.filter(lease_token="c").order_by("index").values_list("index")) == [
        (0,),
        (1,),
    ]
    assert [row.id for row in fixtures] == list(
        Fixture.objects.filter(league=ladder).values_list("id", flat=True)
    )
    assert not Fixture.objects.filter(league=league).exclude(lease_token="").exists()
    assert Match.objects.filter(status=Match.Status.RUNNING).count() == 3


def test_one_store_and_one_release_serve_every_kind(three_kinds):
    league, ladder, challenge = three_kinds
    games = leases_claim(Kind.CHALLENGE, token="c", seconds=30, limit=3)
    fixtures = leases_claim(Kind.LEAGUE, token="f", seconds=30, limit=2, owner_id=league.pk)

    assert (
        leases_store(
            Kind.CHALLENGE, token="other", played=[Played(games[0].id, games[0].match_id, record(2), 0.1)]
        )
        == 0
    )
    stored = leases_store(
        Kind.CHALLENGE, token="c", played=[Played(row.id, row.match_id, record(2), 0.1) for row in games]
    )
    released = leases_release(token="f")

    challenge.refresh_from_db()
    assert (stored, challenge.status) == (3, "finished")
    assert not PendingRatingUpdate.objects.filter(match_id__in=[row.match_id for row in games]).exists()
    assert released == len(fixtures) == 2
    assert list(Fixture.objects.filter(league=league).values_list("lease_token", "done")) == [("", False)] * 2
    assert set(Match.objects.filter(bot_fixture__league=league).values_list("status", flat=True)) == {
        Match.Status.SCHEDULED
    }


def test_a_pool_is_rated_through_one_entry_point_whatever_its_kind(
    three_kinds, django_capture_on_commit_callbacks
):
    league, ladder, challenge = three_kinds
    fixtures = leases_claim(Kind.LEAGUE, token="f", seconds=30, limit=2, owner_id=league.pk)
    leases_store(
        Kind.LEAGUE,
        token="f",
        played=[Played(row.id, row.match_id, record(3), 0.1) for row in fixtures],
        pool_id=league.rating_pool_id,
    )
    pending = list(PendingRatingUpdate.objects.filter(pool_id=league.rating_pool_id).values_list("match_id"))
    assert pending == [(fixtures[0].match_id,)]  # marked once, from its earliest match

    with (
        mock.patch.object(pool_update_task, "apply_async") as queued,
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert pool_rate(pool_id=league.rating_pool_id) == 0  # queued after the commit, not applied here
        assert pool_rate(pool_id=league.rating_pool_id) == 0
    assert [call.args[0] for call in queued.call_args_list] == [
        (league.rating_pool_id,)
    ]  # once a transaction
    pending = list(PendingRatingUpdate.objects.filter(pool_id=league.rating_pool_id).values_list("match_id"))
    assert pending == [(fixtures[0].match_id,)]  # marked once, from its earliest match

    assert pool_rate(pool_id=league.rating_pool_id, now=True) == 2
    assert not PendingRatingUpdate.objects.filter(pool_id=league.rating_pool_id).exists()
    assert sorted(Rating.objects.filter(pool_id=league.rating_pool_id).values_list("matches", flat=True)) == [
        2,
        2,
        2,
    ]
