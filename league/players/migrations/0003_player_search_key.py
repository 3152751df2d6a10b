"""Players get a search key (`league.core.names.search_key`): the name folded (no accents, case or
punctuation) and the folded user name of their account, so that "lukasz" finds Łukasz and a user name
finds its player. Existing players get theirs here."""

import unicodedata

from django.db import migrations, models

# league.core.names.fold as it is when this migration is written (a migration keeps its own copy)
FOLDED_LETTERS = str.maketrans(
    {
        "ł": "l",
        "Ł": "l",
        "ø": "o",
        "Ø": "o",
        "đ": "d",
        "Đ": "d",
        "ð": "d",
        "Ð": "d",
        "þ": "th",
        "Þ": "th",
        "ß": "ss",
        "ẞ": "ss",
        "æ": "ae",
        "Æ": "ae",
        "œ": "oe",
        "Œ": "oe",
        "ı": "i",
        "ħ": "h",
        "Ħ": "h",
        "ŧ": "t",
        "Ŧ": "t",
    }
)


def _fold(text):
    decomposed = unicodedata.normalize("NFKD", text.translate(FOLDED_LETTERS))
    kept = []
    for character in decomposed.casefold().translate(FOLDED_LETTERS):
        category = unicodedata.category(character)
        if category[0] in "LN":
            kept.append(character)
        elif category[0] == "Z" or character in "\t\n\r":
            kept.append(" ")
    return " ".join("".join(kept).split())


def fill_search_keys(apps, schema_editor):
    Player = apps.get_model("players", "Player")
    rows = list(Player.objects.select_related("user").order_by("pk"))
    for player in rows:
        player.search_key = _fold(player.name) + (f"|{_fold(player.user.username)}" if player.user else "")
    Player.objects.bulk_update(rows, ["search_key"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("players", "0002_player_name_key")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="search_key",
            field=models.TextField(
                blank=True,
                default="",
                editable=False,
                help_text=(
                    "What searches look into: the name folded (league.core.names.search_key: no accents, "
                    "case or punctuation) and the folded user name of the account, after a '|'."
                ),
            ),
        ),
        migrations.RunPython(fill_search_keys, migrations.RunPython.noop),
    ]
