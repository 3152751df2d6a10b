"""A bracket table can be reset by a correction (closed_as "reset"); tournament slugs may hold letters of any
script."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0003_round_timer_audit_log'),
    ]

    operations = [
        migrations.AlterField(
            model_name='table',
            name='closed_as',
            field=models.CharField(blank=True, choices=[('', 'Played'), ('no_show', 'No-show'), ('forfeit', 'Forfeit'), ('reset', 'Reset')], default='', max_length=8),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='slug',
            field=models.SlugField(allow_unicode=True, help_text='Derived from the name; used in page URLs.', max_length=130, unique=True),
        ),
    ]
