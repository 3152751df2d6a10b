"""Rating pools, the ratings in them, and a history row per player per rated match.

A pool is an independent rating world: one per game for people, one per bot league. The model's name and
parameters are stored with the pool, so a pool's numbers can always be recomputed the same way.
"""

from django.db import models

from league.ratings import forecast, maths


class RatingPool(models.Model):
    class Kind(models.TextChoices):
        PEOPLE = "people", "People"
        BOT_LEAGUE = "bot_league", "Bot league"

    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.PEOPLE)
    game_id = models.CharField(max_length=40, db_index=True)
    model_name = models.CharField(max_length=40, default=maths.DEFAULT_MODEL.name)
    model_params = models.JSONField(default=maths.default_params)
    created_at = models.DateTimeField(auto_now_add=True)
    # The latest match applied, in the pool's order, or a later point (never an earlier one); None: unknown.
    # A result after it has nothing to undo, which spares a bot league's worker a query per update.
    applied_through_at = models.DateTimeField(null=True, blank=True, editable=False)
    applied_through_id = models.BigIntegerField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["game_id", "kind", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game_id"], condition=models.Q(kind="people"), name="one_people_pool_per_game"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def model(self) -> maths.RatingModel:
        return maths.RatingModel(self.model_name, dict(self.model_params))

    def match_order(self) -> tuple[str, ...]:
        """The order in which this pool applies its matches. People: the time played, then the id."""
        return ("played_at", "id")


PROVISIONAL_MATCHES = 5  # pages call a rating "provisional" until it has this many rated matches in its pool


class Rating(models.Model):
    """A player's current rating in a pool. `conservative` = mu − 3σ, stored to sort leaderboards in SQL."""

    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    conservative = models.FloatField()
    matches = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["pool", "-conservative", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["pool", "player"], name="one_rating_per_player_per_pool")
        ]
        indexes = [models.Index(fields=["pool", "-conservative", "player"], name="rating_leaderboard")]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.pool_id}: {self.conservative:.2f}"

    @property
    def uncertainty(self) -> float:
        """The ± shown next to the conservative rating: 3σ."""
        return maths.uncertainty(self.sigma)


class RatingHistory(models.Model):
    """A player's rating before and after one rated match of a pool."""

    # The pool and player columns are indexed by the unique rule and `history_by_player`; no extra indexes,
    # so that replays insert fast.
    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="history", db_index=False)
    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="rating_history")
    player = models.ForeignKey(
        "players.Player", on_delete=models.CASCADE, related_name="rating_history", db_index=False
    )
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        verbose_name_plural = "rating history"
        constraints = [
            models.UniqueConstraint(
                fields=["pool", "match", "player"], name="one_history_row_per_match_player"
            ),
        ]
        indexes = [models.Index(fields=["player", "pool"], name="history_by_player")]

    def __str__(self) -> str:
        return f"{self.player_id} in match {self.match_id}"

    @property
    def conservative_after(self) -> float:
        return maths.conservative(self.mu_after, self.sigma_after)


class PendingRatingUpdate(models.Model):
    """A match whose result changed since its pool was last brought up to date.

    `pools_changed` adds one in the transaction that changed the outcome (the results services call it);
    `pool_update` replays the pool from the earliest pending match and deletes the markers it handled.
    Markers make the update idempotent and safe to retry: a lost task leaves its marker for the next run (or
    the periodic sweep).
    """

    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="pending_updates")
    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"pool {self.pool_id}: match {self.match_id}"


class Prediction(models.Model):
    """A seat's chances before its match, from its pool's ratings at the time the table was published, the
    round drawn or the match recorded (`league.ratings.forecast`). Written once, in bulk, never changed:
    calibration compares these numbers with what then happened."""

    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="predictions", db_index=False)
    match = models.ForeignKey(
        "matches.Match", on_delete=models.CASCADE, related_name="predictions", db_index=False
    )
    seat = models.PositiveSmallIntegerField(help_text="0-based, as the match's seats.")
    seats = models.PositiveSmallIntegerField(help_text="The number of seats at the table.")
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="+", db_index=False)
    mu = models.FloatField(help_text="The player's μ in the pool when predicted.")
    sigma = models.FloatField(help_text="The player's σ in the pool when predicted.")
    p_first = models.FloatField(help_text="Probability of finishing first.")
    expected_place = models.FloatField(
        help_text="1 + the sum of the chances that each opponent finishes ahead."
    )
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["match", "seat"]
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="one_prediction_per_seat")]
        indexes = [models.Index(fields=["pool", "match"], name="prediction_by_pool")]

    def __str__(self) -> str:
        return f"match {self.match_id} seat {self.seat}: {self.p_first:.3f}"

    @property
    def long_shot(self) -> bool:
        """A win from here would be an upset: P(first) under a third of 1/n."""
        return forecast.is_upset(self.p_first, self.seats)


class PoolCalibration(models.Model):
    """A pool's calibration, computed after its ratings update (`calibration_refresh`), so its page reads
    one row. `summary` holds the reliability bins, scores and biggest upsets; `stale` says a refresh is
    queued."""

    pool = models.OneToOneField(RatingPool, on_delete=models.CASCADE, related_name="calibration")
    summary = models.JSONField(default=dict)
    stale = models.BooleanField(default=True)
    computed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"calibration of pool {self.pool_id}"


class SettledRating(models.Model):
    """A player's settled rating in a people's pool on one day they played: the nightly whole-history fit
    (`league.ratings.whole_history`), in its natural units (a difference of 1: odds of e to 1)."""

    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="settled", db_index=False)
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="+", db_index=False)
    day = models.DateField(help_text="A day the player played in the pool (the site's zone).")
    rating = models.FloatField()
    sd = models.FloatField(help_text="The rating's standard deviation.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["pool", "player", "day"], name="settled_rating_once_per_day"),
        ]
        indexes = [models.Index(fields=["player", "pool", "-day"], name="settled_rating_latest")]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.pool_id} on {self.day}: {self.rating:.3f}"


class SettledFit(models.Model):
    """The last whole-history fit of a pool, and how its predictions compare with the live ratings'."""

    pool = models.OneToOneField(RatingPool, on_delete=models.CASCADE, related_name="settled_fit")
    matches = models.PositiveIntegerField(default=0, help_text="Matches the fit covers.")
    through_id = models.BigIntegerField(
        null=True,
        blank=True,
        help_text="The pool's last applied match when fitted (a refit is due after it).",
    )
    iterations = models.PositiveSmallIntegerField(default=0)
    comparison = models.JSONField(
        default=dict, help_text="Settled against live predictions on the same matches: log loss and Brier."
    )
    fitted_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"settled fit of pool {self.pool_id}"


class RefitDue(models.Model):
    """A whole-history fit waiting for a worker's slice (`league.ratings.refits`): a people's pool's, or a
    season's (kind `season`, registered by the seasons app). The bot workers take one per slice of the kind
    `ratings` in their fair share (`league.bots.services.work`), so a night's fits yield to bot work."""

    kind = models.CharField(max_length=20, help_text="What is fitted: `pool` or a registered kind.")
    target_id = models.BigIntegerField(help_text="The pool's or season's id.")
    queued_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["queued_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "target_id"], name="refit_due_once"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.target_id} due for a refit"
