"""On PostgreSQL, a league's fixture links only a match owned by a fixture, and a challenge match only one
owned by a challenge: a generated `owner` column and a composite foreign key (match_id, owner) to the
match's (id, owner). SQLite has no such column: `league.matches.services.check_owned` guards it there."""

from django.db import migrations

from league.core.schema import PostgresOnlySQL, link_owner_sql


class Migration(migrations.Migration):
    dependencies = [
        ("bots", "0011_challenge_matches_private"),
        ("matches", "0008_match_owner"),
    ]

    operations = [
        PostgresOnlySQL(*link_owner_sql(table="bots_fixture", owner="fixture")),
        PostgresOnlySQL(*link_owner_sql(table="bots_challengematch", owner="challenge")),
    ]
