"""Bots and bot leagues: bot definitions (versioned), leagues, their rounds, and fixtures linking to matches.

A bot definition is one version of a bot: a built-in strategy of `games/` with its parameters, or an
external program. Each version is its own player (so its ratings and history are its own); a version that
has taken a seat is never edited again: a change makes the next version.

A league's fixtures are its schedule: `position` orders them across rounds, and the matches are created in
that order with the round's draw time as `played_at`, so the league's rating pool (which applies matches by
played_at, then id) applies them in schedule order whichever worker finishes first.

A ladder is a league that never ends (`BotLeague.kind` "ladder"): its entries change over time, and its
`LadderEvent`s (who entered or left, at which schedule position) with its seed decide its whole schedule.

A challenge is the third owner of matches, beside tournament tables and league fixtures: an author's bot
against chosen bots for a number of unrated matches (`Challenge`, `ChallengeMatch`). A match belongs to at
most one owner: its `owner` (`league.matches.models.Match.owner`) is the kind of row that may link it, set
when it is scheduled (docs/league.md says how each database backend guards it).
"""

from django.conf import settings
from django.db import models
from django.urls import reverse


class BotDefinition(models.Model):
    """One version of a bot. An uploaded version starts `checking` (a worker compiles its modules and looks up
    its imports, `league.bots.uploads.bot_check`): refused there (with the reason), or on to `validating`,
    where it plays one unrated match per seat at the smallest and largest table of the ladders it would enter
    (`league.bots.services.validations`), and then `ready`, or `failing` (with the reason). Only a ready
    version takes a rated seat, enters a league, a ladder or a challenge. Built-in strategies and registered
    programs are ready from the start."""

    class Kind(models.TextChoices):
        BUILTIN = "builtin", "Built-in strategy"
        EXTERNAL = "external", "External program"

    class State(models.TextChoices):
        CHECKING = "checking", "Checking"
        VALIDATING = "validating", "Validating"
        READY = "ready", "Ready"
        REFUSED = "refused", "Refused"
        FAILING = "failing", "Failing"

    name = models.CharField(max_length=60, help_text="The bot's name, shared by all its versions.")
    version = models.PositiveIntegerField(default=1)
    game_id = models.CharField(max_length=40, db_index=True, help_text="The game this bot plays.")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.BUILTIN)
    strategy = models.CharField(
        max_length=40, blank=True, help_text="A built-in bot's name in the games registry."
    )
    params = models.JSONField(
        default=dict, blank=True, help_text="The strategy's parameters, defaults filled."
    )
    command = models.JSONField(
        default=list, blank=True, help_text="An external program's command: the program, then its arguments."
    )
    move_seconds = models.FloatField(default=1.0, help_text="Time allowed for each move.")
    cpu_seconds = models.PositiveIntegerField(
        default=60, help_text="External programs: CPU seconds per match."
    )
    memory_mb = models.PositiveIntegerField(
        default=512, help_text="External programs: memory (address space)."
    )
    time_bank_seconds = models.FloatField(
        default=10.0,
        help_text="External programs: seconds per match that answers over the move time draw on (0 to 60).",
    )
    program = models.ForeignKey(
        "programs.Program",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="versions",
        help_text="An uploaded program's files (its command is derived from the entry point).",
    )
    state = models.CharField(
        max_length=10,
        choices=State.choices,
        default=State.READY,
        help_text="An upload is checked before it plays: only a ready version takes a seat.",
    )
    refusal = models.TextField(
        blank=True,
        help_text="Why the check refused this version, or why its validation failed, for its author.",
    )
    checked_at = models.DateTimeField(null=True, blank=True, help_text="When the check of its upload ended.")
    description = models.TextField(blank=True)
    player = models.OneToOneField("players.Player", on_delete=models.PROTECT, related_name="bot_definition")
    previous = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="next_versions"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game_id", "name", "-version"]
        constraints = [
            # A bot's identity is (author, game, name, version): two authors may each have their "Hen
            # Pecker", and one author a "Hen Pecker" in each game. Unowned bots (built-ins) share one space.
            models.UniqueConstraint(
                fields=["created_by", "game_id", "name", "version"],
                condition=models.Q(created_by__isnull=False),
                name="bot_version_unique_per_author",
            ),
            models.UniqueConstraint(
                fields=["game_id", "name", "version"],
                condition=models.Q(created_by__isnull=True),
                name="bot_version_unique_unowned",
            ),
            models.CheckConstraint(
                condition=(models.Q(kind="builtin") & ~models.Q(strategy=""))
                | (models.Q(kind="external") & models.Q(strategy="")),
                name="bot_strategy_iff_builtin",
            ),
            models.CheckConstraint(condition=models.Q(move_seconds__gt=0), name="bot_move_seconds_positive"),
            models.CheckConstraint(
                condition=models.Q(time_bank_seconds__gte=0, time_bank_seconds__lte=60),
                name="bot_time_bank_seconds_0_to_60",
            ),
            models.CheckConstraint(
                condition=models.Q(program__isnull=True) | models.Q(kind="external", command=[]),
                name="bot_program_is_external_without_command",
            ),
            models.CheckConstraint(
                condition=models.Q(state="ready") | models.Q(program__isnull=False),
                name="bot_only_uploads_are_checked",
            ),
            models.CheckConstraint(
                condition=models.Q(state__in=["checking", "validating", "ready", "refused", "failing"]),
                name="bot_state_known",
            ),
        ]

    def __str__(self) -> str:
        return self.label

    def get_absolute_url(self) -> str:
        return reverse("bots:bot", kwargs={"pk": self.pk})

    @property
    def label(self) -> str:
        return self.name if self.version == 1 else f"{self.name} v{self.version}"

    @property
    def line(self) -> dict[str, object]:
        """The filter of every version of this bot: its author's, of its game, under its name."""
        return {"created_by_id": self.created_by_id, "game_id": self.game_id, "name": self.name}

    @property
    def is_external(self) -> bool:
        return self.kind == self.Kind.EXTERNAL

    @property
    def is_uploaded(self) -> bool:
        return self.program_id is not None

    @property
    def seating_author(self) -> int | None:
        """The author an uploaded program never shares a rated table with another program of (their user id);
        None for a built-in strategy or a command staff registered (`league.bots.matchmaking`)."""
        return self.created_by_id if self.is_uploaded else None

    @property
    def is_ready(self) -> bool:
        return self.state == self.State.READY


