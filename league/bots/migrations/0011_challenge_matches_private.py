"""Challenges' matches become private: each existing challenge's matches are visible to its challenger and to
the authors of the bots it seats (and to staff), as `league.bots.challenges.challenge_create` schedules them
now."""

from django.db import migrations


def challenge_matches_private(apps, schema_editor):
    Challenge = apps.get_model("bots", "Challenge")
    ChallengeMatch = apps.get_model("bots", "ChallengeMatch")
    Match = apps.get_model("matches", "Match")
    MatchViewer = apps.get_model("matches", "MatchViewer")
    for challenge in Challenge.objects.select_related("bot").prefetch_related("opponents").iterator(chunk_size=500):
        bots = [challenge.bot, *challenge.opponents.all()]
        viewers = sorted({challenge.challenger_id} | {bot.created_by_id for bot in bots if bot.created_by_id})
        match_ids = list(ChallengeMatch.objects.filter(challenge=challenge).values_list("match_id", flat=True))
        Match.objects.filter(pk__in=match_ids).update(visibility="private")
        MatchViewer.objects.bulk_create(
            [MatchViewer(match_id=match_id, user_id=user_id) for match_id in match_ids for user_id in viewers],
            ignore_conflicts=True,
        )


class Migration(migrations.Migration):
    dependencies = [
        ("bots", "0010_bot_upload_check_state"),
        ("matches", "0007_match_visibility"),
    ]

    operations = [migrations.RunPython(challenge_matches_private, migrations.RunPython.noop)]
