"""A match whose workers are lost: the reaper hands it back to be played again, but the third time its lease
expires it is voided ("the worker was lost 3 times"), not played again, and its external seats' authors and
staff are told. Nothing here plays an external program: the workers that hold the leases are made up, and
the work the reaper queues is not run (with tasks eager, it would play the match at once)."""

import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.core import mail
from django.utils import timezone

from league.bots.models import BotLeague, Challenge, ChallengeMatch, Fixture
from league.bots.services import leases
from league.bots.services.challenges import challenge_create
from league.bots.services.definitions import bot_register
from league.bots.services.leagues import league_start
from league.bots.services.leases import league_kind, leases_claim, leases_reap
from league.bots.services.work import work_claim, work_play
from league.celery import app
from league.matches.models import Match
from league.notifications.models import Notification
from league.ratings.models import RatingHistory
from league.results.models import ResultVersion
from league.results.services import result_void
from tests.factories import StaffFactory, UserFactory
from tests.league.bots.conftest import make_bots, make_league

pytestmark = pytest.mark.django_db

PROGRAM = [sys.executable, str(Path(__file__).parent / "programs" / "first_legal.py")]
LOST = "the worker was lost 3 times"


@pytest.fixture
def eager(monkeypatch):
    """Tasks run at once in this process, as a worker would run them; but no play task is queued."""
    monkeypatch.setattr(leases, "queue_work", lambda league_id, tasks: None)
    monkeypatch.setattr(leases, "queue_challenge_work", lambda tasks: None)
    before = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, False
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = before


@pytest.fixture
def people(db):
    """An operator (staff), two bot authors and a bystander, all with mail addresses."""
    users = {"operator": StaffFactory(username="operator", email="operator@example.com")}
    for name in ("author", "rival", "bystander"):
        users[name] = UserFactory(username=name, email=f"{name}@example.com")
    return users


def external_bot(name: str, author, staff):
    """An external program's bot registered by staff, its author `author` (as an upload would make it)."""
    bot = bot_register(name=name, game_id="nacho_pile", kind="external", command=PROGRAM, by=staff)
    bot.created_by = author
    bot.save(update_fields=["created_by"])
    return bot


def inbox(username: str) -> list[tuple[str, str, str]]:
    notes = Notification.objects.filter(user__username=username).order_by("id")
    return list(notes.values_list("kind", "text", "link"))


def lose_the_worker(claim, *, seconds: int = 31) -> int:
    """A worker claims (`claim(token)`) and dies: the reaper runs once its lease is over."""
    claim(f"dead-{timezone.now().timestamp()}")
    return leases_reap(now=timezone.now() + timedelta(seconds=seconds))


