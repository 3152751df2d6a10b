"""Strict verification in the league: once per stored bot match, leased work of the workers; the verdict on
the replay page, the match page and in the API."""

from __future__ import annotations

from unittest import mock

import pytest
from django.urls import reverse

from games.core.encoding import canonical_json
from games.core.runner import SeatPlayer, play_match
from league.bots.models import Fixture, VerificationWork
from league.bots.services.leagues import league_start
from league.bots.services.work import FairShare, work_play, work_shared
from league.matches.models import Match, Verification
from league.matches.services import matches_unverified
from league.matches.tasks import verify_matches_task, verify_unverified_task
from tests.factories import MatchFactory
from tests.games.test_verify import Outsider, legal, mutations
from tests.league.bots.conftest import make_bots, make_league

pytestmark = pytest.mark.django_db


@pytest.fixture
def no_broker():
    with mock.patch("league.bots.services.leagues.queue_work"):
        yield


def played_league(staff, *, capture=None):
    league = make_league(staff, make_bots(staff), target_value=1)
    league_start(league_id=league.pk)
    work_play(league_id=league.pk, worker="test")
    return league


def match_ids(league) -> list[int]:
    return sorted(Fixture.objects.filter(league=league).values_list("match_id", flat=True))


def store(match: Match, record: dict) -> None:
    match.record = Match.compress_record(record)
    match.save(update_fields=["record"])


def test_every_stored_bot_match_is_leased_for_verification_once_and_verified_by_the_workers(
    staff, no_broker, django_capture_on_commit_callbacks
):
    with (
        mock.patch.object(verify_matches_task, "apply_async") as send,
        django_capture_on_commit_callbacks(execute=True),
    ):
        league = played_league(staff)
    ids = match_ids(league)
    assert send.call_args_list == []  # no task of its own: leased work
    rows = VerificationWork.objects.order_by("match_id")
    assert list(rows.values_list("match_id", "done", "lease_token")) == [(pk, False, "") for pk in ids]
    assert matches_unverified() == []  # the sweep leaves them to the leased kind

    assert work_shared(worker="verifier", fair=FairShare()) == {"verification": len(ids)}
    verdicts = Verification.objects.filter(match_id__in=ids)
    assert sorted(verdicts.values_list("match_id", "status")) == [(pk, "verified") for pk in ids]
    assert all(v.not_remade == [] and v.summary() == "verified" for v in verdicts)
    assert list(rows.values_list("done", "lease_token", "attempts")) == [(True, "", 1)] * len(ids)
    assert set(rows.values_list("played_by", flat=True)) != {""}
    # Nothing left: a second pass verifies nothing again.
    assert work_shared(worker="verifier", fair=FairShare()) == {}
    # The task stays idempotent for a match verified again by hand.
    assert verify_matches_task(ids) == len(ids)
    assert Verification.objects.filter(match_id__in=ids).count() == len(ids)


def test_the_replay_and_match_pages_say_verified(client, staff, no_broker):
    league = played_league(staff)
    match_id = match_ids(league)[0]
    replay_url = reverse("bots:replay", args=[match_id])

    assert "Verification pending" in client.get(replay_url).content.decode()
    verify_matches_task([match_id])

    for url in (replay_url, f"/matches/{match_id}/"):
        page = client.get(url).content.decode()
        assert '<section class="verification verified"' in page
        assert (
            "<strong>✓ Verified</strong>: every chance outcome was drawn again from the match's seed and"
            in page
        )
        assert "not re-made" not in page


