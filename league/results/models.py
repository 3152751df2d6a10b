"""Result versions: every entry or correction of a match's outcome, never edited in place."""

from django.conf import settings
from django.db import models
from django.utils import timezone


class ResultVersion(models.Model):
    """One version of a match's result; the highest version counts.

    `places` and `scores` are lists indexed by seat. `entered_by` is None for results entered by the system
    (bot matches). A `void` version records that the match was voided (it no longer counts; its places are
    empty, the seats keep their last places for the record). `advancing` is the decider of a tie at an elimination table's cut (who goes through),
    which the tournament asks for. The (match, version) uniqueness rule decides between concurrent
    submissions.
    """

    match = models.ForeignKey(
        "matches.Match", on_delete=models.CASCADE, related_name="result_versions", db_index=False
    )  # result_version_unique leads with it
    version = models.PositiveIntegerField()
    places = models.JSONField(help_text="Place per seat, 1 = first, ties share a place (competition ranking).")
    scores = models.JSONField(null=True, blank=True, help_text="Score per seat, if entered.")
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_at = models.DateTimeField(default=timezone.now)
    reason = models.TextField(blank=True, help_text="Why this version was entered (required for corrections).")
    void = models.BooleanField(
        default=False,
        db_default=False, help_text="This version voids the match: it no longer counts (its places are empty)."
    )
    advancing = models.JSONField(
        null=True,
        blank=True,
        default=None,
        help_text="Player ids who go through, where the places leave an elimination table's cut undecided "
        "(a tie at the cut); empty otherwise.",
    )

    class Meta:
        ordering = ["match", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["match", "version"], name="result_version_unique"),
            models.CheckConstraint(condition=models.Q(version__gte=1), name="result_version_positive"),
        ]

    def __str__(self) -> str:
        return f"Match {self.match_id} result v{self.version}"