def test_a_fixture_whose_lease_expired_three_times_is_voided_not_retried_and_its_author_and_staff_told(
    eager, people, django_capture_on_commit_callbacks, client
):
    staff = people["operator"]
    prober = external_bot("Prober", people["author"], staff)
    # Three bots at tables of three: every table seats Prober.
    league = make_league(staff, [prober, *make_bots(staff)[:2]], name="Nacho season", lease_seconds=30)
    league_start(league_id=league.pk)
    league = BotLeague.objects.get(pk=league.pk)
    first = Fixture.objects.filter(league=league).order_by("position").first()

    def claim(token):
        claimed = leases_claim(
            league_kind(league),
            owner_id=league.pk,
            seconds=league.lease_seconds,
            token=token,
            limit=1,
            least=1,
        )
        assert [fixture.id for fixture in claimed] == [first.pk]  # the same fixture, back each time

    with django_capture_on_commit_callbacks(execute=True):
        handed_back = [lose_the_worker(claim), lose_the_worker(claim)]
    first.refresh_from_db()
    assert handed_back == [1, 1]
    assert (first.done, first.leases_lost, first.attempts, first.lease_token) == (False, 2, 2, "")
    assert Match.objects.get(pk=first.match_id).status == Match.Status.SCHEDULED
    assert not Notification.objects.exists()

    with django_capture_on_commit_callbacks(execute=True):
        assert lose_the_worker(claim) == 0  # voided, not handed back

    first.refresh_from_db()
    match = Match.objects.get(pk=first.match_id)
    assert (first.done, first.leases_lost, first.lease_token, first.lease_expires_at) == (True, 3, "", None)
    assert match.status == Match.Status.VOID
    versions = ResultVersion.objects.filter(match=match)
    assert list(versions.values_list("version", "void", "reason", "entered_by")) == [(1, True, LOST, None)]
    # Not played again: the next claim takes the next fixture, and a worker plays the others but not it.
    assert (
        leases_claim(
            league_kind(league),
            owner_id=league.pk,
            seconds=league.lease_seconds,
            token="alive",
            limit=1,
            least=1,
        )[0].id
        != first.pk
    )
    assert not Fixture.objects.filter(pk=first.pk, lease_token="alive").exists()
    text = f"Match {match.pk} of \u2068Nacho season\u2069 (\u2068Prober\u2069) was voided: {LOST}."
    link = f"/bots/{league.pk}/"
    assert inbox("author") == [("bot_match_voided", text, link)]
    assert inbox("operator") == [("bot_match_voided", text, link)]
    assert inbox("rival") == inbox("bystander") == []
    assert sorted((message.to, message.subject) for message in mail.outbox) == [
        (["author@example.com"], f"Pecking Order: {text}"),
        (["operator@example.com"], f"Pecking Order: {text}"),
    ]
    # Shown where the fixture's state is: the league's matches in the API, and the match's page.
    rows = client.get(f"/api/bot-leagues/{league.pk}/matches/").json()["results"]
    assert [(row["match"], row["status"], row["void_reason"], row["leases_lost"]) for row in rows[:2]] == [
        (match.pk, "void", LOST, 3),
        (rows[1]["match"], "running", "", 0),
    ]
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert '<span class="badge void">Void</span>' in page
    assert f"<td>{LOST}</td>" in page


def test_a_challenge_match_whose_lease_expired_three_times_is_voided_and_the_challenge_finishes(
    eager, people, django_capture_on_commit_callbacks, client
):
    staff = people["operator"]
    prober = external_bot("Prober", people["author"], staff)
    rival = external_bot("Rival", people["rival"], staff)
    builtin = make_bots(staff)[1]
    challenge = challenge_create(
        bot_id=prober.pk, opponent_ids=[rival.pk, builtin.pk], matches=2, seed=3, by=people["author"]
    )
    game = ChallengeMatch.objects.get(challenge=challenge, index=0)

    def claim(token):
        claimed = work_claim(token=token, limit=1, leagues=False)
        assert [row.id for row in claimed.games] == [game.pk]

    with django_capture_on_commit_callbacks(execute=True):
        assert [lose_the_worker(claim), lose_the_worker(claim)] == [1, 1]
        assert lose_the_worker(claim) == 0

    game.refresh_from_db()
    assert (game.done, game.leases_lost, game.match.status) == (True, 3, Match.Status.VOID)
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.QUEUED  # its second match is still to play
    text = (
        f"Match {game.match_id} of \u2068challenge #{challenge.pk}\u2069"
        f" (\u2068Prober\u2069, \u2068Rival\u2069) was voided: {LOST}."
    )
    assert inbox("author") == [("bot_match_voided", text, f"/bots/challenges/{challenge.pk}/")]
    assert inbox("operator") == [("bot_match_voided", text, f"/bots/challenges/{challenge.pk}/")]
    # The rival's author may not see the challenge: their bot's page instead.
    assert inbox("rival") == [("bot_match_voided", text, f"/bots/bots/{rival.pk}/")]
    assert inbox("bystander") == []

    client.force_login(people["author"])
    page = client.get(f"/bots/challenges/{challenge.pk}/").content.decode()
    assert f'<span class="badge void">void</span> {LOST}' in page
    assert '<span id="played">0</span> of 2 matches played, <span id="voided">1</span> void' in page
    rows = client.get(f"/api/challenges/{challenge.pk}/").json()["matches"]
    assert [(row["index"], row["status"], row["void_reason"], row["leases_lost"]) for row in rows] == [
        (0, "void", LOST, 3),
        (1, "scheduled", "", 0),
    ]

    # The last match lost three times as well: nothing is left to play, so the challenge is finished.
    last = ChallengeMatch.objects.get(challenge=challenge, index=1)

    def claim_last(token):
        assert [row.id for row in work_claim(token=token, limit=1, leagues=False).games] == [last.pk]

    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            lose_the_worker(claim_last)
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.FINISHED
    assert work_claim(token="alive", leagues=False).games == []


