"""Pending sign-ups are stored: a sign-up link carries only a random token (its SHA-256 is stored), no
longer the account's username, address and password hash, which landed in access logs. Links mailed before
this migration are refused as broken: their owners sign up again."""

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0003_existing_tokens_expire'),
    ]

    operations = [
        migrations.CreateModel(
            name='PendingSignUp',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('token_hash', models.CharField(help_text="SHA-256 of the sign-up link's token (hex); the token itself is never stored.", max_length=64, unique=True)),
                ('username', models.CharField(max_length=150)),
                ('email', models.TextField()),
                ('password_hash', models.CharField(help_text="The chosen password as Django's salted hash; never the password.", max_length=128)),
                ('next_url', models.TextField(blank=True, help_text='The page of this site to go back to once signed up.')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, help_text='The link expires SIGN_UP_LINK_SECONDS after this.')),
            ],
            options={
                'ordering': ['-created_at', '-id'],
                'indexes': [models.Index(fields=['created_at'], name='pending_sign_up_created')],
            },
        ),
    ]
