"""The check of uploads: a bot version's state (checking, ready, refused) with the reason and when it ended
(every existing version is ready), and the beat schedule that queues again the checks of uploads still
checking after a while."""

from django.conf import settings
from django.db import migrations, models

RECHECK_NAME = "Queue again the checks of uploads still checking"


def add_recheck(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every_10_minutes, _ = IntervalSchedule.objects.get_or_create(every=10, period="minutes")
    PeriodicTask.objects.get_or_create(
        name=RECHECK_NAME,
        defaults={"task": "league.bots.tasks.uploads_recheck_task", "interval": every_10_minutes},
    )


def remove_recheck(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=RECHECK_NAME).delete()


class Migration(migrations.Migration):

    dependencies = [
        ('bots', '0009_ladder_event_author'),
        ('players', '0002_player_name_key'),
        ('django_celery_beat', '0019_alter_periodictasks_options'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='botdefinition',
            name='checked_at',
            field=models.DateTimeField(blank=True, help_text='When the check of its upload ended.', null=True),
        ),
        migrations.AddField(
            model_name='botdefinition',
            name='refusal',
            field=models.TextField(blank=True, help_text='Why the check refused this version, for its author.'),
        ),
        migrations.AddField(
            model_name='botdefinition',
            name='state',
            field=models.CharField(choices=[('checking', 'Checking'), ('ready', 'Ready'), ('refused', 'Refused')], default='ready', help_text='An upload is checked before it plays: only a ready version takes a seat.', max_length=10),
        ),
        migrations.AddConstraint(
            model_name='botdefinition',
            constraint=models.CheckConstraint(condition=models.Q(('state', 'ready'), ('program__isnull', False), _connector='OR'), name='bot_only_uploads_are_checked'),
        ),
        migrations.AddConstraint(
            model_name='botdefinition',
            constraint=models.CheckConstraint(condition=models.Q(('state__in', ['checking', 'ready', 'refused'])), name='bot_state_known'),
        ),
        migrations.RunPython(add_recheck, remove_recheck),
    ]
