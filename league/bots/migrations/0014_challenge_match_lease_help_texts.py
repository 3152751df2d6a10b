"""A challenge match's lease columns take the help texts of a fixture's: both come from one abstract model
(`LeasedWork`) now. Help texts only, no SQL."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('bots', '0013_programs_to_their_app'),
    ]

    operations = [
        migrations.AlterField(
            model_name='challengematch',
            name='attempts',
            field=models.PositiveSmallIntegerField(default=0, help_text='Times a worker claimed it.'),
        ),
        migrations.AlterField(
            model_name='challengematch',
            name='lease_token',
            field=models.CharField(blank=True, help_text="The claiming worker's batch.", max_length=80),
        ),
        migrations.AlterField(
            model_name='challengematch',
            name='played_by',
            field=models.CharField(blank=True, help_text='The batch that stored its result.', max_length=80),
        ),
        migrations.AlterField(
            model_name='challengematch',
            name='seconds',
            field=models.FloatField(blank=True, help_text='Time spent playing it (not in the record).', null=True),
        ),
    ]
