"""`Match.owner`: whose rules a match follows (casual, a tournament table, a league's fixture, a challenge).
Existing matches get it from the row that links them (none: casual); a match linked twice stops the
migration. On PostgreSQL, (id, owner) is unique, so that each link table's composite foreign key can refer
to it (the link tables' own migrations)."""

from django.db import migrations, models

from league.core.schema import PostgresOnlySQL

LINKS = [
    ("tournaments", "Table", "table"),
    ("bots", "Fixture", "fixture"),
    ("bots", "ChallengeMatch", "challenge"),
]


def owners_from_links(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    linked: dict[int, list[str]] = {}
    for app, model, owner in LINKS:
        rows = apps.get_model(app, model).objects.filter(match__isnull=False)
        for match_id in rows.values_list("match_id", flat=True):
            linked.setdefault(match_id, []).append(owner)
    twice = sorted(match_id for match_id, owners in linked.items() if len(owners) > 1)
    if twice:
        raise RuntimeError(f"matches linked by two rows, fix them first: {twice[:20]}")
    for _, _, owner in LINKS:
        ids = [match_id for match_id, owners in linked.items() if owners == [owner]]
        for start in range(0, len(ids), 500):
            Match.objects.filter(pk__in=ids[start : start + 500]).update(owner=owner)


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0007_match_visibility"),
        ("bots", "0010_bot_upload_check_state"),
        ("tournaments", "0008_registration_invited"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="owner",
            field=models.CharField(
                choices=[
                    ("casual", "Casual"),
                    ("table", "Tournament table"),
                    ("fixture", "Bot league fixture"),
                    ("challenge", "Bot challenge"),
                ],
                default="casual",
                editable=False,
                help_text="Whose rules its results follow; the one link row (table, fixture, challenge "
                "match) agrees.",
                max_length=10,
            ),
            preserve_default=False,
        ),
        migrations.RunPython(owners_from_links, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.CheckConstraint(
                condition=models.Q(("owner__in", ["casual", "table", "fixture", "challenge"])),
                name="match_owner_known",
            ),
        ),
        PostgresOnlySQL(
            "ALTER TABLE matches_match ADD CONSTRAINT match_id_owner_unique UNIQUE (id, owner)",
            "ALTER TABLE matches_match DROP CONSTRAINT match_id_owner_unique",
        ),
    ]
