"""The floor's rows: judge calls, a table's time extensions and players' penalties (issue 48). They are
tournament models kept apart from `models.py` (which imports them at its end, so Django registers them
with the app); their writes are `services/floor.py`, their reads `floor_selectors.py`."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from league.tournaments.models import Table, Tournament

DEFAULT_PENALTY_TYPES = (
    "Slow play",
    "Procedural error",
    "Tardiness",
    "Unsporting conduct",
    "Improper communication",
)


class JudgeCall(models.Model):
    """A player's call for a judge at their table: open, claimed by a judge ("a judge is coming"), then
    resolved with a note. A table has at most one call that is not resolved."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        CLAIMED = "claimed", "A judge is coming"
        RESOLVED = "resolved", "Resolved"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="judge_calls")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="judge_calls")
    caller = models.ForeignKey(
        "players.Player", on_delete=models.CASCADE, related_name="+", help_text="The player who called."
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    opened_at = models.DateTimeField()
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    claimed_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(max_length=1000, blank=True, help_text="How the judge resolved the call.")

    class Meta:
        ordering = ["opened_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=~Q(status="resolved"), name="judge_call_one_open_per_table"
            ),
        ]
        indexes = [models.Index(fields=["tournament", "status", "opened_at"], name="judge_call_queue")]

    def __str__(self) -> str:
        return f"Call at table {self.table_id} ({self.status})"


class TableExtension(models.Model):
    """Minutes a judge gave one table on top of its round's timer; a table's end is the round's end plus
    the sum of its extensions."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="extensions")
    minutes = models.PositiveSmallIntegerField()
    note = models.CharField(max_length=200, blank=True)
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    given_at = models.DateTimeField()

    class Meta:
        ordering = ["given_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(minutes__gte=1) & Q(minutes__lte=30), name="table_extension_minutes"
            ),
        ]

    def __str__(self) -> str:
        return f"+{self.minutes} min at table {self.table_id}"


class PenaltyType(models.Model):
    """One entry of a tournament's list of infractions (the organizer edits it); a tournament without rows
    uses `DEFAULT_PENALTY_TYPES`."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="penalty_types")
    name = models.CharField(max_length=60)
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="penalty_type_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class Penalty(models.Model):
    """A warning or penalty given to a player: its type (from the tournament's list), what it costs
    (nothing, points in this tournament's standings, or the game: a result correction), a note and who
    gave it. Seen by the player and the tournament's organizers and judges only."""

    class Kind(models.TextChoices):
        WARNING = "warning", "Warning"
        POINTS = "points", "Points penalty"
        GAME_LOSS = "game_loss", "Game loss"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="penalties")
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="+")
    round_number = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The round it was given in; empty before round 1."
    )
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="penalties"
    )
    infraction = models.CharField(max_length=60, help_text="The type, from the tournament's list.")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.WARNING)
    points = models.DecimalField(
        max_digits=6, decimal_places=2, default=0, help_text="Points taken off (points penalties only)."
    )
    note = models.TextField(max_length=1000, blank=True)
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    given_at = models.DateTimeField()
    result_version = models.PositiveIntegerField(
        null=True, blank=True, help_text="A game loss: the result version of its correction."
    )

    class Meta:
        ordering = ["given_at", "id"]
        verbose_name_plural = "penalties"
        constraints = [
            models.CheckConstraint(
                condition=(Q(kind="points") & Q(points__gt=0)) | (~Q(kind="points") & Q(points=0)),
                name="penalty_points_only_for_points",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "player"], name="penalty_by_player")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} to {self.player_id}: {self.infraction}"
