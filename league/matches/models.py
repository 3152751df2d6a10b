"""Matches: one table of one game, shared by casual play, tournaments and bot leagues.

A tournament table, a league fixture or a challenge match links to its match rather than copying it, and the
match knows which kind of link it takes (`Match.owner`, set by the scheduling services here): see
docs/league.md for the database's guard of it. Who may see a match is stored on it when it is scheduled: a
public match is everyone's, a private one (a challenge's) its viewers' (`MatchViewer`) and staff's, so that
every list filters in one query (`league.matches.selectors.visible_to`) without knowing what owns the match.
The outcome of the latest
result version is copied onto the seats (`MatchSeat.place`, `MatchSeat.score`) by `matches_set_outcomes`,
which the results services call, so that lists and ratings read it without parsing versions; the versions
themselves live in `results`.
"""

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from games.core.record import compress, decompress


class MatchOwner(models.TextChoices):
    """Whose rules a match follows: casual play (the generic result entry), a tournament table, a bot
    league's or ladder's fixture, a bot challenge, or the validation of a new bot version. Set when it is
    scheduled, never changed."""

    CASUAL = "casual", "Casual"
    TABLE = "table", "Tournament table"
    FIXTURE = "fixture", "Bot league fixture"
    CHALLENGE = "challenge", "Bot challenge"
    VALIDATION = "validation", "Bot validation"
    VERSION_TEST = "vtest", "Bot version test"


class Match(models.Model):
    """One match. A bot league writes several rows per match it plays, so every index here earns its keep:
    a foreign key led by a composite index or unique constraint has no index of its own."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        VOID = "void", "Void"

    class Visibility(models.TextChoices):
        PUBLIC = "public", "Public"
        PRIVATE = "private", "Private"

    Owner = MatchOwner

    game_id = models.CharField(max_length=40, help_text="A game id from the games registry.")
    game_version = models.PositiveIntegerField(
        help_text="The game's rules version when the match was created."
    )
    options = models.JSONField(
        default=dict, blank=True, help_text="Validated variant options, defaults filled."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    owner = models.CharField(
        max_length=10,
        choices=Owner.choices,
        editable=False,
        help_text="Whose rules its results follow; the one link row (table, fixture, challenge "
        "match) agrees.",
    )
    rated = models.BooleanField(default=True)
    rating_pool = models.ForeignKey(
        "ratings.RatingPool",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="matches",
        db_index=False,  # match_pool_order leads with it
        help_text="The pool a rated match counts in (the game's people pool, or a bot league's pool).",
    )
    played_at = models.DateTimeField(
        default=timezone.now, help_text="Defines the order of the people's pools."
    )
    result_version = models.PositiveIntegerField(
        default=0, help_text="The latest result version; 0 = no result."
    )
    record = models.BinaryField(
        null=True,
        blank=True,
        editable=False,
        help_text="The zlib-compressed JSON match record of a bot match.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    visibility = models.CharField(
        max_length=7,
        choices=Visibility.choices,
        default=Visibility.PUBLIC,
        help_text="Set when the match is scheduled: private matches are their viewers' and staff's only.",
    )

    class Meta:
        ordering = ["-played_at", "-id"]
        verbose_name_plural = "matches"
        indexes = [
            models.Index(fields=["rating_pool", "played_at", "id"], name="match_pool_order"),
            models.Index(fields=["-played_at", "-id"], name="match_recent"),
            models.Index(fields=["game_id", "-played_at", "-id"], name="match_game_recent"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(rated=True, rating_pool__isnull=False)
                | models.Q(rated=False, rating_pool__isnull=True),
                name="match_rated_iff_pool",
            ),
            models.CheckConstraint(condition=models.Q(owner__in=MatchOwner.values), name="match_owner_known"),
        ]

    def __str__(self) -> str:
        return f"Match {self.pk} ({self.game_id})"

    def get_absolute_url(self) -> str:
        return reverse("matches:detail", kwargs={"pk": self.pk})

    def record_json(self) -> dict | None:
        """The match record, decompressed, or None for a match without one."""
        if self.record is None:
            return None
        return decompress(self.record)

    @staticmethod
    def compress_record(record: Mapping[str, Any]) -> bytes:
        """The stored form of a match record: the engines' one codec (`games.core.record.compress`)."""
        return compress(record)


class MatchSeat(models.Model):
    """One seat of a match: who sits there, and the outcome of the latest result version."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats", db_index=False)
    seat = models.PositiveSmallIntegerField(help_text="0-based; seat 0 starts.")
    player = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, related_name="seats", db_index=False
    )
    place = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="1 = first; tied players share it."
    )
    score = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="seat_unique_in_match"),
            models.UniqueConstraint(fields=["match", "player"], name="player_once_per_match"),
        ]
        indexes = [models.Index(fields=["player", "match"], name="seat_by_player")]

    def __str__(self) -> str:
        return f"{self.match_id} seat {self.seat}: {self.player_id}"


class MatchViewer(models.Model):
    """A user who may see a private match (a challenge's challenger, the authors of the bots seated in it)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="viewers", db_index=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="match_viewer_unique")]

    def __str__(self) -> str:
        return f"{self.match_id} viewer {self.user_id}"


class Verification(models.Model):
    """The strict verification of a bot match's record (`games.core.verify`), run once per stored match by
    `league.matches.tasks.verify_matches_task`: verified, rejected (the first changed or illegal event), or
    not verifiable (why: a record written before bot versions were recorded, another version of the game).
    `not_remade` lists the seats checked for legality only: `{"seat": n, "why": "..."}` (external programs,
    time-limited search, other bot versions)."""

    class Status(models.TextChoices):
        VERIFIED = "verified", "Verified"
        REJECTED = "rejected", "Rejected"
        NOT_VERIFIABLE = "not_verifiable", "Not verifiable"

    match = models.OneToOneField(
        Match, primary_key=True, on_delete=models.CASCADE, related_name="verification"
    )
    status = models.CharField(max_length=16, choices=Status.choices)
    reason = models.TextField(blank=True, help_text="Why it was rejected or is not verifiable, in words.")
    event = models.PositiveIntegerField(
        null=True, blank=True, help_text="0-based index of the rejected event."
    )
    seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="0-based seat of a rejected decision."
    )
    detail = models.TextField(
        blank=True, help_text="The reason without the event and seat (pages number them)."
    )
    not_remade = models.JSONField(default=list, blank=True, help_text="Seats checked for legality only.")
    notes = models.JSONField(default=list, blank=True, help_text="What was taken as recorded (a time-out).")
    checked_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"Match {self.match_id}: {self.summary()}"

    def summary(self) -> str:
        """ "verified", "rejected: event 12, seat 1 (...): ..." or "not verifiable: why"."""
        if self.status == self.Status.VERIFIED:
            return "verified"
        if self.status == self.Status.REJECTED:
            where = f"event {self.event}: " if self.event is not None else ""
            return f"rejected: {where}{self.reason}"
        return f"not verifiable: {self.reason}"

    def page_text(self) -> str:
        """The verdict as a page says it: events and seats numbered from 1, as the pages number them."""
        if self.status != self.Status.REJECTED:
            return self.summary()
        where = f"event {self.event + 1}" if self.event is not None else "the record's end"
        if self.seat is not None:
            where += f", seat {self.seat + 1}"
        elif self.detail and not self.detail.startswith("illegal"):
            where += ", chance outcome"
        return f"rejected: {where}: {self.detail or self.reason}"
