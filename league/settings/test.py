"""Test settings: fast password hashing, a file SQLite database (so a worker process can share it).

Each test run keeps its database file and broker folder in a directory of its own (TEST_RUN_DIR), so
that two runs in one checkout, or a run next to `make run`, never share them. A worker started by a test
gets the same directory through PECKING_ORDER_TEST_RUN_DIR.
"""

import os
from pathlib import Path

from league.core.private_files import private_dir
from league.settings import env
from league.settings.base import *  # noqa: F403
from league.settings.base import (
    CELERY_BROKER_URL,
    DATABASES,
    PROGRAM_CACHE_DIR,
    TEST_SECRET_KEY,
    VAR_DIR,
    broker_settings,
    cache_from_url,
    celery_queues,
)

private_dir(VAR_DIR)
TEST_RUN_DIR = private_dir(env.text("PECKING_ORDER_TEST_RUN_DIR") or VAR_DIR / "test-runs" / str(os.getpid()))

SECRET_KEY = TEST_SECRET_KEY
DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Throttle counts stay in this process (never in a shared Redis, whatever CACHE_URL says); tests clear them.
CACHES = {"default": cache_from_url("locmem://")}
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
CELERY_BROKER_URL, CELERY_BROKER_TRANSPORT_OPTIONS = broker_settings(
    CELERY_BROKER_URL, TEST_RUN_DIR / "broker"
)
SERVE_RESTARTS_FILE = TEST_RUN_DIR / "serve-restarts.json"
# A queue of this run's own, so that runs sharing a Redis broker never take each other's tasks.
CELERY_TASK_DEFAULT_QUEUE = f"tests-{TEST_RUN_DIR.name}"
NOTIFICATIONS_QUEUE = f"tests-{TEST_RUN_DIR.name}-notifications"
CELERY_TASK_QUEUES, CELERY_TASK_ROUTES = celery_queues(CELERY_TASK_DEFAULT_QUEUE, NOTIFICATIONS_QUEUE)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["TEST"] = {"NAME": str(TEST_RUN_DIR / "test.sqlite3")}
# The run's own program cache, outside var/ (the slot users cannot enter it); removed with the run.
PROGRAM_CACHE_RUN_DIR = Path(PROGRAM_CACHE_DIR).parent / f"test-run-{TEST_RUN_DIR.name}"
PROGRAM_CACHE_DIR = str(PROGRAM_CACHE_RUN_DIR / "programs")
# Most tests take a checked upload straight to ready; the validation's own tests turn it on.
BOT_VALIDATION = False
# Static files are served from the app folders, without collectstatic.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
