"""A real Celery worker consumes the notifications queue: a published round's notifications are stored and
mailed by it, after the commit (the worker's mail goes to the console backend of the test settings)."""

import pytest
from django.conf import settings

from league.notifications.models import Notification
from league.tournaments import services as tournament_services
from tests.league.bots.workers import wait_until
from tests.league.test_worker import worker  # noqa: F401 - the fixture


@pytest.mark.worker
def test_a_worker_consumes_the_notifications_queue(worker, cup, orga):  # noqa: F811
    assert (
        settings.CELERY_TASK_ROUTES["league.notifications.tasks.*"]["queue"] == settings.NOTIFICATIONS_QUEUE
    )
    assert settings.NOTIFICATIONS_QUEUE.startswith("tests-") and settings.NOTIFICATIONS_QUEUE.endswith(
        "-notifications"
    )
    round_row = tournament_services.round_generate(tournament=cup, by=orga)
    tournament_services.round_publish(round_row=round_row, by=orga)

    wait_until(
        lambda: Notification.objects.filter(emailed_at__isnull=False).count() == 4,
        "the worker mails all four",
    )
    assert sorted(Notification.objects.values_list("user__username", "kind")) == [
        (name, "table_ready") for name in ("ada", "bea", "cal", "dov")
    ]
