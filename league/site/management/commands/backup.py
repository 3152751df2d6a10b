"""`manage.py backup`: an online copy of the embedded SQLite database into var/backups/, taken while the
service runs (SQLite's backup API copies a consistent snapshot page by page; writers wait only for a step).

The copy is a complete database: restoring it is copying it back over var/league.sqlite3 while nothing runs
(docs/running-tournaments.md, "Backup and restore"). On PostgreSQL it points to pg_dump and exits 2.
"""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from league.core.private_files import private_database, private_dir, sqlite_file

# Pages copied per step: other connections may write between steps.
PAGES_PER_STEP = 1024


def backup_path(folder: Path, now: datetime) -> Path:
    """A new file in `folder` named for the UTC time, e.g. league-20261206-093701.sqlite3 (-2, -3 ... when
    one of that second exists)."""
    stem = f"league-{now:%Y%m%d-%H%M%S}"
    path, number = folder / f"{stem}.sqlite3", 1
    while path.exists():
        number += 1
        path = folder / f"{stem}-{number}.sqlite3"
    return path


def _regexp(pattern: str | None, value: object) -> bool | None:
    if pattern is None or value is None:
        return None
    return re.search(pattern, str(value)) is not None


class Command(BaseCommand):
    help = "Copy the embedded SQLite database, while the service runs, into var/backups/."

    def add_arguments(self, parser):
        parser.add_argument(
            "--dir",
            dest="folder",
            default=None,
            help="The folder for the copy (default: var/backups/ of this checkout).",
        )

    def handle(self, *args, folder: str | None = None, **options):
        source = sqlite_file(settings.DATABASES["default"])
        if connection.vendor != "sqlite" or source is None:
            raise CommandError(
                f"the database is {connection.vendor}, not the embedded SQLite file: back it up with its own "
                "tools, e.g. pg_dump --format=custom --file=league.dump <database> "
                "(restore with pg_restore --clean --dbname=<database> league.dump)",
                returncode=2,
            )
        if not Path(source).is_file():
            raise CommandError(f"there is no database at {source} to back up", returncode=2)
        target = backup_path(
            private_dir(Path(folder) if folder else settings.VAR_DIR / "backups"), datetime.now(UTC)
        )
        private_database(target)  # created empty at mode 0600 before anything is written into it
        original, copy = sqlite3.connect(source), sqlite3.connect(target)
        try:
            original.backup(copy, pages=PAGES_PER_STEP)
            # The check evaluates the tables' CHECK constraints, some of which use Django's REGEXP.
            copy.create_function("REGEXP", 2, _regexp, deterministic=True)
            (check,) = copy.execute("PRAGMA integrity_check").fetchone()
        finally:
            original.close()
            copy.close()
        if check != "ok":
            target.unlink()
            raise CommandError(f"the copy failed its integrity check ({check}); nothing was kept")
        self.stdout.write(f"Backed up {source} to {target} ({target.stat().st_size} bytes).")
