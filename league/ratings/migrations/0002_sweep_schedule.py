"""Schedule the sweep of pending rating updates (a safety net for lost task messages), editable in the admin."""

from django.db import migrations

SWEEP_NAME = "Sweep pending rating updates"


def add_sweep(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every_minute, _ = IntervalSchedule.objects.get_or_create(every=60, period="seconds")
    PeriodicTask.objects.get_or_create(
        name=SWEEP_NAME,
        defaults={"task": "league.ratings.tasks.sweep_pending_ratings", "interval": every_minute},
    )


def remove_sweep(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=SWEEP_NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0001_initial"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(add_sweep, remove_sweep)]
