"""Strict verification is a leased kind like the matches: claimed, renewed, released and reaped through the
same functions; an expired lease is reclaimed, and the third expiry gives up with a verdict that says so
(the match itself stands)."""

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from league.bots.models import VerificationWork
from league.bots.services import leases
from league.bots.services.leagues import league_start
from league.bots.services.leases import (
    KINDS,
    Kind,
    leases_claim,
    leases_reap,
    leases_release,
    leases_renew,
    verifications_store,
)
from league.bots.services.work import FairShare, work_play, work_shared
from league.matches.models import Match, Verification
from league.matches.services import verifications_make
from tests.league.bots.conftest import make_bots, make_league

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(staff, monkeypatch):
    """A league of 4 stored matches, each with an open verification row; no task is queued."""
    monkeypatch.setattr(leases, "queue_work", lambda league_id, tasks: None)
    monkeypatch.setattr(leases, "queue_challenge_work", lambda tasks: None)
    with mock.patch("league.bots.services.leagues.queue_work"):
        league = make_league(staff, make_bots(staff), target_value=1)
        league_start(league_id=league.pk)
        work_play(league_id=league.pk, worker="player")
    return sorted(VerificationWork.objects.values_list("match_id", flat=True))


def claim(token: str, limit: int = 50):
    return leases_claim(Kind.VERIFICATION, token=token, seconds=30, limit=limit)


def test_verification_is_a_registered_kind_claimed_in_order_and_not_twice(played):
    assert KINDS[Kind.VERIFICATION].model is VerificationWork
    first = claim("w1", limit=3)
    assert [row.match_id for row in first] == played[:3]
    assert [row.match_id for row in claim("w2")] == played[3:]
    assert claim("w3") == []
    assert Match.objects.filter(pk__in=played, status="finished").count() == 4  # claiming leaves matches be


def test_a_verification_batch_renews_and_releases_through_the_shared_functions(played):
    claim("w1", limit=2)
    assert leases_renew(token="w1", seconds=30) == 2
    assert leases_release(token="w1") == 2
    assert list(VerificationWork.objects.filter(lease_token="").values_list("match_id", flat=True)) == played
    assert [row.match_id for row in claim("w2", limit=1)] == played[:1]


def test_an_expired_verification_lease_is_reclaimed_and_verified_by_another_worker(played):
    claim("dead")
    assert leases_reap(now=timezone.now() + timedelta(seconds=31)) == 4
    assert VerificationWork.objects.filter(lease_token="", leases_lost=1, done=False).count() == 4
    again = claim("alive")
    ids = [row.match_id for row in again]
    assert ids == played
    assert verifications_store(token="dead", match_ids=ids, verdicts=verifications_make(match_ids=ids)) == 0
    assert verifications_store(token="alive", match_ids=ids, verdicts=verifications_make(match_ids=ids)) == 4
    assert (
        list(Verification.objects.order_by("match_id").values_list("status", flat=True)) == ["verified"] * 4
    )
    assert set(VerificationWork.objects.values_list("done", "played_by")) == {(True, "alive")}


def test_the_third_lost_verification_gives_up_with_a_verdict_and_leaves_the_match_counted(played):
    for attempt in range(3):
        claim(f"dead-{attempt}", limit=1)
        leases_reap(now=timezone.now() + timedelta(seconds=31))
    row = VerificationWork.objects.get(match_id=played[0])
    assert (row.done, row.leases_lost, row.lease_token) == (True, 3, "")
    verdict = Verification.objects.get(match_id=played[0])
    assert verdict.summary() == "not verifiable: its verification was lost with its worker 3 times"
    assert Match.objects.get(pk=played[0]).status == "finished"  # not voided, unlike a lost match
    assert VerificationWork.objects.filter(done=False).count() == 3


def test_a_verifier_that_raises_leaves_a_verdict_saying_so_not_a_row_leased_forever(played):
    claim("w1", limit=1)
    assert verifications_store(token="w1", match_ids=played[:1], verdicts=[]) == 1
    assert Verification.objects.get(match_id=played[0]).summary() == (
        "not verifiable: the verifier failed on this record (logged for staff)"
    )


def test_the_shared_loop_verifies_only_what_is_left_after_a_cut(played):
    claim("other", limit=2)  # another worker holds two
    assert work_shared(worker="me", fair=FairShare()) == {"verification": 2}
    assert set(Verification.objects.values_list("match_id", flat=True)) == set(played[2:])
