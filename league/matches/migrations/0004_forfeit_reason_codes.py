"""Match records: rewrite each forfeit's reason, once words (an exception's message, what an external program
printed, the time a move took), into its code (`games.core.record.FORFEIT_REASONS`). Records are public; what
a bot printed is not, and records hold no wall-clock figures. The words are not kept: they were the public
text this migration takes away."""

from django.db import migrations

from games.core.record import compress, decompress

CODES = ("illegal_action", "timeout", "crashed", "protocol_error", "limit_exceeded")
EXTERNAL = "raised ExternalBotError: "


def reason_code(reason: object) -> str:
    """The code of a forfeit reason in the words the runner and the external programs' seats wrote."""
    if reason in CODES:
        return reason
    text = str(reason)
    if text.startswith("illegal action"):
        return "illegal_action"
    if text.startswith("took ") and "over the" in text:
        return "timeout"
    if text.startswith(EXTERNAL):
        said = text[len(EXTERNAL) :]
        if said.startswith(("no answer within", "did not read its input")):
            return "timeout"
        if said.startswith("answered more than") or "(killed by SIGXCPU)" in said or "(killed by SIGXFSZ)" in said:
            return "limit_exceeded"
        if said.startswith("answered "):
            return "protocol_error"
    return "crashed"


def _needs_rewrite(record: dict) -> bool:
    return any(forfeit.get("reason") not in CODES for forfeit in record.get("end", {}).get("forfeits") or [])


def rewrite_reasons(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    # Read first, write after: no write while a cursor over the table is open (SQLite).
    stale = [
        pk
        for pk, blob in Match.objects.exclude(record=None).values_list("pk", "record").iterator(chunk_size=500)
        if _needs_rewrite(decompress(blob))
    ]
    for start in range(0, len(stale), 500):
        changed = []
        for pk, blob in Match.objects.filter(pk__in=stale[start : start + 500]).values_list("pk", "record"):
            record = decompress(blob)
            for forfeit in record["end"]["forfeits"]:
                forfeit["reason"] = reason_code(forfeit.get("reason"))
            changed.append(Match(pk=pk, record=compress(record)))
        Match.objects.bulk_update(changed, ["record"])


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0003_leaner_indexes"),
    ]

    operations = [migrations.RunPython(rewrite_reasons, migrations.RunPython.noop)]
