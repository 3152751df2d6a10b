"""The workers' fair share: work is played in slices (at most 10 s or 50 matches), the next slice to the
kind served least for its share; a challenge is served while a staff league with many matches is pending.
The slices are measured by a clock of the test's own (one tick a reading): nothing here depends on time."""

from itertools import count

import pytest
from django.urls import reverse

from league.bots.models import Challenge, Fixture
from league.bots.services import leases, work
from league.bots.services.challenges import challenge_create
from league.bots.services.definitions import bot_register
from league.bots.services.leagues import league_start
from league.bots.services.work import SHARES, FairShare, work_shared
from tests.league.bots.conftest import make_bots, make_league

pytestmark = pytest.mark.django_db


def ticking() -> FairShare:
    ticks = count()
    return FairShare(clock=lambda: float(next(ticks)))


@pytest.fixture
def no_tasks(monkeypatch):
    monkeypatch.setattr("league.bots.services.leagues.queue_work", lambda league_id, tasks: None)
    monkeypatch.setattr(leases, "queue_work", lambda league_id, tasks: None)
    monkeypatch.setattr(leases, "queue_challenge_work", lambda tasks: None)
    monkeypatch.setattr(work, "queue_challenge_work", lambda tasks: None)


@pytest.fixture
def mine(staff, member):
    bot = bot_register(
        name="Member's bot", game_id="nacho_pile", kind="builtin", strategy="heuristic", params={}, by=staff
    )
    bot.created_by = member
    bot.save(update_fields=["created_by"])
    return bot


def test_a_challenge_is_served_while_a_staff_league_with_many_matches_is_pending(
    staff, member, mine, no_tasks, monkeypatch, client
):
    monkeypatch.setattr(work, "SLICE_MATCHES", 6)
    bots = make_bots(staff)
    league = make_league(staff, bots, sittings_per_round=20, batch_size=50, commit_every=10)
    league_start(league_id=league.pk)
    fixtures = Fixture.objects.filter(league=league)
    assert fixtures.filter(done=False).count() == 40
    fair = ticking()

    assert work_shared(worker="w", fair=fair, max_slices=1) == {"league": 6}  # the only work: a slice of it
    challenge = challenge_create(bot_id=mine.pk, opponent_ids=[bots[0].pk], matches=5, seed=9, by=member)
    client.force_login(member)
    page = client.get(reverse("bots:challenge", args=[challenge.pk])).content.decode()
    assert '<span id="ahead">next in line</span>' in page

    assert work_shared(worker="w", fair=fair, max_slices=1) == {"challenge": 5}
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.FINISHED
    assert fixtures.filter(done=False).count() == 34  # the league waits its turn, not the challenge
    assert fixtures.filter(done=True).count() == 6


def test_matches_ahead_of_a_challenge_are_the_earlier_challenges_open_ones(
    staff, member, mine, no_tasks, client
):
    bots = make_bots(staff)
    first = challenge_create(bot_id=mine.pk, opponent_ids=[bots[0].pk], matches=7, seed=1, by=member)
    second = challenge_create(bot_id=mine.pk, opponent_ids=[bots[1].pk], matches=3, seed=2, by=member)
    client.force_login(member)
    page = client.get(reverse("bots:challenge", args=[second.pk])).content.decode()
    assert '<span id="ahead">7 matches of earlier challenges ahead of it</span>' in page
    assert work_shared(worker="w", fair=ticking()) == {"challenge": 10, "verification": 10}
    first.refresh_from_db()
    assert first.status == Challenge.Status.FINISHED
    page = client.get(reverse("bots:challenge", args=[second.pk])).content.decode()
    assert 'id="ahead"' not in page


def test_the_least_served_kind_for_its_share_gets_the_next_slice():
    fair = FairShare(clock=lambda: 0.0)
    assert fair.pick(["league"]) == "league"
    fair.charge("league", 20.0)  # 20 s for a share of 2: 10 a share
    # Kinds that arrive start level with the league (10 a share): ties go in the shares' order.
    assert fair.pick(["league", "challenge", "verification"]) == "challenge"
    assert fair.served == {"league": 20.0, "challenge": 40.0, "verification": 10.0}
    fair.charge("challenge", 8.0)  # 12 a share
    assert fair.pick(["league", "challenge", "verification"]) == "league"
    fair.charge("league", 2.0)  # 11 a share
    assert fair.pick(["league", "challenge", "verification"]) == "verification"
    fair.charge("verification", 4.0)  # 14 a share
    assert fair.pick(["league", "challenge", "verification"]) == "league"


def test_a_kind_registered_later_is_scheduled_with_its_share_or_the_default():
    assert SHARES["validation"] == 4  # reserved for new versions' validation and upload checks
    fair = FairShare(clock=lambda: 0.0)
    assert fair.pick(["ladder", "validation"]) == "validation"
    fair.charge("validation", 40.0)
    fair.charge("ladder", 3.0)
    assert fair.pick(["ladder", "validation", "future"]) == "ladder"
    assert fair.share("future") == 1
    fair.charge("ladder", 60.0)  # 21 a share; the future kind started level at 1
    assert fair.pick(["ladder", "validation", "future"]) == "future"


def test_a_quiet_kind_earns_no_monopoly_when_its_work_comes_back():
    fair = FairShare(clock=lambda: 0.0)
    fair.pick(["challenge"])
    fair.charge("challenge", 4.0)  # 1 a share
    fair.pick(["league"])  # the challenges are all played
    fair.charge("league", 200.0)  # 100 a share
    # Challenges come back: they start level with the league, not 99 shares behind it.
    assert fair.pick(["league", "challenge"]) == "challenge"
    assert fair.served["challenge"] == 400.0


def test_a_scheduled_ladder_due_for_its_next_round_is_ticked_between_slices(staff, no_tasks):
    from datetime import timedelta

    from league.bots.models import BotLeague, LeagueRound
    from league.bots.services.ladders import ladder_create, ladder_enter
    from league.bots.services.leagues import leagues_tick_due

    ladder = ladder_create(
        name="Paced",
        game_id="nacho_pile",
        table_size=3,
        sittings_per_round=1,
        pace="scheduled",
        interval_seconds=5,
        by=None,
    )
    for bot in make_bots(staff)[:3]:
        ladder_enter(ladder_id=ladder.pk, bot_id=bot.pk, by=None)
    league_start(league_id=ladder.pk)
    drawn = LeagueRound.objects.get(league=ladder).drawn_at
    assert leagues_tick_due(now=drawn + timedelta(seconds=60)) == []  # its round is still to play
    assert work_shared(worker="w", fair=ticking(), max_slices=1) == {"ladder": 1}
    assert leagues_tick_due(now=drawn + timedelta(seconds=4)) == []  # played, but not yet due
    assert leagues_tick_due(now=drawn + timedelta(seconds=5)) == [ladder.pk]
    assert BotLeague.objects.get(pk=ladder.pk).current_round == 2
    assert Fixture.objects.filter(league=ladder, done=False).count() == 1
