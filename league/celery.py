"""The Celery app. Configuration comes from Django settings (`CELERY_*`); tasks live in each app's `tasks.py`.

Start a worker with `celery -A league worker` and the scheduler with `celery -A league beat` (schedules are
managed in the admin through django-celery-beat).
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings.local")

app = Celery("league")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
