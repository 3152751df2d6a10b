"""Accounts: the claim links that let a person take over a player someone else entered, and when API tokens
expire.

Users are Django's own (`django.contrib.auth`); a user owns at most one person-player through
`Player.user`. A claim link is bound to one unclaimed person-player, issued by site staff or an organizer
of the event that walk-in was first registered in (`league.tournaments.reach`), works once and expires.
Only a hash of its token is stored: the token itself is shown once, to whoever issued it.

A pending sign-up is what a sign-up link finishes: the account it will make (the password only as Django's
salted hash) and the page to go back to. Only a hash of its link's token is stored, as for a claim link, so
that the link carries nothing but the token; it works for `SIGN_UP_LINK_SECONDS`, once.

API tokens are DRF's (`rest_framework.authtoken.Token`); each one made here gets a `TokenExpiry`, its lifetime
chosen when it is made. A token without one (made by other means) expires `API_TOKEN_DEFAULT_DAYS` after it
was made (`league.accounts.selectors.token_expires_at`).

A user's preference holds the time zone of the pages that are theirs (my page, the inbox, results) and of
every page that is not an event's (an event's pages show the event's zone); none set, the site's TIME_ZONE.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from rest_framework.authtoken.models import Token


class ClaimLink(models.Model):
    token_hash = models.CharField(
        max_length=64,
        unique=True,
        help_text="SHA-256 of the link's token (hex); the token itself is never stored.",
    )
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="claim_links")
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(
        null=True, blank=True, help_text="When the link was redeemed; it works once."
    )
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(used_at__isnull=True, used_by__isnull=True)
                | models.Q(used_at__isnull=False),
                name="claim_link_used_by_only_when_used",
            ),
        ]

    def __str__(self) -> str:
        return f"claim link {self.pk} for player {self.player_id}"


class PendingSignUp(models.Model):
    token_hash = models.CharField(
        max_length=64,
        unique=True,
        help_text="SHA-256 of the sign-up link's token (hex); the token itself is never stored.",
    )
    username = models.CharField(max_length=150)
    email = models.TextField()
    password_hash = models.CharField(
        max_length=128, help_text="The chosen password as Django's salted hash; never the password."
    )
    next_url = models.TextField(blank=True, help_text="The page of this site to go back to once signed up.")
    created_at = models.DateTimeField(
        default=timezone.now, help_text="The link expires SIGN_UP_LINK_SECONDS after this."
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["created_at"], name="pending_sign_up_created")]

    def __str__(self) -> str:
        return f"pending sign-up {self.pk} of {self.username}"


class TokenExpiry(models.Model):
    token = models.OneToOneField(Token, primary_key=True, on_delete=models.CASCADE, related_name="expiry")
    days = models.PositiveSmallIntegerField(help_text="The lifetime chosen when the token was made.")
    expires_at = models.DateTimeField(help_text="From then on the token answers 401 token_expired.")

    class Meta:
        verbose_name_plural = "token expiries"

    def __str__(self) -> str:
        return f"API token expiry ({self.days} days)"


class Preference(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="preference")
    time_zone = models.CharField(
        max_length=64,
        blank=True,
        help_text="An IANA zone name (Europe/Berlin) for the user's own pages; empty: the site's.",
    )

    def __str__(self) -> str:
        return f"preference of user {self.user_id}"