class BotLeague(models.Model):
    class Kind(models.TextChoices):
        LEAGUE = "league", "League"
        LADDER = "ladder", "Ladder"

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        RUNNING = "running", "Running"
        PAUSED = "paused", "Paused"
        FINISHED = "finished", "Finished"

    class Target(models.TextChoices):
        ROUNDS = "rounds", "Rounds"
        MATCHES_PER_BOT = "matches_per_bot", "Matches per bot"

    class Pace(models.TextChoices):
        FAST = "fast", "As fast as the workers allow"
        SCHEDULED = "scheduled", "One round per interval (django-celery-beat)"

    name = models.CharField(max_length=120, unique=True)
    kind = models.CharField(
        max_length=10,
        choices=Kind.choices,
        default=Kind.LEAGUE,
        help_text="A league plays to its target; a ladder never ends, and bots enter and leave it.",
    )
    game_id = models.CharField(max_length=40, db_index=True)
    options = models.JSONField(
        default=dict, blank=True, help_text="Validated variant options, defaults filled."
    )
    table_size = models.PositiveSmallIntegerField(help_text="Seats at every table.")
    seed = models.BigIntegerField(help_text="With the bots, the seed decides every round and every match.")
    target_kind = models.CharField(max_length=16, choices=Target.choices, default=Target.ROUNDS)
    target_value = models.PositiveIntegerField(
        help_text="Rounds to play, or matches each bot plays at least."
    )
    sittings_per_round = models.PositiveSmallIntegerField(
        default=4,
        help_text="Matches each bot plays per round (at most); rounds are drawn once the last is rated.",
    )
    batch_size = models.PositiveSmallIntegerField(default=50, help_text="Matches a worker claims at once.")
    commit_every = models.PositiveSmallIntegerField(
        default=10, help_text="Matches a worker stores per transaction."
    )
    lease_seconds = models.PositiveIntegerField(
        default=30,
        help_text="How long a claim lasts unless renewed (a third of it, while the batch plays) before the "
        "reaper hands the matches to another worker; at most 30.",
    )

    authors_apart_from = models.PositiveIntegerField(
        default=0,
        help_text="The schedule position from which one author's uploaded programs never share a table: 0, "
        "but for a ladder older than the rule, whose earlier rounds still replay as they were drawn.",
    )

    class Matchmaking(models.TextChoices):
        SIMILAR = "similar", "Similar ratings (a draw from each belief)"
        INFORMATIVE = "informative", "Most informative (widest σ first, closest μ together)"

    matchmaking = models.CharField(
        max_length=12,
        choices=Matchmaking.choices,
        default=Matchmaking.SIMILAR,
        help_text="How each round's tables are drawn (league.bots.matchmaking).",
    )
    newcomer_matches = models.PositiveSmallIntegerField(
        default=20,
        help_text="Ladders: a bot that entered is drawn first until it has this many matches in the ladder.",
    )
    withdraw_after_forfeits = models.PositiveSmallIntegerField(
        default=5,
        help_text="Ladders: a bot whose seat forfeits this many rated matches in a row is withdrawn (an "
        "entry-log event) and its author told; 0 never withdraws.",
    )
    pace = models.CharField(max_length=10, choices=Pace.choices, default=Pace.FAST)
    interval_seconds = models.PositiveIntegerField(
        default=60, help_text="Scheduled pace: seconds between rounds."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT, db_index=True)
    rating_pool = models.OneToOneField(
        "ratings.RatingPool", on_delete=models.PROTECT, related_name="bot_league"
    )
    bots = models.ManyToManyField(BotDefinition, through="LeagueEntry", related_name="leagues")
    current_round = models.PositiveIntegerField(default=0, help_text="The last round drawn (0 = none yet).")
    schedule = models.OneToOneField(
        "django_celery_beat.PeriodicTask", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(table_size__gte=2), name="league_table_of_two_or_more"),
            models.CheckConstraint(condition=models.Q(target_value__gte=1), name="league_target_positive"),
            models.CheckConstraint(condition=models.Q(batch_size__gte=1), name="league_batch_positive"),
            models.CheckConstraint(condition=models.Q(commit_every__gte=1), name="league_commit_positive"),
            models.CheckConstraint(
                condition=models.Q(lease_seconds__gte=2, lease_seconds__lte=30), name="league_lease_short"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        if self.kind == self.Kind.LADDER:
            return reverse("bots:ladder", kwargs={"pk": self.pk})
        return reverse("bots:league", kwargs={"pk": self.pk})

    @property
    def is_ladder(self) -> bool:
        return self.kind == self.Kind.LADDER


class LeagueEntry(models.Model):
    """A bot of a league, or a bot that ever entered a ladder (whether it is still in it: its
    `LadderEvent`s)."""

    league = models.ForeignKey(BotLeague, on_delete=models.CASCADE, related_name="entries")
    bot = models.ForeignKey(BotDefinition, on_delete=models.PROTECT, related_name="entries")
    forfeit_streak = models.PositiveIntegerField(
        default=0,
        help_text="Its rated matches here forfeited in a row, as they are stored (a match without a forfeit "
        "resets it).",
    )

    class Meta:
        ordering = ["league", "bot"]
        constraints = [models.UniqueConstraint(fields=["league", "bot"], name="bot_once_per_league")]

    def __str__(self) -> str:
        return f"{self.bot} in {self.league}"


class LeagueRound(models.Model):
    league = models.ForeignKey(BotLeague, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    drawn_at = models.DateTimeField()

    class Meta:
        ordering = ["league", "number"]
        constraints = [models.UniqueConstraint(fields=["league", "number"], name="league_round_unique")]

    def __str__(self) -> str:
        return f"{self.league} round {self.number}"


class LeasedWork(models.Model):
    """The lease columns of a match a worker plays: a league's or ladder's `Fixture`, a `ChallengeMatch`.

    One pipeline claims, renews, stores and reaps them, whatever the kind (`league.bots.services.leases`):
    a claim writes `lease_token` (the worker's batch) and `lease_expires_at`; the store of the match's result
    sets `done` and clears the lease in one transaction; the reaper hands back a row whose lease expired, and
    voids its match at the `LEASES_LOST_LIMIT`th expiry.
    """

    # Each kind's model redeclares it with the name the match knows it by (`bot_fixture`, `challenge_match`).
    match = models.OneToOneField("matches.Match", on_delete=models.PROTECT, related_name="+")
    seed = models.BigIntegerField()
    done = models.BooleanField(default=False)
    lease_token = models.CharField(max_length=80, blank=True, help_text="The claiming worker's batch.")
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0, help_text="Times a worker claimed it.")
    leases_lost = models.PositiveSmallIntegerField(
        default=0, help_text="Times its lease expired (its worker was lost); the third voids its match."
    )
    played_by = models.CharField(max_length=80, blank=True, help_text="The batch that stored its result.")
    seconds = models.FloatField(null=True, blank=True, help_text="Time spent playing it (not in the record).")

    objects = models.Manager()  # inherited by both: the pipeline queries either model through it

    class Meta:
        abstract = True


class Fixture(LeasedWork):
    """One scheduled match of a league, with the lease of the worker playing it.

    `done` is set in the transaction that stores the match's result (version 1, by the system); the unique
    (match, version) rule of results makes a second store of the same match fail, so a match counts once.
    It is set too when the reaper voids the match, its lease having expired `LEASES_LOST_LIMIT` times
    (`league.bots.services.leases.leases_reap`): the match is not played again.
    """

    league = models.ForeignKey(
        BotLeague, on_delete=models.CASCADE, related_name="fixtures", db_index=False
    )  # fixture_position_unique leads with it
    round = models.ForeignKey(LeagueRound, on_delete=models.CASCADE, related_name="fixtures")
    position = models.PositiveIntegerField(help_text="Order in the league's schedule (ratings apply in it).")
    match = models.OneToOneField("matches.Match", on_delete=models.PROTECT, related_name="bot_fixture")

    class Meta:
        ordering = ["league", "position"]
        constraints = [
            models.UniqueConstraint(fields=["league", "position"], name="fixture_position_unique"),
            models.CheckConstraint(
                condition=models.Q(done=False) | models.Q(lease_token="", lease_expires_at__isnull=True),
                name="fixture_done_has_no_lease",
            ),
        ]
        indexes = [
            models.Index(fields=["league", "position"], condition=models.Q(done=False), name="fixture_open"),
            models.Index(fields=["lease_expires_at"], condition=models.Q(done=False), name="fixture_leases"),
        ]

    def __str__(self) -> str:
        return f"{self.league} #{self.position}"


class LadderEvent(models.Model):
    """One line of a ladder's entry log: a bot entered or left, taking effect at a schedule position.

    `position` is the position of the first fixture drawn after the event (the next round's start): the round
    drawn at position p seats the bots whose events up to p (by position, then `seq`) leave them in. With the
    ladder's seed, the log decides the whole schedule (`league.bots.matchmaking.ladder_schedule`).
    """

    class Action(models.TextChoices):
        ENTER = "enter", "Entered"
        LEAVE = "leave", "Left"

    league = models.ForeignKey(BotLeague, on_delete=models.CASCADE, related_name="ladder_events")
    seq = models.PositiveIntegerField(help_text="Order in the ladder's log.")
    position = models.PositiveIntegerField(help_text="The schedule position at which it takes effect.")
    action = models.CharField(max_length=5, choices=Action.choices)
    bot = models.ForeignKey(BotDefinition, on_delete=models.PROTECT, related_name="ladder_events")
    author = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="On entry: the user id of an uploaded program's author, kept here (not a link) so that the "
        "log alone replays the schedule; none of their programs shares a table with another.",
    )
    reason = models.CharField(max_length=120, blank=True, help_text="Why, in words (e.g. replaced by v3).")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "seq"]
        constraints = [models.UniqueConstraint(fields=["league", "seq"], name="ladder_event_seq_unique")]

    def __str__(self) -> str:
        return f"{self.bot} {self.action} {self.league} at #{self.position}"


