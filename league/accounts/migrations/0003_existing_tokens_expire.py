"""API tokens made before tokens expired get 365 days from this migration, and their owners are told in their
inbox (a notification of kind "account"; the migration mails nothing)."""

from datetime import timedelta

from django.db import migrations
from django.utils import timezone

EXISTING_TOKEN_DAYS = 365
NOTICE_KEY = "api-token-expiry"


def notice(expires_at) -> str:
    return (
        f"API tokens expire now. Yours works until {expires_at:%Y-%m-%d %H:%M} UTC "
        f"({EXISTING_TOKEN_DAYS} days): make a new one on your page before then."
    )


def existing_tokens_expire(apps, schema_editor):
    Token = apps.get_model("authtoken", "Token")
    TokenExpiry = apps.get_model("accounts", "TokenExpiry")
    Notification = apps.get_model("notifications", "Notification")
    now = timezone.now()
    expires_at = now + timedelta(days=EXISTING_TOKEN_DAYS)
    tokens = list(Token.objects.filter(expiry__isnull=True).values_list("key", "user_id"))
    TokenExpiry.objects.bulk_create(
        [TokenExpiry(token_id=key, days=EXISTING_TOKEN_DAYS, expires_at=expires_at) for key, _ in tokens]
    )
    Notification.objects.bulk_create(
        [
            Notification(
                user_id=user_id,
                kind="account",
                key=NOTICE_KEY,
                text=notice(expires_at),
                link="/me/",
                created_at=now,
            )
            for _, user_id in tokens
        ],
        ignore_conflicts=True,
    )


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_api_token_expiry"),
        ("notifications", "0006_account_notifications"),
    ]

    operations = [migrations.RunPython(existing_tokens_expire, migrations.RunPython.noop)]
