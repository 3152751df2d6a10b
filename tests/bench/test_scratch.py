"""bench/scratch.py: a bench works in a database it created, under a name no other run uses,
and drops only that."""

import os
import re
from pathlib import Path

import psycopg
import pytest

from bench.scratch import bench_database, database_url, scratch_database, scratch_name
from tests.league.bots import workers


def test_scratch_names_carry_the_process_and_differ_from_run_to_run():
    names = {scratch_name() for _ in range(20)}

    assert len(names) == 20
    assert all(re.fullmatch(rf"pecking_order_bench_{os.getpid()}_[0-9a-f]{{8}}", name) for name in names)
    assert database_url("postgres://u@host:5432/anything", "other") == "postgres://u@host:5432/other"


def test_without_postgres_the_bench_gets_a_sqlite_file_in_a_folder_removed_at_the_end():
    with bench_database(None) as url:
        path = Path(url.removeprefix("sqlite:///"))
        path.write_text("bench data")
        assert url.startswith("sqlite:///") and path.name == "bench.sqlite3"
        assert path.parent.name.startswith("pecking-bench-")

    assert not path.parent.exists()


def database_names(server_url: str) -> set[str]:
    with psycopg.connect(
        database_url(server_url, "postgres").replace("postgres://", "postgresql://", 1)
    ) as connection:
        return {row[0] for row in connection.execute("SELECT datname FROM pg_database")}


def execute(server_url: str, statement: str) -> None:
    url = database_url(server_url, "postgres").replace("postgres://", "postgresql://", 1)
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(statement)


@pytest.mark.postgres
def test_a_scratch_database_exists_while_the_bench_runs_and_only_it_is_dropped_after(django_db_setup):
    """Other jobs on the same server (another test run, a bench) may create or drop databases of their own
    meanwhile, so the check is on this bench's database and on a neighbour this test creates for it."""
    server_url = workers.database_url()
    neighbour = f"pecking_order_neighbour_{os.getpid()}"
    execute(server_url, f'CREATE DATABASE "{neighbour}"')
    try:
        before = database_names(server_url)
        with pytest.raises(RuntimeError, match="the bench fell over"), scratch_database(server_url) as url:
            name = url.rpartition("/")[2]
            during = database_names(server_url)
            raise RuntimeError("the bench fell over")

        after = database_names(server_url)
        assert (name in before, name in during, name in after) == (False, True, False)
        assert neighbour in after
    finally:
        execute(server_url, f'DROP DATABASE IF EXISTS "{neighbour}"')
