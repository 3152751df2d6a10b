"""On PostgreSQL, a tournament table links only a match owned by a table: a generated `owner` column and a
composite foreign key (match_id, owner) to the match's (id, owner) (a draft's table, without a match, is not
checked). SQLite has no such column: `league.matches.services.check_owned` guards it there."""

from django.db import migrations

from league.core.schema import PostgresOnlySQL, link_owner_sql


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0008_registration_invited"),
        ("matches", "0008_match_owner"),
    ]

    operations = [PostgresOnlySQL(*link_owner_sql(table="tournaments_table", owner="table"))]
