"""Result versions: every entry or correction of a match's outcome, never edited in place."""

from django.conf import settings
from django.db import models
from django.utils import timezone


class ResultVersion(models.Model):
    """One version of a match's result; the highest version counts.

    `places` and `scores` are lists indexed by seat. `entered_by` is None for results entered by the system
    (bot matches). A `void` version records that the match was voided (it no longer counts; its places are
    empty, the seats keep their last places for the record). `advancing` is the decider of a tie at an
    elimination table's cut (who goes through), which the tournament asks for. The (match, version) uniqueness
    rule decides between concurrent submissions.
    """

    match = models.ForeignKey(
        "matches.Match", on_delete=models.CASCADE, related_name="result_versions", db_index=False
    )  # result_version_unique leads with it
    version = models.PositiveIntegerField()
    places = models.JSONField(
        help_text="Place per seat, 1 = first, ties share a place (competition ranking)."
    )
    scores = models.JSONField(null=True, blank=True, help_text="Score per seat, if entered.")
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_at = models.DateTimeField(default=timezone.now)
    reason = models.TextField(
        blank=True, help_text="Why this version was entered (required for corrections)."
    )
    void = models.BooleanField(
        default=False,
        db_default=False,
        help_text="This version voids the match: it no longer counts (its places are empty).",
    )
    advancing = models.JSONField(
        null=True,
        blank=True,
        default=None,
        help_text="Player ids who go through, where the places leave an elimination table's cut undecided "
        "(a tie at the cut); empty otherwise.",
    )
    report = models.OneToOneField(
        "results.ResultReport",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="stored_version",
        help_text="The players' report this version stores: its reporter and confirmers are the version's "
        "attribution (`entered_by` is the reporter's account); empty for an organizer's entry.",
    )

    class Meta:
        ordering = ["match", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["match", "version"], name="result_version_unique"),
            models.CheckConstraint(condition=models.Q(version__gte=1), name="result_version_positive"),
        ]

    def __str__(self) -> str:
        return f"Match {self.match_id} result v{self.version}"


class ResultReport(models.Model):
    """A player's report of a table's result, waiting for the others at the table to confirm it.

    Pinned to the match's `expected_version` when reported (0: no result yet). `awaiting` is who must
    confirm (player ids, fixed when reported); once each of them has a `ReportConfirmation`, the tournament
    stores the report as the match's next `ResultVersion` (whose `report` points here). At most one report of
    a match is open at a time (the partial unique rule decides between two players reporting at once).
    """

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for confirmation"
        STORED = "stored", "Confirmed and stored"
        DISPUTED = "disputed", "Disputed"
        SUPERSEDED = "superseded", "Overtaken by an organizer's entry"
        WITHDRAWN = "withdrawn", "Taken back by its reporter"

    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="reports")
    expected_version = models.PositiveIntegerField()
    reporter = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    places = models.JSONField(help_text="Place per seat, as reported (competition ranking).")
    scores = models.JSONField(null=True, blank=True, help_text="Score per seat, if reported.")
    advancing = models.JSONField(
        null=True, blank=True, default=None, help_text="The reporter's decider of a tie at the cut."
    )
    awaiting = models.JSONField(default=list, help_text="Player ids who must confirm, fixed when reported.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match"], condition=models.Q(status="open"), name="result_report_one_open_per_match"
            ),
        ]

    def __str__(self) -> str:
        return f"Report {self.pk} of match {self.match_id} ({self.status})"


class ReportConfirmation(models.Model):
    """One player's confirmation of a report (each awaited player confirms once)."""

    report = models.ForeignKey(ResultReport, on_delete=models.CASCADE, related_name="confirmations")
    player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["report", "at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["report", "player"], name="report_confirmation_once_per_player"),
        ]

    def __str__(self) -> str:
        return f"Player {self.player_id} confirms report {self.report_id}"


class ResultDispute(models.Model):
    """A seated player's dispute of a report (open or stored) with their own claim; the table is flagged to
    the organizers until an organizer's entry (a new result version) settles it. One open dispute per match.
    """

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        SETTLED = "settled", "Settled by an organizer"

    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="disputes")
    report = models.ForeignKey(ResultReport, on_delete=models.CASCADE, related_name="disputes")
    player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    places = models.JSONField(
        null=True, blank=True, help_text="The disputing player's claim: place per seat."
    )
    scores = models.JSONField(null=True, blank=True, help_text="The claim's score per seat, if given.")
    note = models.TextField(blank=True, help_text="What the disputing player says happened.")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(default=timezone.now)
    settled_by = models.ForeignKey(
        ResultVersion,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The organizer's version that settled it.",
    )

    class Meta:
        ordering = ["match", "-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match"], condition=models.Q(status="open"), name="result_dispute_one_open_per_match"
            ),
        ]

    def __str__(self) -> str:
        return f"Dispute {self.pk} of match {self.match_id} ({self.status})"
