"""Schedule the nightly whole-history fit of the people's pools (03:30, the site's zone), editable in the admin."""

from django.conf import settings
from django.db import migrations

NIGHTLY_NAME = "Settled ratings: nightly whole-history fit"


def add_nightly(apps, schema_editor):
    CrontabSchedule = apps.get_model("django_celery_beat", "CrontabSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    at_half_past_three, _ = CrontabSchedule.objects.get_or_create(
        minute="30",
        hour="3",
        day_of_week="*",
        day_of_month="*",
        month_of_year="*",
        timezone=settings.TIME_ZONE,
    )
    PeriodicTask.objects.get_or_create(
        name=NIGHTLY_NAME,
        defaults={"task": "league.ratings.tasks.settled_nightly", "crontab": at_half_past_three},
    )


def remove_nightly(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=NIGHTLY_NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0006_settled_ratings"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(add_nightly, remove_nightly)]
