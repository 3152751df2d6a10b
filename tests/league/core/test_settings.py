"""Settings: production refuses to start without a real secret; the environment reader is strict."""

import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from league.settings import env
from league.settings.base import database_from_url

REAL_SECRET = "k3v9-" + "x" * 45


def start_production(secret: str | None) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    environment["DJANGO_SETTINGS_MODULE"] = "league.settings.production"
    if secret is not None:
        environment["SECRET_KEY"] = secret
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "CRITICAL"],
        cwd=settings.BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("secret", "message"),
    [
        (None, "SECRET_KEY is not set"),
        ("", "SECRET_KEY is not set"),
        ("development-only-secret-not-for-production", "SECRET_KEY is a development or short secret"),
        ("django-insecure-" + "y" * 40, "SECRET_KEY is a development or short secret"),
        ("short", "SECRET_KEY is a development or short secret"),
    ],
)
def test_production_refuses_to_start_without_a_real_secret(secret, message):
    started = start_production(secret)
    assert started.returncode != 0
    assert message in started.stderr


def test_production_starts_with_a_real_secret():
    started = start_production(REAL_SECRET)
    assert started.returncode == 0, started.stderr


def test_flags_accept_the_usual_words_and_refuse_others(monkeypatch):
    monkeypatch.setenv("PO_FLAG", "Yes")
    assert env.flag("PO_FLAG") is True
    monkeypatch.setenv("PO_FLAG", "off")
    assert env.flag("PO_FLAG", True) is False
    monkeypatch.setenv("PO_FLAG", "perhaps")
    with pytest.raises(ImproperlyConfigured, match="PO_FLAG must be one of"):
        env.flag("PO_FLAG")
    monkeypatch.setenv("PO_HOSTS", " a.example, ,b.example ")
    assert env.words("PO_HOSTS") == ["a.example", "b.example"]


def test_sqlite_gets_wal_and_immediate_transactions_and_postgres_does_not():
    sqlite = database_from_url("sqlite:////tmp/x.sqlite3")
    assert sqlite["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in sqlite["OPTIONS"]["init_command"]
    postgres = database_from_url("postgres://u@db.example:5432/league")
    assert (postgres["ENGINE"], postgres["NAME"], "OPTIONS" not in postgres or postgres["OPTIONS"] == {}) == (
        "django.db.backends.postgresql",
        "league",
        True,
    )


def test_celery_is_configured_for_safe_late_acknowledgement():
    assert (settings.CELERY_TASK_ACKS_LATE, settings.CELERY_TASK_REJECT_ON_WORKER_LOST) == (True, True)
    assert settings.CELERY_ACCEPT_CONTENT == ["json"]
    assert settings.CELERY_TASK_TIME_LIMIT == 900