def test_a_fixture_reaped_once_or_twice_is_played_again_and_counts(staff):
    league = make_league(staff, make_bots(staff), lease_seconds=30)
    league_start(league_id=league.pk)
    league = BotLeague.objects.get(pk=league.pk)
    claimed = leases_claim(
        league_kind(league),
        owner_id=league.pk,
        seconds=league.lease_seconds,
        token="dead-1",
        limit=3,
        least=3,
    )
    leases_reap(now=timezone.now() + timedelta(seconds=31))
    leases_claim(
        league_kind(league),
        owner_id=league.pk,
        seconds=league.lease_seconds,
        token="dead-2",
        limit=1,
        least=1,
    )
    leases_reap(now=timezone.now() + timedelta(seconds=31))

    work_play(league_id=league.pk, worker="alive")

    fixtures = Fixture.objects.filter(pk__in=[fixture.id for fixture in claimed]).order_by("position")
    assert [(fixture.done, fixture.leases_lost) for fixture in fixtures] == [(True, 2), (True, 1), (True, 1)]
    assert [fixture.match.status for fixture in fixtures] == [Match.Status.FINISHED] * 3
    assert not ResultVersion.objects.filter(void=True).exists()
    assert BotLeague.objects.get(pk=league.pk).status == BotLeague.Status.FINISHED


def test_a_league_goes_on_past_its_voided_fixture_and_rates_every_match_but_it(staff):
    league = make_league(staff, make_bots(staff), lease_seconds=30)
    league_start(league_id=league.pk)
    league = BotLeague.objects.get(pk=league.pk)
    first = Fixture.objects.filter(league=league).order_by("position").first()
    for dead in range(3):
        claimed = leases_claim(
            league_kind(league),
            owner_id=league.pk,
            seconds=league.lease_seconds,
            token=f"dead-{dead}",
            limit=1,
            least=1,
        )
        assert [fixture.id for fixture in claimed] == [first.pk]
        leases_reap(now=timezone.now() + timedelta(seconds=31))

    work_play(league_id=league.pk, worker="alive")

    league.refresh_from_db()
    statuses = list(
        Fixture.objects.filter(league=league).order_by("position").values_list("match__status", flat=True)
    )
    assert league.status == BotLeague.Status.FINISHED
    assert (len(statuses), statuses[0], statuses[1:]) == (12, "void", ["finished"] * 11)
    assert not RatingHistory.objects.filter(match_id=first.match_id).exists()
    rated = RatingHistory.objects.filter(match__bot_fixture__league=league).values("match").distinct()
    assert rated.count() == 11


def test_a_match_staff_voided_meanwhile_keeps_their_void_when_its_lease_expires_the_third_time(
    eager, people, django_capture_on_commit_callbacks
):
    staff = people["operator"]
    league = make_league(staff, make_bots(staff)[:3], lease_seconds=30)
    league_start(league_id=league.pk)
    league = BotLeague.objects.get(pk=league.pk)
    first = Fixture.objects.filter(league=league).order_by("position").first()

    def claim(token):
        leases_claim(
            league_kind(league),
            owner_id=league.pk,
            seconds=league.lease_seconds,
            token=token,
            limit=1,
            least=1,
        )

    with django_capture_on_commit_callbacks(execute=True):
        lose_the_worker(claim)
        lose_the_worker(claim)
        claim("dead-3")
        result_void(match_id=first.match_id, entered_by=staff, reason="drawn by mistake")
        assert leases_reap(now=timezone.now() + timedelta(seconds=31)) == 0

    first.refresh_from_db()
    versions = ResultVersion.objects.filter(match_id=first.match_id)
    assert (first.done, first.leases_lost) == (True, 3)
    assert list(versions.values_list("version", "reason", "entered_by")) == [
        (1, "drawn by mistake", staff.pk)
    ]
    assert not Notification.objects.exists()