def test_a_tampered_record_is_rejected_naming_the_event_on_the_page_and_in_the_api(client, staff, no_broker):
    league = played_league(staff)
    match = Match.objects.get(pk=match_ids(league)[0])
    record = match.record_json()
    index, seat, changed = next(m for m in mutations(record, limit=1) if m[1] is not None and legal(m[2]))
    store(match, changed)

    verify_matches_task([match.pk])

    verdict = Verification.objects.get(match=match)
    assert (verdict.status, verdict.event, verdict.seat) == ("rejected", index, seat)
    recorded = canonical_json(changed["events"][index][1][str(seat)])
    remade = canonical_json(record["events"][index][1][str(seat)])
    page = client.get(reverse("bots:replay", args=[match.pk])).content.decode()
    label = changed["seats"][seat]["bot"]
    text = f"Rejected: event {index + 1}, seat {seat + 1}: re-made {remade}, recorded {recorded}"
    assert text.replace('"', "&quot;") in page
    assert (
        f'href="{reverse("bots:replay", args=[match.pk])}?step={index}">the table just before it</a>' in page
    )

    body = client.get(f"/api/matches/{match.pk}/").json()
    assert body["verification"]["status"] == "rejected"
    assert (body["verification"]["event"], body["verification"]["seat"]) == (index, seat)
    assert (
        body["verification"]["summary"]
        == f"rejected: event {index}: seat {seat} ({label}): re-made {remade}, recorded {recorded}"
    )


def test_an_old_record_without_bot_versions_is_not_verifiable(client, staff, no_broker):
    league = played_league(staff)
    match = Match.objects.get(pk=match_ids(league)[0])
    record = match.record_json()
    for entry in record["seats"]:
        del entry["version"]
    store(match, record)

    verify_matches_task([match.pk])

    page = client.get(reverse("bots:replay", args=[match.pk])).content.decode()
    assert "<strong>Not verifiable: no bot versions recorded</strong>" in page
    assert client.get(f"/api/matches/{match.pk}/").json()["verification"]["summary"] == (
        "not verifiable: no bot versions recorded"
    )


def test_an_external_seat_is_listed_as_not_remade(client, staff, no_broker):
    league = played_league(staff)
    match = Match.objects.get(pk=match_ids(league)[0])
    outside = SeatPlayer(
        "external",
        {"definition": "Program v2"},
        make=lambda game, seat, n, options, rng: Outsider(game, seat, n, options, None, rng),
        external={"definition": "Program", "version": 2},
    )
    store(match, play_match("nacho_pile", 3, ["heuristic", outside, "random"], seed=5))

    verify_matches_task([match.pk])

    page = client.get(reverse("bots:replay", args=[match.pk])).content.decode()
    assert "<strong>✓ Verified</strong>" in page
    assert "every decision of the other built-in bot was made again by the same version" in page
    assert (
        "<li>Seat 2 not re-made (external program Program v2): its decisions were checked for legality "
        "only.</li>" in page
    )
    api = client.get(f"/api/matches/{match.pk}/").json()["verification"]
    assert api["not_remade"] == [{"seat": 1, "why": "external program Program v2"}]


def test_an_unreadable_stored_record_is_not_verifiable_and_other_matches_still_get_theirs(staff, no_broker):
    league = played_league(staff)
    first, second = match_ids(league)[:2]
    Match.objects.filter(pk=first).update(record=b"not zlib")

    assert verify_matches_task([first, second]) == 2

    bad = Verification.objects.get(match_id=first)
    assert bad.status == "not_verifiable"
    assert bad.reason.startswith("the stored record is not readable: ")
    assert Verification.objects.get(match_id=second).status == "verified"


def test_the_sweep_queues_stored_records_without_a_verdict_but_not_the_bots_leased_ones(staff, no_broker):
    league = played_league(staff)
    record = Match.objects.get(pk=match_ids(league)[0]).record_json()
    casual = [MatchFactory(rated=False) for _ in range(3)]  # not a bot league's: no leased verification
    for match in casual:
        store(match, record)
    ids = [match.pk for match in casual]
    verify_matches_task(ids[:1])
    with mock.patch.object(verify_matches_task, "delay") as send:
        assert verify_unverified_task() == 2
    assert [call.args[0] for call in send.call_args_list] == [ids[1:]]


def test_a_match_without_a_record_has_no_verification(client, staff, no_broker):
    league = played_league(staff)
    match = Match.objects.get(pk=match_ids(league)[0])
    Match.objects.filter(pk=match.pk).update(record=None)
    assert verify_matches_task([match.pk]) == 0
    assert client.get(f"/api/matches/{match.pk}/").json()["verification"] is None
    assert "Verification" not in client.get(f"/matches/{match.pk}/").content.decode()
