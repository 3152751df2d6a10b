"""var/ and the embedded database are the service account's alone: var/ 0700, the SQLite database and its
companions 0600, however they came to exist (the local settings, a Django connection: migrate, `serve`, a
worker)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db.utils import ConnectionHandler

from league.core.private_files import private_database, private_dir, sqlite_file


def mode(path) -> str:
    return oct(os.stat(path).st_mode & 0o777)


@pytest.fixture
def loose_umask():
    """The usual umask (files 0644, folders 0755 unless told otherwise)."""
    before = os.umask(0o022)
    yield
    os.umask(before)


def test_private_dir_makes_a_folder_0700_and_narrows_an_existing_one(tmp_path, loose_umask):
    made = private_dir(tmp_path / "a" / "var")
    assert (made, mode(made)) == (tmp_path / "a" / "var", "0o700")
    existing = tmp_path / "old-var"
    existing.mkdir(mode=0o755)
    private_dir(existing)
    assert mode(existing) == "0o700"


def test_private_database_creates_an_empty_0600_file_and_narrows_its_companions(tmp_path, loose_umask):
    database = tmp_path / "league.sqlite3"
    private_database(database)
    assert (mode(database), database.read_bytes()) == ("0o600", b"")
    with sqlite3.connect(database) as db:  # an empty file is a new database
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE t (x)")
        db.execute("INSERT INTO t VALUES (1)")
        assert {path.name: mode(path) for path in tmp_path.iterdir()} == {
            "league.sqlite3": "0o600",
            "league.sqlite3-wal": "0o600",
            "league.sqlite3-shm": "0o600",
        }
    os.chmod(database, 0o644)
    private_database(database)
    assert mode(database) == "0o600"
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT x FROM t").fetchall() == [(1,)]  # kept, not truncated


def test_a_django_connection_leaves_its_sqlite_file_0600(tmp_path, loose_umask, django_db_blocker):
    """What `migrate`, `serve`'s processes and the workers do first: connect (league.core.apps)."""
    name = tmp_path / "made-by-a-connection.sqlite3"
    connections = ConnectionHandler({"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": str(name)}})
    connection = connections["default"]
    with django_db_blocker.unblock():
        try:
            connection.ensure_connection()
            with connection.cursor() as cursor:
                cursor.execute("CREATE TABLE t (x)")
        finally:
            connection.close()
    assert mode(name) == "0o600"


@pytest.mark.parametrize(
    "database, expected",
    [
        ({"ENGINE": "django.db.backends.sqlite3", "NAME": "/srv/league.sqlite3"}, "/srv/league.sqlite3"),
        ({"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}, None),
        ({"ENGINE": "django.db.backends.sqlite3", "NAME": "file:memdb1?mode=memory&cache=shared"}, None),
        ({"ENGINE": "django.db.backends.postgresql", "NAME": "league"}, None),
    ],
)
def test_only_a_sqlite_database_on_disk_is_a_file_to_keep_private(database, expected):
    assert sqlite_file(database) == expected


def test_the_local_settings_make_var_0700_and_the_embedded_database_0600(tmp_path):
    """As `make run` starts: a var/ left 0755 and a database left 0644 by an older version are narrowed; a
    new var/ and database are made private."""
    old, new = tmp_path / "old-var", tmp_path / "new-var"
    old.mkdir(mode=0o755)
    (old / "league.sqlite3").write_bytes(b"")
    os.chmod(old, 0o755)
    os.chmod(old / "league.sqlite3", 0o644)
    for var in (old, new):
        environment = {
            key: value
            for key, value in os.environ.items()
            if key not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")
        }
        environment["PECKING_ORDER_VAR_DIR"] = str(var)
        started = subprocess.run(
            [sys.executable, "-c", "import os; os.umask(0o022); import league.settings.local"],
            cwd=settings.BASE_DIR,
            env=environment,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert started.returncode == 0, started.stderr
        assert (mode(var), mode(var / "league.sqlite3")) == ("0o700", "0o600")


def test_the_test_settings_keep_var_and_this_runs_folder_private():
    assert (mode(settings.VAR_DIR), mode(settings.TEST_RUN_DIR)) == ("0o700", "0o700")
    assert Path(settings.TEST_RUN_DIR).parent.parent == Path(settings.VAR_DIR)
