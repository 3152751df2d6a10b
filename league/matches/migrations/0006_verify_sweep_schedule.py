"""Schedule the sweep of stored records without a verdict (lost task messages, matches stored before strict
verification existed), hourly, editable in the admin."""

from django.db import migrations

SWEEP_NAME = "Verify stored records without a verdict"


def add_sweep(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every_hour, _ = IntervalSchedule.objects.get_or_create(every=3600, period="seconds")
    PeriodicTask.objects.get_or_create(
        name=SWEEP_NAME,
        defaults={"task": "league.matches.tasks.verify_unverified_task", "interval": every_hour},
    )


def remove_sweep(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=SWEEP_NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0005_match_verification"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(add_sweep, remove_sweep)]
