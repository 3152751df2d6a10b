"""A challenge played by a real Celery worker process: queued after the commit, played,
shown to its author."""

import pytest
from django.test import Client

from league.bots.models import Challenge, ChallengeMatch
from league.bots.services.challenges import challenge_create
from league.bots.services.definitions import bot_register
from league.ratings.models import Rating
from tests.league.bots.conftest import make_bots
from tests.league.bots.workers import Worker, wait_until

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_a_challenge_of_twenty_matches_is_played_by_a_worker_and_shown_to_its_author(staff, member):
    bots = make_bots(staff)
    mine = bot_register(name="Mine", game_id="nacho_pile", kind="builtin", strategy="random", by=staff)
    mine.created_by = member
    mine.save(update_fields=["created_by"])
    worker = Worker("challenges", 1)
    try:
        challenge = challenge_create(bot_id=mine.pk, opponent_ids=[bots[1].pk], matches=20, seed=3, by=member)
        wait_until(
            lambda: Challenge.objects.filter(pk=challenge.pk, status="finished").exists(),
            "the challenge is played",
        )
    finally:
        worker.stop()
    assert ChallengeMatch.objects.filter(challenge=challenge, done=True).count() == 20
    assert not Rating.objects.exists()
    client = Client()
    client.force_login(member)
    html = client.get(f"/bots/challenges/{challenge.pk}/").content.decode()
    assert "20</span> of 20 matches played" in html
    assert html.count("/replay/") == 20
