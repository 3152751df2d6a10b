"""A database of the bench's own for each bench run:
created under a name nobody else uses, removed at the end.

Benches share their machine and their PostgreSQL server with other benches, test runs and people. A bench
therefore never works in, empties or drops a database it did not create: `scratch_database` creates
`pecking_order_bench_<pid>_<random hex>` on the server that DATABASE_URL names (the database named in that URL
is not used: the bench creates and drops its own from the server's `postgres` maintenance database, as
Django's test runner does), and drops exactly that one when the bench ends, however it ends (an error, Ctrl-C,
or SIGTERM, which it turns into an ordinary exit so that the drop still runs).
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

PREFIX = "pecking_order_bench"


def scratch_name() -> str:
    """A database name no other run uses: this process's id and 8 random hex digits."""
    return f"{PREFIX}_{os.getpid()}_{secrets.token_hex(4)}"


def database_url(server_url: str, name: str) -> str:
    """`server_url` with its database replaced by `name`."""
    head, _, _ = server_url.rpartition("/")
    return f"{head}/{name}"


def _execute(server_url: str, statement: str) -> None:
    """Run `statement` (outside a transaction) in the maintenance database of the server of `server_url`."""
    import psycopg

    server_url = database_url(server_url, "postgres")
    with psycopg.connect(
        server_url.replace("postgres://", "postgresql://", 1), autocommit=True
    ) as connection:
        connection.execute(statement)


@contextmanager
def sigterm_exits() -> Iterator[None]:
    """Within the block, SIGTERM raises SystemExit (so `finally` clauses run) instead of killing at once."""

    def leave(signum, frame):
        sys.exit(128 + signum)

    previous = signal.signal(signal.SIGTERM, leave)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def scratch_database(server_url: str) -> Iterator[str]:
    """Create a database of a fresh name on the PostgreSQL server of `server_url`; yield its URL; drop it at
    the end. Connections still open to it at the end (the bench's own) are closed by the drop."""
    name = scratch_name()
    _execute(server_url, f"CREATE DATABASE {name}")
    try:
        with sigterm_exits():
            yield database_url(server_url, name)
    finally:
        _execute(server_url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@contextmanager
def bench_database(database_url_or_none: str | None) -> Iterator[str]:
    """The database URL a bench runs on: a scratch database on the PostgreSQL server named by the URL, or,
    without a PostgreSQL URL, a SQLite file in a new temporary folder, removed at the end."""
    if database_url_or_none and database_url_or_none.startswith("postgres"):
        with scratch_database(database_url_or_none) as url:
            yield url
        return
    folder = tempfile.mkdtemp(prefix="pecking-bench-")
    try:
        with sigterm_exits():
            yield f"sqlite:///{folder}/bench.sqlite3"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def kept_database(database_url_or_none: str | None) -> str:
    """Like `bench_database`, but the database is not removed: a site built once and measured by later runs
    (bench/compare.py `--shared`). `drop_kept` removes it."""
    if database_url_or_none and database_url_or_none.startswith("postgres"):
        name = scratch_name()
        _execute(database_url_or_none, f"CREATE DATABASE {name}")
        return database_url(database_url_or_none, name)
    folder = tempfile.mkdtemp(prefix="pecking-bench-")
    return f"sqlite:///{folder}/bench.sqlite3"


def drop_kept(url: str) -> None:
    """Remove a database `kept_database` made; refuses any other (its name must be a scratch name)."""
    if url.startswith("sqlite:///"):
        folder = os.path.dirname(url.removeprefix("sqlite:///"))
        if not os.path.basename(folder).startswith("pecking-bench-"):
            raise ValueError(f"{url} is not a bench's scratch database")
        shutil.rmtree(folder, ignore_errors=True)
        return
    name = url.rpartition("/")[2]
    if not name.startswith(f"{PREFIX}_") or not name.replace("_", "").isalnum():
        raise ValueError(f"{url} is not a bench's scratch database")
    _execute(url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def setup_django(database_url: str) -> None:
    """Django on `database_url` (local settings, no debug, an in-memory broker unless one is set), migrated;
    on SQLite the var folder is the database file's folder."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings.local")
    os.environ["DATABASE_URL"] = database_url
    if database_url.startswith("sqlite:///"):
        os.environ["PECKING_ORDER_VAR_DIR"] = os.path.dirname(database_url.removeprefix("sqlite:///"))
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("CELERY_BROKER_URL", "memory://localhost/")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