class Challenge(models.Model):
    """An author's bot against chosen bots for a number of unrated matches, played behind ladder work.

    Every match seats the bot and its opponents; seat order turns by one each match, and each match's seed
    is derived from the challenge's seed, so a challenge replays. Visible to its challenger and staff.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        FINISHED = "finished", "Finished"

    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    bot = models.ForeignKey(BotDefinition, on_delete=models.PROTECT, related_name="challenges")
    opponents = models.ManyToManyField(BotDefinition, related_name="challenged_in")
    game_id = models.CharField(max_length=40)
    options = models.JSONField(default=dict, blank=True)
    match_count = models.PositiveSmallIntegerField(help_text="Matches to play.")
    seed = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(match_count__gte=1), name="challenge_matches_positive"),
        ]

    def __str__(self) -> str:
        return f"Challenge {self.pk}: {self.bot}"

    def get_absolute_url(self) -> str:
        return reverse("bots:challenge", kwargs={"pk": self.pk})


class ChallengeMatch(LeasedWork):
    """One match of a challenge, with the lease of the worker playing it (as a league's `Fixture`)."""

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="games", db_index=False)
    index = models.PositiveSmallIntegerField()
    match = models.OneToOneField("matches.Match", on_delete=models.PROTECT, related_name="challenge_match")

    class Meta:
        ordering = ["challenge", "index"]
        constraints = [
            models.UniqueConstraint(fields=["challenge", "index"], name="challenge_match_index_unique"),
            models.CheckConstraint(
                condition=models.Q(done=False) | models.Q(lease_token="", lease_expires_at__isnull=True),
                name="challenge_done_has_no_lease",
            ),
        ]
        indexes = [
            models.Index(
                fields=["challenge", "index"], condition=models.Q(done=False), name="challenge_open"
            ),
            models.Index(
                fields=["lease_expires_at"], condition=models.Q(done=False), name="challenge_leases"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.challenge} #{self.index}"


class VerificationWork(LeasedWork):
    """The strict re-verification of one played bot match's record (`games.core.verify`), leased as the
    matches are (`league.bots.services.leases`, kind `verification`).

    Made in the transaction that stores the match's result; `done` is set in the transaction that stores the
    verdict (`league.matches.models.Verification`). At the `LEASES_LOST_LIMIT`th expiry of its lease (a
    record whose verification kills its worker) the match is not voided: its verdict says the verification
    was lost. `seed` is unused (0).
    """

    match = models.OneToOneField("matches.Match", on_delete=models.CASCADE, related_name="bot_verification")

    class Meta:
        ordering = ["id"]
        verbose_name = "match verification"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(done=False) | models.Q(lease_token="", lease_expires_at__isnull=True),
                name="verification_done_has_no_lease",
            ),
        ]
        indexes = [
            models.Index(fields=["id"], condition=models.Q(done=False), name="verification_open"),
            models.Index(
                fields=["lease_expires_at"], condition=models.Q(done=False), name="verification_leases"
            ),
        ]

    def __str__(self) -> str:
        return f"verification of match {self.match_id}"


