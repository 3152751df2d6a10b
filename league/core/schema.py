"""Schema statements for one database backend only, for migrations: `PostgresOnlySQL` runs its SQL on
PostgreSQL and nothing elsewhere (SQLite, the embedded default, keeps the guard in the services instead;
docs/league.md says which backend guards what)."""

from django.db import migrations


class PostgresOnlySQL(migrations.RunSQL):
    """A `RunSQL` that runs, forwards and backwards, on PostgreSQL only."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, from_state, to_state)


def link_owner_sql(*, table: str, owner: str) -> tuple[str, str]:
    """(forwards, backwards) SQL that makes `table`'s rows link only matches of owner `owner`: a generated
    `owner` column holding that one value, and a composite foreign key (match_id, owner) to the match's
    unique (id, owner). Checked at once (not deferred), so the statement that links a wrong match fails."""
    constraint = f"{table}_match_owner_fk"
    forwards = (
        f"ALTER TABLE {table} ADD COLUMN owner varchar(10) GENERATED ALWAYS AS ('{owner}') STORED; "
        f"ALTER TABLE {table} ADD CONSTRAINT {constraint} FOREIGN KEY (match_id, owner) "
        "REFERENCES matches_match (id, owner) NOT DEFERRABLE"
    )
    backwards = f"ALTER TABLE {table} DROP CONSTRAINT {constraint}; ALTER TABLE {table} DROP COLUMN owner"
    return forwards, backwards
