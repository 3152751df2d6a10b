"""The external programs' models (`Program`, `ProgramLog`, `WorkerProbe`) leave this app's state for the
programs app's (`programs` 0001), their tables kept as they are: nothing changes in the database."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('bots', '0012_link_owner'),
        ('programs', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='botdefinition',
                    name='program',
                    field=models.ForeignKey(blank=True, help_text="An uploaded program's files (its command is derived from the entry point).", null=True, on_delete=django.db.models.deletion.PROTECT, related_name='versions', to='programs.program'),
                ),
                migrations.RemoveField(
                    model_name='programlog',
                    name='bot',
                ),
                migrations.RemoveField(
                    model_name='programlog',
                    name='match',
                ),
                migrations.DeleteModel(
                    name='WorkerProbe',
                ),
                migrations.DeleteModel(
                    name='Program',
                ),
                migrations.DeleteModel(
                    name='ProgramLog',
                ),
            ],
            database_operations=[],
        ),
    ]
