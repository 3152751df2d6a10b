"""A version test played by a real Celery worker process: queued after the commit, its pairs played one
after another in the challenges' share until the stronger v2 is called better, shown to its author."""

import pytest
from django.test import Client

from league.bots.models import VersionTest
from league.bots.services.version_tests import version_test_create
from league.ratings.models import Rating
from tests.league.bots.test_version_tests import versions
from tests.league.bots.workers import Worker, wait_until

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_a_worker_plays_a_version_test_to_its_verdict(staff, member):
    v1, v2 = versions(member, staff)
    worker = Worker("challenges", 1)
    try:
        test = version_test_create(v1_id=v1.pk, v2_id=v2.pk, by=member, seed=46)
        wait_until(
            lambda: VersionTest.objects.filter(pk=test.pk, state="finished").exists(),
            "the version test reaches its verdict",
        )
    finally:
        worker.stop()
    test.refresh_from_db()
    assert test.verdict == "better"
    assert not Rating.objects.exists()  # unrated
    client = Client()
    client.force_login(member)
    html = client.get(f"/bots/version-tests/{test.pk}/").content.decode()
    assert "Verdict: <strong>better</strong>" in html
