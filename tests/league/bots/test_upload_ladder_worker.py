"""The whole path of an open bot competition, with a real Celery worker and the real sandbox: a member uploads
a bot through the page, it enters a ladder, the worker plays its matches, its rating and a replay with its
verdict are there to see; an uploaded second version replaces the first, which retires with its history."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from league.bots.models import BotDefinition, Fixture, LadderEvent
from league.bots.services.ladders import ladder_create, ladder_enter
from league.bots.services.leagues import league_pause, league_start
from league.matches.models import MatchSeat, Verification
from league.ratings.models import Rating
from tests.league.bots.conftest import make_bots
from tests.league.bots.crafted import BOT, good_tar
from tests.league.bots.workers import Worker, wait_until

pytestmark = [pytest.mark.worker, pytest.mark.sandbox, pytest.mark.django_db(transaction=True)]


def played(bot: BotDefinition) -> int:
    return MatchSeat.objects.filter(
        player=bot.player, match__bot_fixture__done=True, match__bot_fixture__league__kind="ladder"
    ).count()


BEHIND_PLAY_TASKS = 900  # seconds: generous, never a measure (see the waits below)


def ready(bot: BotDefinition) -> bool:
    bot.refresh_from_db()
    return bot.state == BotDefinition.State.READY


def test_an_upload_climbs_a_ladder_played_by_a_worker_and_its_new_version_replaces_it(staff, member):
    author = Client()
    author.force_login(member)
    ladder = ladder_create(
        name="Open ladder", game_id="nacho_pile", table_size=3, seed=5, newcomer_matches=3, by=staff
    )
    for bot in make_bots(staff)[:2]:
        ladder_enter(ladder_id=ladder.pk, bot_id=bot.pk, by=staff)
    worker = Worker("ladder", 1)
    try:
        response = author.post(
            "/bots/bots/upload/",
            {"game": "nacho_pile", "name": "Climber", "file": SimpleUploadedFile("bot.py", BOT)},
        )
        assert response.status_code == 302
        first = BotDefinition.objects.get(name="Climber", version=1)
        wait_until(lambda: ready(first), "the worker checks the upload")
        assert author.post(f"/bots/ladders/{ladder.pk}/enter/", {"bot": first.pk}).status_code == 302
        league_start(league_id=ladder.pk)
        wait_until(lambda: played(first) >= 3, "the worker plays the upload's first matches")
        assert (
            author.post(
                "/bots/bots/upload/",
                {
                    "game": "nacho_pile",
                    "name": "Climber",
                    "file": SimpleUploadedFile("bot.tar.gz", good_tar()),
                },
            ).status_code
            == 302
        )
        second = BotDefinition.objects.get(name="Climber", version=2)
        # The worker checks it between two slices of the ladder's play (a slice: up to 10 s), before its
        # check task, queued behind the play tasks, comes up; the wait stays generous for a busy machine.
        wait_until(lambda: ready(second), "the worker checks the new version", seconds=BEHIND_PLAY_TASKS)
        wait_until(
            lambda: played(second) >= 3,
            "the worker plays the new version's matches",
            seconds=BEHIND_PLAY_TASKS,
        )
        league_pause(league_id=ladder.pk)
        match = (
            Fixture.objects.filter(league=ladder, match__seats__player=first.player)
            .order_by("position")[0]
            .match
        )
        wait_until(lambda: Verification.objects.filter(match=match).exists(), "the worker verifies the match")
    finally:
        worker.stop()

    assert Rating.objects.filter(pool=ladder.rating_pool, player=first.player).exists()
    assert Rating.objects.filter(pool=ladder.rating_pool, player=second.player).exists()
    events = list(LadderEvent.objects.filter(league=ladder, bot_id__in=[first.pk, second.pk]).order_by("id"))
    assert [(event.action, event.bot_id, event.reason) for event in events] == [
        ("enter", first.pk, ""),
        ("leave", first.pk, "replaced by Climber v2"),
        ("enter", second.pk, ""),
    ]
    # the first version plays no match drawn after it left; its history stays
    left_at = events[1].position
    assert not Fixture.objects.filter(
        league=ladder, position__gte=left_at, match__seats__player=first.player
    ).exists()
    assert played(first) >= 3

    visitor = Client()
    page = visitor.get(f"/bots/ladders/{ladder.pk}/").content.decode()
    current = page.split('id="ladder-standings"', 1)[1].split("</table>", 1)[0]
    retired = page.split('id="ladder-retired"', 1)[1].split("</table>", 1)[0]
    assert "Climber v2" in current and ">Climber<" not in current and "Climber v1" not in current
    assert "replaced by Climber v2" in retired
    seat = match.seats.get(player=first.player).seat
    replay = visitor.get(f"/bots/matches/{match.pk}/replay/").content.decode()
    assert "<strong>✓ Verified</strong>" in replay
    assert (
        f"<li>Seat {seat + 1} not re-made (external program Climber v1): its decisions were checked for "
        "legality only.</li>" in replay
    )