class ValidationMatch(LeasedWork):
    """One unrated match of a new version's validation, with the lease of the worker playing it: the version
    in seat `seat` of a table of random bots (`league.bots.services.validations`). A match whose version timed
    out is played once more (`replay_of` names the first); a second time-out counts."""

    bot = models.ForeignKey(
        BotDefinition, on_delete=models.CASCADE, related_name="validations", db_index=False
    )
    index = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField(help_text="The version's seat (0-based, as in the protocol).")
    replay_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="replays"
    )
    match = models.OneToOneField("matches.Match", on_delete=models.PROTECT, related_name="validation_match")

    class Meta:
        ordering = ["bot", "index"]
        constraints = [
            models.UniqueConstraint(fields=["bot", "index"], name="validation_index_unique"),
            models.CheckConstraint(
                condition=models.Q(done=False) | models.Q(lease_token="", lease_expires_at__isnull=True),
                name="validation_done_has_no_lease",
            ),
        ]
        indexes = [
            models.Index(fields=["bot", "index"], condition=models.Q(done=False), name="validation_open"),
            models.Index(
                fields=["lease_expires_at"], condition=models.Q(done=False), name="validation_leases"
            ),
        ]

    def __str__(self) -> str:
        return f"validation of {self.bot} #{self.index}"


