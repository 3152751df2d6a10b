"""The external programs' models, moved here from the bots app with their tables: the tables stay as the bots
app made them (`db_table` keeps their names), so only Django's state changes (`bots` 0013 drops them from its
own state), and no row is copied. Their content types (and so their permissions and admin history) follow."""

import django.db.models.deletion
from django.db import migrations, models


MODELS = ["program", "programlog", "workerprobe"]


def content_types_follow(apps, schema_editor):
    _content_types_move(apps, "bots", "programs")


def content_types_back(apps, schema_editor):
    _content_types_move(apps, "programs", "bots")


def _content_types_move(apps, old, new):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = ContentType.objects.db
    # a content type the new app already has (made by a migrate before this one ran) is left as it is
    taken = set(ContentType.objects.using(db).filter(app_label=new, model__in=MODELS).values_list("model", flat=True))
    ContentType.objects.using(db).filter(app_label=old, model__in=[m for m in MODELS if m not in taken]).update(
        app_label=new
    )


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('bots', '0012_link_owner'),
        ('matches', '0008_match_owner'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='WorkerProbe',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('worker', models.CharField(help_text='The worker: Celery node name or host:pid.', max_length=200, unique=True)),
                        ('hostname', models.CharField(max_length=200)),
                        ('isolated', models.BooleanField(help_text='Every protection proven: it plays external programs.')),
                        ('proven', models.JSONField(default=dict, help_text='Protection name → proven.')),
                        ('detail', models.JSONField(default=dict, help_text='Protection name → what the probe saw.')),
                        ('checked_at', models.DateTimeField()),
                        ('seen_at', models.DateTimeField(help_text='When it last looked for work.')),
                    ],
                    options={
                        'db_table': 'bots_workerprobe',
                        'ordering': ['-seen_at', 'worker'],
                    },
                ),
                migrations.CreateModel(
                    name='Program',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('sha256', models.CharField(help_text='SHA-256 of the uploaded bytes, in hex.', max_length=64, unique=True)),
                        ('size', models.PositiveIntegerField(help_text="The upload's size in bytes.")),
                        ('format', models.CharField(choices=[('python', 'One Python file'), ('zip', 'Zip archive'), ('tar', 'Tar archive')], max_length=10)),
                        ('entry', models.CharField(help_text='The entry point: a Python file of the program.', max_length=1024)),
                        ('manifest', models.JSONField(default=dict, help_text='The manifest, checked and normalised.')),
                        ('files', models.JSONField(default=list, help_text='Each file: [path, size, SHA-256].')),
                        ('extracted_bytes', models.PositiveBigIntegerField(help_text='All its files, unpacked, in bytes.')),
                        ('content', models.BinaryField(help_text='The uploaded bytes.')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        'db_table': 'bots_program',
                        'ordering': ['-created_at', '-id'],
                        'constraints': [models.CheckConstraint(condition=models.Q(('sha256__regex', '^[0-9a-f]{64}$')), name='program_sha256_hex')],
                    },
                ),
                migrations.CreateModel(
                    name='ProgramLog',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('seat', models.PositiveSmallIntegerField()),
                        ('forfeit', models.CharField(blank=True, help_text="The record's forfeit code, if it forfeited.", max_length=20)),
                        ('detail', models.TextField(blank=True, help_text='Why it forfeited, in words.')),
                        ('output', models.TextField(blank=True, help_text='The last 8 KB the program wrote to its standard error.')),
                        ('output_bytes', models.PositiveBigIntegerField(default=0, help_text='All it wrote there, in bytes.')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('bot', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='logs', to='bots.botdefinition')),
                        ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='program_logs', to='matches.match')),
                    ],
                    options={
                        'db_table': 'bots_programlog',
                        'ordering': ['match', 'seat'],
                        'indexes': [models.Index(fields=['bot', '-match'], name='program_log_bot_newest')],
                        'constraints': [models.UniqueConstraint(fields=('match', 'seat'), name='program_log_once_per_seat')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_follow, content_types_back),
    ]
