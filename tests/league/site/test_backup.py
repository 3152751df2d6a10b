"""`manage.py backup`: an online copy of the embedded database that another checkout carries on from, and a
clear refusal on PostgreSQL."""

import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection

from league.site.management.commands.backup import backup_path


def test_backup_file_names_carry_the_time_and_never_overwrite(tmp_path):
    now = datetime(2026, 12, 6, 9, 37, 1, tzinfo=UTC)
    first = backup_path(tmp_path, now)
    assert first.name == "league-20261206-093701.sqlite3"
    first.touch()
    assert backup_path(tmp_path, now).name == "league-20261206-093701-2.sqlite3"


def manage(database, *arguments: str) -> subprocess.CompletedProcess:
    """`manage.py` on the SQLite file `database`, whatever database the tests run on."""
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "league.settings.test",
        "DATABASE_URL": f"sqlite:///{database}",
        "PECKING_ORDER_TEST_RUN_DIR": str(settings.TEST_RUN_DIR),
    }
    return subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=settings.BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
    )


READ_TOURNAMENTS = (
    "from league.tournaments.models import Tournament; print([t.name for t in Tournament.objects.all()])"
)


def test_a_backup_taken_while_the_database_is_open_restores_on_another_checkout(tmp_path):
    laptop = tmp_path / "laptop" / "league.sqlite3"
    laptop.parent.mkdir()
    assert manage(laptop, "migrate", "--no-input").returncode == 0
    created = manage(
        laptop,
        "shell",
        "-c",
        "from league.tournaments.models import Tournament; Tournament.objects.create("
        "name='Chicken Foot Open', slug='chicken-foot-open', game_id='chicken_foot')",
    )
    assert created.returncode == 0, created.stderr
    held = sqlite3.connect(laptop)  # the service still has the database open, mid-read
    held.execute("BEGIN")
    held.execute("SELECT count(*) FROM tournaments_tournament").fetchone()
    try:
        backup = manage(laptop, "backup", "--dir", str(tmp_path / "backups"))
    finally:
        held.rollback()
        held.close()
    (copy,) = (tmp_path / "backups").iterdir()
    assert backup.returncode == 0, backup.stderr
    assert backup.stdout == f"Backed up {laptop} to {copy} ({copy.stat().st_size} bytes).\n"
    assert copy.name.startswith("league-") and copy.suffix == ".sqlite3"
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "backups").stat().st_mode) == 0o700

    # The restore of docs/running-tournaments.md: the copy in place of the database on another laptop.
    other = tmp_path / "other" / "league.sqlite3"
    other.parent.mkdir()
    shutil.copyfile(copy, other)
    assert manage(other, "migrate", "--check").returncode == 0
    read = manage(other, "shell", "--no-imports", "-c", READ_TOURNAMENTS)
    assert read.stdout == "['Chicken Foot Open']\n", read.stderr


def test_on_postgresql_backup_points_to_pg_dump_and_exits_2(monkeypatch, tmp_path):
    monkeypatch.setitem(
        settings.DATABASES,
        "default",
        {**settings.DATABASES["default"], "ENGINE": "django.db.backends.postgresql", "NAME": "league"},
    )
    monkeypatch.setattr(connection, "vendor", "postgresql")
    with pytest.raises(CommandError) as refused:
        call_command("backup", "--dir", str(tmp_path))
    assert refused.value.returncode == 2
    assert str(refused.value) == (
        "the database is postgresql, not the embedded SQLite file: back it up with its own tools, e.g. "
        "pg_dump --format=custom --file=league.dump <database> "
        "(restore with pg_restore --clean --dbname=<database> league.dump)"
    )
    assert list(tmp_path.iterdir()) == []
