"""Test settings: fast password hashing, a file SQLite database (so a worker process can share it)."""

from league.settings.base import *  # noqa: F403
from league.settings.base import CELERY_BROKER_URL, DATABASES, VAR_DIR, broker_settings

VAR_DIR.mkdir(parents=True, exist_ok=True)

SECRET_KEY = "test-only-secret"  # noqa: S105 - never used outside tests
DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Tests and their workers use a broker folder of their own, apart from a `make run` on the same checkout.
CELERY_BROKER_URL, CELERY_BROKER_TRANSPORT_OPTIONS = broker_settings(CELERY_BROKER_URL, VAR_DIR / "test-broker")
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test.sqlite3")}
# Static files are served from the app folders, without collectstatic.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
