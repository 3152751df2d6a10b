"""Folders and files only the service's own account may read: `var/` (the embedded database, the broker's
messages, the demo passwords) and the SQLite database wherever it lives (password hashes, API tokens,
webhook secrets).

`private_dir` makes a folder 0700, `private_database` a SQLite file and its companions (`-wal`, `-shm`,
`-journal`) 0600, creating the file empty at that mode when it is missing so that it is never readable by
others, not even for a moment (SQLite takes an empty file as a new database, and gives its companions the
database file's mode). Pure Python, no Django: the settings modules use it as well as the apps.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from pathlib import Path

DIR_MODE = 0o700
FILE_MODE = 0o600
SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")


def private_dir(path: str | os.PathLike) -> Path:
    """`path` as a folder of mode 0700: made (with its missing parents) or, if it exists, its mode
    narrowed."""
    folder = Path(path)
    folder.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    os.chmod(folder, DIR_MODE)
    return folder


def sqlite_file(database: Mapping[str, object]) -> str | None:
    """The file of a Django DATABASES entry if it is a SQLite database on disk, else None."""
    if not str(database.get("ENGINE", "")).endswith("sqlite3"):
        return None
    name = str(database.get("NAME") or "")
    if not name or name == ":memory:" or name.startswith("file:"):
        return None
    return name


def private_database(path: str | os.PathLike, *, create: bool = True) -> None:
    """The SQLite database at `path` and its companions made 0600; with `create`, the file is made empty at
    mode 0600 first if it is missing."""
    database = Path(path)
    if create:
        os.close(os.open(database, os.O_CREAT | os.O_WRONLY | os.O_NOFOLLOW, FILE_MODE))
    for name in (database, *(database.with_name(database.name + suffix) for suffix in SQLITE_COMPANIONS)):
        with contextlib.suppress(FileNotFoundError):
            os.chmod(name, FILE_MODE)


def private_embedded_database(database: Mapping[str, object]) -> None:
    """For a Django DATABASES entry: its SQLite file made private (created at 0600 if missing), if it is one
    and its folder exists; any other database is left alone."""
    name = sqlite_file(database)
    if name and Path(name).parent.is_dir():
        private_database(name)
