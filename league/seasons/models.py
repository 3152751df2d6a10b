"""Clubs (organizations that own events and seasons) and seasons (a set of events over a period, ranked by
points rules the organizer picks: `league.seasons.points`)."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.urls import reverse


class Club(models.Model):
    """A club, store or circuit: its organizers are organizers of every event of the club."""

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=140, unique=True, allow_unicode=True)
    organizers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="clubs_organized", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("seasons:club", kwargs={"slug": self.slug})


class ClubEvent(models.Model):
    """An event the club owns (each event belongs to one club at most)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="events")
    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="club_event"
    )

    def __str__(self) -> str:
        return f"{self.tournament} of {self.club}"


class Season(models.Model):
    """A season (circuit) of a club: its events, points rules, qualification and tie-breaks."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=140, unique=True, allow_unicode=True)
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    place_points = models.JSONField(
        default=list, help_text="Points for places 1, 2, 3, ... as decimal strings; places beyond score 0."
    )
    scale_by_field = models.BooleanField(
        default=False, help_text="Scale place points by players who played ÷ the reference size."
    )
    reference_size = models.PositiveSmallIntegerField(default=16)
    per_win = models.DecimalField(max_digits=8, decimal_places=2, default=Decimal(0))
    participation = models.DecimalField(max_digits=8, decimal_places=2, default=Decimal(0))
    best_of = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Empty: every result counts.")
    minimum_events = models.PositiveSmallIntegerField(default=0)
    qualify_top = models.PositiveSmallIntegerField(null=True, blank=True)
    qualify_points = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    tie_breaks = models.JSONField(default=list, blank=True)

    class RankBy(models.TextChoices):
        POINTS = "points", "points"
        SETTLED = "settled", "settled ratings"

    rank_by = models.CharField(
        max_length=10,
        choices=RankBy.choices,
        default=RankBy.POINTS,
        help_text="What orders the table: the points rules, or the season's settled ratings (a whole-history "
        "fit over the season's tables, refitted each night by the workers).",
    )
    frozen_at = models.DateTimeField(null=True, blank=True)
    frozen_table = models.JSONField(default=list, blank=True)
    frozen_versions = models.JSONField(
        default=dict,
        blank=True,
        help_text="Each event's public version at the freeze (tournament id → version).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("seasons:season", kwargs={"slug": self.slug})


class SeasonEvent(models.Model):
    """An event in a season, with its tier multiplier. Another club's event joins when that club accepts."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="+")
    multiplier = models.DecimalField(max_digits=5, decimal_places=2, default=Decimal(1))
    accepted_at = models.DateTimeField(null=True, blank=True, help_text="Empty: invited, not yet accepted.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["season", "tournament"], name="season_event_once"),
            models.CheckConstraint(
                condition=models.Q(multiplier__gt=0), name="season_event_multiplier_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} in {self.season}"


class CalendarFeed(models.Model):
    """A user's private calendar feed of their own events: a secret address (only its SHA-256 stored),
    revoked by issuing a new one or by revoking it."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed"
    )
    token_hash = models.CharField(max_length=64, unique=True)
    issued_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"calendar feed of {self.user_id}"


class SeasonFit(models.Model):
    """The last whole-history fit of a season's tables (`league.seasons.settled`), made by a worker."""

    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="settled_fit")
    matches = models.PositiveIntegerField(default=0, help_text="Matches the fit covers.")
    iterations = models.PositiveSmallIntegerField(default=0)
    fitted_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"settled fit of {self.season_id}"


class SeasonRating(models.Model):
    """A player's settled rating in a season: the fit's rating on the last day they played in it (natural
    units: a difference of 1 is odds of e to 1), with its standard deviation."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="settled_ratings", db_index=False
    )
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="+")
    rating = models.FloatField()
    sd = models.FloatField()
    day = models.DateField(help_text="The last day the player played in the season (the site's zone).")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["season", "player"], name="season_rating_once")]

    def __str__(self) -> str:
        return f"{self.player_id} in season {self.season_id}: {self.rating:.3f}"