class VersionTest(models.Model):
    """A version test, "is v2 better than v1?": an author's sequential test of two versions of one bot
    (`league.bots.sprt`; writes in `league.bots.services.version_tests`).

    Pairs of unrated matches are played one after another: each pair's seed is played twice at one table, v1
    and v2 swapping seats between the two games, the game's built-in heuristic bots (`opponents`) in the
    other seats. After each pair its pentanomial count and the LLR are updated; the test finishes at a
    verdict or after `max_pairs` pairs. Its matches are played as leased work (`VersionTestMatch`, kind
    "version_test") in the challenges' share of the workers, and a running test counts as an open challenge
    of its author. Visible to its author and staff.
    """

    class State(models.TextChoices):
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    class Verdict(models.TextChoices):
        RUNNING = "running", "No verdict yet"
        BETTER = "better", "Better"
        NOT_BETTER = "not better", "Not better"
        NO_VERDICT = "no verdict within the cap", "No verdict within the cap"

    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game_id = models.CharField(max_length=40)
    options = models.JSONField(default=dict, blank=True)
    v1 = models.ForeignKey(BotDefinition, on_delete=models.PROTECT, related_name="tested_as_v1")
    v2 = models.ForeignKey(BotDefinition, on_delete=models.PROTECT, related_name="tested_as_v2")
    opponents = models.ManyToManyField(BotDefinition, related_name="version_test_opponent_in")
    seed = models.BigIntegerField()
    elo0 = models.FloatField(default=0.0, help_text="H0: v2's logistic Elo over v1.")
    elo1 = models.FloatField(default=10.0, help_text="H1: v2's logistic Elo over v1.")
    alpha = models.FloatField(default=0.05, help_text="The chance of calling v2 better when H0 holds.")
    beta = models.FloatField(default=0.05, help_text="The chance of calling v2 not better when H1 holds.")
    max_pairs = models.PositiveIntegerField(default=2000, help_text="The cap: pairs played at most.")
    state = models.CharField(max_length=10, choices=State.choices, default=State.RUNNING, db_index=True)
    verdict = models.CharField(max_length=30, choices=Verdict.choices, default=Verdict.RUNNING)
    counts = models.JSONField(
        default=list, help_text="Pairs that scored 0, 0.25, 0.5, 0.75 and 1 for v2 (the pentanomial)."
    )
    pairs_void = models.PositiveIntegerField(default=0, help_text="Pairs with a void match (not counted).")
    next_pair = models.PositiveIntegerField(default=0, help_text="The index of the pair being played.")
    llr = models.FloatField(default=0.0)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(max_pairs__gte=1), name="version_test_cap_positive"),
            models.CheckConstraint(condition=~models.Q(v1=models.F("v2")), name="version_test_two_versions"),
        ]

    def __str__(self) -> str:
        return f"Version test {self.pk}: {self.v2} against {self.v1}"

    def get_absolute_url(self) -> str:
        return reverse("bots:version_test", kwargs={"pk": self.pk})

    @property
    def pairs(self) -> int:
        return sum(self.counts)


class VersionTestMatch(LeasedWork):
    """One of the two matches of a version test's pair (`game` 0: v1 in the pair's seat, v2 in the next; 1:
    swapped), with the lease of the worker playing it (as a challenge's matches)."""

    test = models.ForeignKey(VersionTest, on_delete=models.CASCADE, related_name="games", db_index=False)
    pair = models.PositiveIntegerField()
    game = models.PositiveSmallIntegerField()
    match = models.OneToOneField("matches.Match", on_delete=models.PROTECT, related_name="version_test_match")

    class Meta:
        ordering = ["test", "pair", "game"]
        constraints = [
            models.UniqueConstraint(fields=["test", "pair", "game"], name="version_test_game_unique"),
            models.CheckConstraint(
                condition=models.Q(done=False) | models.Q(lease_token="", lease_expires_at__isnull=True),
                name="version_test_done_has_no_lease",
            ),
        ]
        indexes = [
            models.Index(fields=["test", "pair"], condition=models.Q(done=False), name="version_test_open"),
            models.Index(
                fields=["lease_expires_at"], condition=models.Q(done=False), name="version_test_leases"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.test} pair {self.pair} game {self.game}"
