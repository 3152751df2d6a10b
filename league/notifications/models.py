"""Notifications (a user's inbox, and the mail sent for each) and outbound webhooks (docs/webhooks.md).

A notification is stored by a Celery task after the action that caused it committed, once per user and
cause (`key`), so a retried task never stores it twice. Webhooks belong to the user who registered them,
for one tournament (its organizers) or one bot league (site staff), while they hold that role; each event
makes one delivery per subscribed webhook, and each try of a delivery is logged as an attempt.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone


class Kind(models.TextChoices):
    TABLE_READY = "table_ready", "My table is ready"
    CONFIRM = "confirm_result", "A result waits for my confirmation"
    DISPUTED = "table_disputed", "A table of a tournament I organize is disputed"
    ROUND_WAITING = "round_waiting", "A round my tournament started by itself waits for me"
    FINISHED = "tournament_finished", "A tournament I play in finishes"
    CANCELLED = "tournament_cancelled", "A tournament I entered is cancelled"
    BOT_MATCH_VOIDED = "bot_match_voided", "A match of my bot is voided (staff: any bot's)"
    BOT_CHECKED = "bot_checked", "The check of a bot I uploaded ends (ready or refused)"
    BOT_FORFEITED = "bot_forfeited", "My bot forfeits rated matches, or a ladder withdraws it for that"
    INVITED = "invited", "An organizer invites me to a tournament"
    ACCOUNT = "account", "News about my account"


class Notification(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=24, choices=Kind.choices)
    key = models.CharField(max_length=120, help_text="What caused it, so that it is stored once per user.")
    text = models.CharField(max_length=300)
    link = models.CharField(max_length=300, blank=True, help_text="A path on this site.")
    tournament = models.ForeignKey(
        "tournaments.Tournament", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    table = models.ForeignKey(
        "tournaments.Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True, help_text="When its mail was sent (if it was).")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="notification_once_per_cause")]
        indexes = [models.Index(fields=["user", "read_at"], name="notification_unread")]

    def __str__(self) -> str:
        return f"{self.kind} for user {self.user_id}"


class LinkMail(models.Model):
    """The "your table is out" mail to the email address a private link's holder left (a player without an
    account): stored once per link and table by the task after the round was published, sent once. The
    mail carries no link: the token is never stored, and a mail is no place for it."""

    link = models.ForeignKey("tournaments.PrivateLink", on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey("tournaments.Table", on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    emailed_at = models.DateTimeField(null=True, blank=True, help_text="When its mail was sent (if it was).")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["link", "table"], name="link_mail_once_per_table")]

    def __str__(self) -> str:
        return f"table {self.table_id} mail for private link {self.link_id}"


class MailPreference(models.Model):
    """Which notifications a user also gets by mail (all kinds unless they opt out); no row = all."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mail_preference"
    )
    email_enabled = models.BooleanField(default=True, help_text="Off: no notification mail at all.")
    muted_kinds = models.JSONField(default=list, blank=True, help_text="Kinds never mailed.")

    def __str__(self) -> str:
        return f"mail preference of user {self.user_id}"


class Event(models.TextChoices):
    TABLE_READY = "table.ready", "table.ready: tables get their players"
    RESULT_RECORDED = "result.recorded", "result.recorded: a result is stored at a table"
    RESULT_DISPUTED = "result.disputed", "result.disputed: a player disputes a result"
    TOURNAMENT_FINISHED = "tournament.finished", "tournament.finished: the tournament finishes"
    LEAGUE_ROUND_RATED = "league.round_rated", "league.round_rated: a bot-league round is played and rated"
    SEASON_TABLE_CHANGED = "season.table_changed", "season.table_changed: a season's table changed"


TOURNAMENT_EVENTS = [
    Event.TABLE_READY,
    Event.RESULT_RECORDED,
    Event.RESULT_DISPUTED,
    Event.TOURNAMENT_FINISHED,
]
LEAGUE_EVENTS = [Event.LEAGUE_ROUND_RATED]
SEASON_EVENTS = [Event.SEASON_TABLE_CHANGED]


class Webhook(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks")
    tournament = models.ForeignKey(
        "tournaments.Tournament", null=True, blank=True, on_delete=models.CASCADE, related_name="webhooks"
    )
    league = models.ForeignKey(
        "bots.BotLeague", null=True, blank=True, on_delete=models.CASCADE, related_name="webhooks"
    )
    season = models.ForeignKey(
        "seasons.Season", null=True, blank=True, on_delete=models.CASCADE, related_name="webhooks"
    )
    url = models.CharField(max_length=500)
    secret = models.CharField(
        max_length=80, help_text="Signs every delivery (HMAC-SHA256); the owner sees it."
    )
    events = models.JSONField(help_text="The event types sent to it.")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(tournament__isnull=False, league__isnull=True, season__isnull=True)
                | models.Q(tournament__isnull=True, league__isnull=False, season__isnull=True)
                | models.Q(tournament__isnull=True, league__isnull=True, season__isnull=False),
                name="webhook_for_one_tournament_league_or_season",
            ),
        ]

    def __str__(self) -> str:
        return f"webhook {self.pk} to {self.url}"


class Delivery(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        DELIVERED = "delivered", "Delivered"
        FAILED = "failed", "Failed"
        REFUSED = "refused", "Refused (address not allowed)"
        CANCELLED = "cancelled", "Cancelled (its owner no longer holds the role, or the event is cancelled)"

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    delivery_id = models.UUIDField(unique=True)
    event = models.CharField(max_length=32, choices=Event.choices)
    key = models.CharField(max_length=120, help_text="What caused it, so that it is made once per webhook.")
    body = models.TextField(help_text="The JSON sent, byte for byte the same at every attempt.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["webhook", "key"], name="delivery_once_per_cause")]

    def __str__(self) -> str:
        return f"{self.event} {self.delivery_id}"


class Attempt(models.Model):
    delivery = models.ForeignKey(Delivery, on_delete=models.CASCADE, related_name="attempts")
    number = models.PositiveSmallIntegerField()
    at = models.DateTimeField(default=timezone.now)
    duration_ms = models.PositiveIntegerField(default=0)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.CharField(max_length=500, blank=True)
    address = models.CharField(max_length=64, blank=True, help_text="The address connected to.")
    response_bytes = models.PositiveIntegerField(default=0)
    truncated = models.BooleanField(default=False, help_text="The response was longer than was read.")
    excerpt = models.CharField(max_length=500, blank=True, help_text="The start of the response.")

    class Meta:
        ordering = ["delivery", "number"]
        constraints = [models.UniqueConstraint(fields=["delivery", "number"], name="attempt_number_unique")]

    def __str__(self) -> str:
        return f"attempt {self.number} of {self.delivery_id}"
