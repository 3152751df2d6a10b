"""Is v2 better than v1? An author's sequential test of two versions of a bot, played by the workers'
loop in the challenges' share: the stronger version is called better, with its pairs and counts."""

from __future__ import annotations

import pytest

from league.bots import sprt
from league.bots.models import BotDefinition, VersionTest, VersionTestMatch
from league.bots.services import leases, work
from league.bots.services.challenges import OPEN_PER_USER, challenge_create
from league.bots.services.definitions import bot_player_create, bot_register
from league.bots.services.version_tests import pair_seats, version_test_create
from league.bots.services.work import FairShare, work_shared
from league.core.errors import Forbidden, UserError
from league.matches.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def no_tasks(monkeypatch):
    monkeypatch.setattr(leases, "queue_challenge_work", lambda tasks: None)
    monkeypatch.setattr(work, "queue_challenge_work", lambda tasks: None)
    monkeypatch.setattr("league.bots.services.version_tests.queue_challenge_work", lambda tasks: None)


def versions(author, staff, *, v1="random", v2="heuristic", game_id="nacho_pile", name="Hen"):
    """Versions 1 and 2 of a bot of `author`'s: built-in strategies stand in for their programs."""
    first = bot_register(name=name, game_id=game_id, kind="builtin", strategy=v1, by=staff)
    first.created_by = author
    first.save(update_fields=["created_by"])
    second = BotDefinition.objects.create(
        name=name,
        version=2,
        game_id=game_id,
        kind="builtin",
        strategy=v2,
        params={},
        previous=first,
        created_by=author,
        player=bot_player_create(name=name, version=2, author=author),
    )
    return first, second


def play_all(limit=200):
    fair = FairShare()
    for _ in range(limit):
        if not work_shared(worker="w", fair=fair, max_slices=1):
            return


def test_pairs_swap_v1_and_v2_in_one_seat_and_turn_the_seat_each_pair():
    order = [1, 2, 30]
    assert pair_seats(order, 0, 0) == [1, 2, 30]
    assert pair_seats(order, 0, 1) == [2, 1, 30]
    assert pair_seats(order, 1, 0) == [30, 1, 2]
    assert pair_seats(order, 1, 1) == [30, 2, 1]
    assert pair_seats(order, 2, 0) == [2, 30, 1]
    assert pair_seats(order, 3, 1) == [2, 1, 30]


def test_a_clearly_stronger_v2_is_called_better(staff, member, no_tasks):
    v1, v2 = versions(member, staff)
    test = version_test_create(v1_id=v1.pk, v2_id=v2.pk, by=member, seed=46)
    heuristic = test.opponents.get()
    assert (heuristic.strategy, heuristic.created_by) == ("heuristic", None)
    first = list(VersionTestMatch.objects.filter(test=test).order_by("game"))
    assert [row.pair for row in first] == [0, 0]
    assert first[0].seed == first[1].seed
    seats = [
        [seat.player_id for seat in row.match.seats.order_by("seat")] for row in first
    ]
    assert seats == [
        [v1.player_id, v2.player_id, heuristic.player_id],
        [v2.player_id, v1.player_id, heuristic.player_id],
    ]
    assert {row.match.owner for row in first} == {Match.Owner.VERSION_TEST}
    assert not any(row.match.rated for row in first)
    play_all()
    test.refresh_from_db()
    assert test.state == VersionTest.State.FINISHED
    assert test.verdict == "better"
    assert test.llr >= sprt.bounds().upper
    assert sum(test.counts) == test.next_pair >= sprt.MIN_PAIRS
    assert VersionTestMatch.objects.filter(test=test, done=True).count() == 2 * test.next_pair
    assert test.llr == pytest.approx(sprt.llr(test.counts))
    assert not VersionTestMatch.objects.filter(done=False).exists()  # nothing left to play after the verdict


def test_equal_versions_end_at_the_cap_or_not_better(staff, member, no_tasks):
    v1, v2 = versions(member, staff, v1="heuristic", v2="heuristic")
    test = version_test_create(v1_id=v1.pk, v2_id=v2.pk, by=member, seed=1, max_pairs=3)
    play_all()
    test.refresh_from_db()
    assert (test.state, test.verdict, test.next_pair) == ("finished", "no verdict within the cap", 3)
    # the same strategy in the same seat of the same seed: every game's places agree, every pair is level
    assert test.counts == [0, 0, 3, 0, 0]


def test_only_the_author_of_two_ready_versions_of_one_bot_tests_them(staff, member, django_user_model):
    v1, v2 = versions(member, staff)
    other, _ = versions(member, staff, name="Other")
    stranger = django_user_model.objects.create_user("stranger", password="x")
    with pytest.raises(Forbidden):
        version_test_create(v1_id=v1.pk, v2_id=v2.pk, by=stranger)
    with pytest.raises(Forbidden):
        version_test_create(v1_id=v1.pk, v2_id=v2.pk, by=None)
    cases = [
        ({"v1_id": v1.pk, "v2_id": v1.pk}, "v2", "choose two different versions"),
        ({"v1_id": other.pk, "v2_id": v2.pk}, "v2", "are not versions of one bot"),
        ({"v1_id": "1; drop", "v2_id": v2.pk}, "v1", "v1 must be a bot id"),
        ({"v1_id": 10**15, "v2_id": v2.pk}, "v1", "no bot with this id"),
        ({"v1_id": v1.pk, "v2_id": v2.pk, "elo1": -5.0}, "elo1", "must be above"),
        ({"v1_id": v1.pk, "v2_id": v2.pk, "elo1": float("nan")}, "elo1", "must be a number"),
        ({"v1_id": v1.pk, "v2_id": v2.pk, "alpha": 0.9}, "alpha", "from 0.001 to 0.5"),
        ({"v1_id": v1.pk, "v2_id": v2.pk, "max_pairs": 2001}, "max_pairs", "from 1 to 2000"),
        ({"v1_id": v1.pk, "v2_id": v2.pk, "max_pairs": True}, "max_pairs", "whole number"),
    ]
    for kwargs, field, words in cases:
        with pytest.raises(UserError, match=words) as caught:
            version_test_create(by=member, **kwargs)
        assert caught.value.field == field
    assert not VersionTest.objects.exists()


def test_a_running_test_counts_against_the_authors_open_challenges(staff, member, no_tasks):
    v1, v2 = versions(member, staff)
    rival = bot_register(name="Rival", game_id="nacho_pile", kind="builtin", strategy="random", by=staff)
    for _ in range(OPEN_PER_USER):
        version_test_create(v1_id=v1.pk, v2_id=v2.pk, by=member)
    with pytest.raises(UserError, match="you have 3 challenges or version tests still playing"):
        challenge_create(bot_id=v2.pk, opponent_ids=[rival.pk], matches=1, by=member)
    with pytest.raises(UserError, match="you have 3 challenges or version tests still playing"):
        version_test_create(v1_id=v1.pk, v2_id=v2.pk, by=member)
