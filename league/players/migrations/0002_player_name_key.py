"""Names are unique ignoring case by a key computed in Python (`league.core.names.name_key`: full case
folding), in a column with a unique constraint, instead of the database's lower() (SQLite's folds ASCII
alone, so "Юлия" and "юлия" could both be stored there). Slugs may hold letters of any script.

Existing players get their key. Two names that only SQLite's lower() told apart (e.g. "Юлия" and "юлия")
cannot both keep their name under the new rule: the later one is renamed "<name> (2)" (then 3, ...)."""

import unicodedata

from django.db import migrations, models


def _key(name):
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


def fill_keys(apps, schema_editor):
    Player = apps.get_model("players", "Player")
    taken = set()
    for player in Player.objects.order_by("pk"):
        name, number = player.name, 1
        while _key(name) in taken:
            number += 1
            name = f"{player.name} ({number})"
        taken.add(_key(name))
        player.name, player.name_key = name, _key(name)
        player.save(update_fields=["name", "name_key"])


class Migration(migrations.Migration):
    dependencies = [("players", "0001_initial")]

    operations = [
        migrations.RemoveConstraint(model_name="player", name="player_name_unique_ignoring_case"),
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(editable=False, max_length=240, null=True),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="name_key",
            field=models.CharField(
                editable=False,
                help_text="The name case-folded (league.core.names.name_key): names are unique ignoring case, in any script.",
                max_length=240,
                unique=True,
            ),
        ),
        migrations.AlterField(
            model_name="player",
            name="slug",
            field=models.SlugField(
                allow_unicode=True, help_text="Derived from the name; used in page URLs.", max_length=90, unique=True
            ),
        ),
    ]
