"""Schedule the lease reaper (hands back matches of killed workers, queues work for running leagues)."""

from django.db import migrations

REAPER_NAME = "Reap expired bot-league leases"


def add_reaper(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every_15_seconds, _ = IntervalSchedule.objects.get_or_create(every=15, period="seconds")
    PeriodicTask.objects.get_or_create(
        name=REAPER_NAME,
        defaults={"task": "league.bots.tasks.reap_leases_task", "interval": every_15_seconds},
    )


def remove_reaper(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=REAPER_NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("bots", "0001_initial"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(add_reaper, remove_reaper)]
