"""Tournaments: settings and lifecycle, roles (organizers, scorekeepers), sign-up and check-in, the event's
clock, registrations, rounds and their tables.

A table links to one `matches.Match` (created when its round is published) and never copies it: seats,
places and scores are read from the match, results are versions of the match (`league.results`). While a
round is a draft its tables hold only the planned seats (`planned_seats`, player ids in seat order), which
the organizer may still adjust.

Times are stored as instants (UTC); a tournament's `time_zone` says how its pages show them and how its
forms read local times (`league.tournaments.clock`).
"""

from typing import cast

from django.conf import settings
from django.db import models
from django.urls import reverse

from league.matches.models import Match


def default_time_zone() -> str:
    """A new tournament's zone: the site's (settings.TIME_ZONE)."""
    return settings.TIME_ZONE


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", "Swiss"
        ROUND_ROBIN = "round_robin", "Round robin"
        SINGLE_ELIMINATION = "single_elimination", "Single elimination"
        DOUBLE_ELIMINATION = "double_elimination", "Double elimination"
        STAGES = "stages", "Stages: Swiss or round robin, then a top cut"

    class Leftovers(models.TextChoices):
        SHORT = "short", "Short tables (one seat fewer)"
        LONG = "long", "Long tables (one seat more)"
        BYES = "byes", "Byes (every table full)"

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        REGISTRATION = "registration", "Registration"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    class Reporting(models.TextChoices):
        ORGANIZER = "organizer", "Organizers enter results"
        SELF_REPORT = "self_report", "Players report, the others at the table confirm"

    class TwoSeatConfirmation(models.TextChoices):
        OPPONENT = "opponent", "The opponent confirms"
        ORGANIZER = "organizer", "An organizer enters the result"

    class ByeScore(models.TextChoices):
        WIN = "win", "A win"
        HALF = "half", "Half a win"
        ZERO = "zero", "Nothing"

    name = models.CharField(max_length=120)
    slug = models.SlugField(
        max_length=130, unique=True, allow_unicode=True, help_text="Derived from the name; used in page URLs."
    )
    game_id = models.CharField(max_length=40, db_index=True, help_text="A game id from the games registry.")
    options = models.JSONField(
        default=dict, blank=True, help_text="Validated variant options, defaults filled."
    )
    format = models.CharField(max_length=20, choices=Format.choices, default=Format.SWISS)
    table_size = models.PositiveSmallIntegerField(
        default=2, help_text="The preferred number of seats per table."
    )
    leftovers = models.CharField(
        max_length=5,
        choices=Leftovers.choices,
        default=Leftovers.SHORT,
        help_text="What happens to players who do not fill a table; never a table below the game's minimum.",
    )
    rounds = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Swiss: rounds to play. Round robin: rounds (empty = one full cycle). "
        "Stages: rounds of the first stage.",
    )
    first_stage = models.CharField(
        max_length=20, default="swiss", blank=True, help_text="Stages: 'swiss' or 'round_robin'."
    )
    cut_size = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Stages: players in the top cut."
    )
    cut_format = models.CharField(
        max_length=20,
        default="single_elimination",
        blank=True,
        help_text="Stages: the top cut's elimination.",
    )
    advance = models.PositiveSmallIntegerField(
        default=1, help_text="Multi-seat elimination: advancing per table."
    )
    third_place = models.BooleanField(
        default=False, help_text="Single elimination: play a third-place match."
    )
    grand_final_reset = models.BooleanField(
        default=True, help_text="Double elimination: a second grand final if the losers' bracket winner wins."
    )
    points = models.JSONField(
        default=dict,
        blank=True,
        help_text='Points per place by table size, e.g. {"4": [3, 2, 1, 0]}; missing sizes use k - place.',
    )
    tiebreaks = models.JSONField(
        default=list, help_text="Ordered tie-breaks after points; seed settles the rest."
    )
    scale_points = models.BooleanField(
        default=False,
        help_text="Points of tables of other sizes are scaled so that a win anywhere is worth a win at the "
        "preferred size (new pod tournaments: on).",
    )
    requested_bye_score = models.CharField(
        max_length=4,
        choices=ByeScore.choices,
        default=ByeScore.ZERO,
        help_text="Swiss: what a bye a player asked for scores "
        "(a bye the pairing gives always scores as a win).",
    )
    result_reporting = models.CharField(
        max_length=12,
        choices=Reporting.choices,
        default=Reporting.ORGANIZER,
        help_text="Who enters results: the organizers only, or the players (a report the others confirm).",
    )
    two_seat_confirmation = models.CharField(
        max_length=10,
        choices=TwoSeatConfirmation.choices,
        default=TwoSeatConfirmation.OPPONENT,
        help_text="Self-report at tables of 2: the opponent confirms, or an organizer enters the result.",
    )
    dispute_window_minutes = models.PositiveSmallIntegerField(
        default=15,
        help_text="Self-report: how long after a confirmed result is stored a player may dispute it.",
    )
    auto_next_round = models.BooleanField(
        default=False,
        help_text="Start the next round as soon as every table is in: it is generated by itself and "
        "published when its draft has no warning and no dispute is open (else it waits as a draft and the "
        "organizers are told).",
    )
    day2_after_round = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Swiss: the last round of Day 1; the rounds after it are Day 2, played by the players "
        "with at least `day2_points` after it. Empty: one day.",
    )
    day2_points = models.FloatField(
        null=True, blank=True, help_text="Swiss with a Day 2: the points after Day 1 that qualify for it."
    )
    venue = models.CharField(max_length=200, blank=True, help_text="Where the event takes place.")
    description = models.TextField(max_length=4000, blank=True, help_text="Shown on the tournament's page.")
    short_names = models.BooleanField(
        default=False,
        help_text='Public pages show players by first name and initial ("Fatima K."); its organizers and '
        "scorekeepers see full names.",
    )
    rated = models.BooleanField(default=True, help_text="Rated tournaments feed the game's people pool.")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.DRAFT, db_index=True)
    cancel_reason = models.TextField(
        max_length=500, blank=True, help_text="Why the event was cancelled, shown on its page."
    )
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="organized_tournaments",
        blank=True,
        help_text="Who runs the tournament besides site staff: its creator and whoever they add.",
    )
    scorekeepers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="scorekept_tournaments",
        blank=True,
        help_text="Who enter and correct results only (organizers do that too).",
    )
    judges = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="judged_tournaments",
        blank=True,
        help_text="Who answer judge calls, give extensions and penalties, and enter and correct results.",
    )
    time_zone = models.CharField(
        max_length=64,
        default=default_time_zone,
        help_text="An IANA zone name: the event's clock for every time shown.",
    )
    starts_at = models.DateTimeField(null=True, blank=True, help_text="The planned start.")
    checkin_opens_at = models.DateTimeField(
        null=True, blank=True, help_text="When check-in opens (before the start); empty: no check-in."
    )
    self_signup = models.BooleanField(
        default=False, help_text="Signed-in players join and leave themselves while registration is open."
    )
    capacity = models.PositiveIntegerField(
        null=True, blank=True, help_text="Places for players; empty: no cap."
    )
    waitlist = models.BooleanField(
        default=True, help_text="When full, joiners queue on a waitlist (else refused)."
    )
    approval = models.BooleanField(default=False, help_text="Joins wait for an organizer's approval.")
    venue_address = models.GenericIPAddressField(
        null=True,
        blank=True,
        help_text="The address the venue's phones share on the event day: there the per-address limits "
        "count per account and per private link instead (league.tournaments.venues).",
    )
    venue_day = models.DateField(
        null=True, blank=True, help_text="The event day (in the tournament's zone) the venue address holds."
    )
    venue_approved_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When site staff approved the declared venue address; until then the usual limits apply.",
    )
    venue_approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The staff member who approved (or declared) the venue address.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    public_version = models.PositiveBigIntegerField(
        default=0,
        editable=False,
        help_text="Counts the changes to what the tournament's public pages show (`bump_public_version`).",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(table_size__gte=2), name="tournament_table_size_at_least_2"
            ),
            models.CheckConstraint(condition=models.Q(advance__gte=1), name="tournament_advance_positive"),
            models.CheckConstraint(
                condition=models.Q(day2_after_round__isnull=True, day2_points__isnull=True)
                | models.Q(day2_after_round__gte=1, day2_points__gte=0),
                name="tournament_day2_round_with_its_points",
            ),
            models.CheckConstraint(
                condition=models.Q(capacity__isnull=True) | models.Q(capacity__gte=1),
                name="tournament_capacity_positive",
            ),
            models.CheckConstraint(
                condition=models.Q(checkin_opens_at__isnull=True)
                | models.Q(starts_at__isnull=False, checkin_opens_at__lt=models.F("starts_at")),
                name="tournament_checkin_before_start",
            ),
            models.CheckConstraint(
                condition=models.Q(venue_address__isnull=True, venue_day__isnull=True)
                | models.Q(venue_address__isnull=False, venue_day__isnull=False),
                name="tournament_venue_address_with_its_day",
            ),
        ]
        indexes = [
            # Every request that a per-address limit guards asks whether its address is a declared venue's.
            models.Index(
                fields=["venue_address", "venue_day"],
                condition=models.Q(venue_approved_at__isnull=False),
                name="tournament_approved_venue",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", kwargs={"slug": self.slug})

    @property
    def is_elimination(self) -> bool:
        return self.format in (self.Format.SINGLE_ELIMINATION, self.Format.DOUBLE_ELIMINATION)

    @property
    def check_in(self) -> bool:
        """Whether the tournament uses check-in (its organizers set when the window opens)."""
        return self.checkin_opens_at is not None


class RoundTime(models.Model):
    """The planned start of one round (set ahead, for rounds that may not exist yet)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_times")
    number = models.PositiveSmallIntegerField(help_text="The round, from 1.")
    starts_at = models.DateTimeField()

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_time_once_per_round"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="round_time_number_from_1"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number} at {self.starts_at:%Y-%m-%d %H:%M} UTC"


class Registration(models.Model):
    """A player's entry in a tournament. Rows are kept when a player withdraws or drops, for the record.

    Only `active` players have a place (and a seed); `waitlisted` players queue for one in `queued_at` order,
    `pending` ones wait for an organizer's approval, `declined` ones were refused by an organizer, `invited`
    ones were invited by an organizer and have not accepted yet (no place, no seed, never paired or rated:
    `league.tournaments.reach` says whom an organizer may register without asking).
    """

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        WITHDRAWN = "withdrawn", "Withdrawn"
        DROPPED = "dropped", "Dropped"
        NO_SHOW = "no_show", "No-show"
        WAITLISTED = "waitlisted", "Waitlisted"
        PENDING = "pending", "Awaiting approval"
        DECLINED = "declined", "Declined"
        INVITED = "invited", "Invited"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="registrations")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    seed = models.PositiveIntegerField(
        null=True, blank=True, help_text="1 = top seed; set by rating or by hand."
    )
    entered_round = models.PositiveSmallIntegerField(
        default=1, help_text="The first round the player could be paired in (later for a late entry)."
    )
    left_after_round = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The last round played before dropping out (or being marked a no-show).",
    )
    queued_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the player joined (with approval: was approved); the waitlist's order.",
    )
    checked_in_at = models.DateTimeField(
        null=True, blank=True, help_text="When the player checked in, if they did."
    )
    fixed_table = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The physical table the player keeps every round (an accessible table, say); empty: "
        "wherever the round seats them.",
    )
    accessibility_note = models.TextField(
        max_length=500,
        blank=True,
        help_text="What the player needs at the table; organizers (and judges) only, never public, deleted "
        "with the event's private data.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "seed", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="registration_once_per_tournament"),
            models.UniqueConstraint(
                fields=["tournament", "seed"],
                condition=models.Q(seed__isnull=False),
                name="seed_unique_in_tournament",
            ),
            models.CheckConstraint(
                condition=models.Q(seed__isnull=True) | models.Q(seed__gte=1), name="seed_from_1"
            ),
            models.CheckConstraint(
                condition=models.Q(fixed_table__isnull=True) | models.Q(fixed_table__gte=1),
                name="registration_fixed_table_from_1",
            ),
            models.CheckConstraint(
                condition=models.Q(seed__isnull=True)
                | ~models.Q(status__in=["waitlisted", "pending", "declined", "invited"]),
                name="registration_seed_needs_a_place",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.tournament_id}"


class PrivateLink(models.Model):
    """A registration's private link: a player without an account reads their table and reports or
    confirms its result through it (`league.web.tournaments.private_links`).

    Only the SHA-256 of its 128-bit token is stored; the token is shown once, to the organizer who issues it,
    for the holder's personal slip or to scan from the organizer's screen. Reissuing replaces the hash (the
    old token dies); revoking stops it until it is reissued. It works until the event ends plus
    `PRIVATE_LINK_DAYS_AFTER_END` days."""

    registration = models.OneToOneField(Registration, on_delete=models.CASCADE, related_name="private_link")
    token_hash = models.CharField(
        max_length=64, unique=True, help_text="SHA-256 of the link's token (hex); the token is never stored."
    )
    issued_at = models.DateTimeField()
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True, help_text="Set: the link no longer works.")
    email = models.EmailField(
        blank=True, help_text="Where the holder asked to be told that their table is out (optional)."
    )

    class Meta:
        ordering = ["registration"]

    def __str__(self) -> str:
        return f"private link of registration {self.registration_id}"


class ByeRequest(models.Model):
    """A player's request to miss one future Swiss round: a bye (scored as the tournament's
    `requested_bye_score` says) or a sit-out (unscored; the player simply comes back the round after).
    Generating the round reads the requests for it and records them on the round."""

    class Kind(models.TextChoices):
        BYE = "bye", "Bye"
        SIT_OUT = "sit_out", "Sit out"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="bye_requests")
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="bye_requests")
    round_number = models.PositiveSmallIntegerField(help_text="The round the player misses, from 1.")
    kind = models.CharField(max_length=7, choices=Kind.choices, default=Kind.BYE)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "round_number", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player", "round_number"], name="bye_request_once_per_round"
            ),
            models.CheckConstraint(condition=models.Q(round_number__gte=1), name="bye_request_round_from_1"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.kind} in {self.tournament_id} round {self.round_number}"


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        PUBLISHED = "published", "Published"
        COMPLETE = "complete", "Complete"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(help_text="From 1, counted over the whole tournament.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    byes = models.JSONField(default=list, blank=True, help_text="Player ids with a bye (scores as a win).")
    requested_byes = models.JSONField(
        default=list,
        blank=True,
        help_text='Byes players asked for, as [player id, score], score "win", "half" or "zero".',
    )
    sat_out = models.JSONField(
        default=list, blank=True, help_text="Player ids who asked to sit the round out."
    )
    advanced = models.JSONField(
        default=list, blank=True, help_text="Elimination: player ids who go through without playing."
    )
    final = models.BooleanField(default=False, help_text="Holds an elimination final.")
    quality = models.JSONField(
        default=dict, help_text="The quality report of the generated (or adjusted) round."
    )
    generated_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    timer_duration_seconds = models.PositiveIntegerField(
        null=True, blank=True, help_text="The round timer's length, extensions included; empty: no timer."
    )
    timer_ends_at = models.DateTimeField(null=True, blank=True, help_text="While the timer runs: its zero.")
    timer_paused_remaining = models.PositiveIntegerField(
        null=True, blank=True, help_text="While the timer is paused: the seconds it has left."
    )

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="round_number_unique_in_tournament"
            ),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="round_number_from_1"),
            models.CheckConstraint(  # no timer, a running one (its zero) or a paused one (seconds left)
                condition=models.Q(
                    timer_duration_seconds=None, timer_ends_at=None, timer_paused_remaining=None
                )
                | models.Q(
                    timer_duration_seconds__gte=0, timer_ends_at__isnull=False, timer_paused_remaining=None
                )
                | models.Q(timer_duration_seconds__gte=0, timer_ends_at=None, timer_paused_remaining__gte=0),
                name="round_timer_runs_or_pauses",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"

    def get_absolute_url(self) -> str:
        return reverse("tournaments:round", kwargs={"slug": self.tournament.slug, "number": self.number})


class Table(models.Model):
    """One table of a round, linked to the match played at it (from publication on).

    A bracket match played match by match has one live table; a correction that changes who plays it resets
    that table (its match is void, `closed_as` "reset", kept for the record) and the match opens again at a
    new table of the same round."""

    class Closed(models.TextChoices):
        NO = "", "Played"
        NO_SHOW = "no_show", "No-show"
        FORFEIT = "forfeit", "Forfeit"
        RESET = "reset", "Reset"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(help_text="Table order in the round, from 1 (the top table).")
    label = models.CharField(
        max_length=12, blank=True, help_text="The bracket match this table plays (R1-1, GF)."
    )
    planned_seats = models.JSONField(
        help_text="Player ids in seat order (seat 0 starts) as drawn or adjusted."
    )
    match = models.OneToOneField(
        "matches.Match",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_table",
        help_text="The match played at this table; a match belongs to at most one tournament table.",
    )
    closed_as = models.CharField(max_length=8, choices=Closed.choices, default=Closed.NO, blank=True)
    absent = models.JSONField(
        default=list, blank=True, help_text="Player ids who did not play (placed last)."
    )
    physical_number = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The number on the table in the room (slips, find my table, the projector); `number` "
        "stays the rank order. Empty on tables made before physical numbers: the rank number is shown.",
    )
    fixed = models.BooleanField(
        default=False,
        help_text="The table keeps its physical number every round (the table of this rank number in later "
        "rounds sits at the same physical table).",
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique_in_round"),
            models.CheckConstraint(
                condition=models.Q(physical_number__isnull=True) | models.Q(physical_number__gte=1),
                name="table_physical_number_from_1",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"

    # For the type checker: `match` is nullable (a draft's tables have no match yet), but code that reads a
    # published table (every result, report and closing) may count on it.
    @property
    def physical(self) -> int:
        """The number on the table in the room: its physical number, else its rank number."""
        return self.physical_number or self.number

    @property
    def published_match(self) -> Match:
        """The match of this published table."""
        return cast(Match, self.match)  # published tables always have their match

    @property
    def published_match_id(self) -> int:
        """The id of the match of this published table."""
        return cast(int, self.match_id)  # published tables always have their match


class AuditEntry(models.Model):
    """One organizer action on a tournament, for its log: who did what, when, with the details (player,
    round, table, the settings' old and new values). Written by the tournament services through
    `services.audit`, inside the transaction of the change it records; never changed afterwards."""

    class Action(models.TextChoices):
        TOURNAMENT_CREATED = "tournament.created", "Tournament created"
        SETTINGS_CHANGED = "settings.changed", "Settings changed"
        REGISTRATION_OPENED = "tournament.registration_opened", "Registration opened"
        SEEDED = "tournament.seeded", "Players seeded"
        STARTED = "tournament.started", "Tournament started"
        FINISHED = "tournament.finished", "Tournament finished"
        ORGANIZER_ADDED = "organizer.added", "Organizer added"
        ORGANIZER_REMOVED = "organizer.removed", "Organizer removed"
        SCOREKEEPER_ADDED = "scorekeeper.added", "Scorekeeper added"
        SCOREKEEPER_REMOVED = "scorekeeper.removed", "Scorekeeper removed"
        REGISTRATION_ADDED = "registration.added", "Player registered"
        REGISTRATION_WITHDRAWN = "registration.withdrawn", "Player withdrawn"
        REGISTRATION_DROPPED = "registration.dropped", "Player dropped"
        REGISTRATION_NO_SHOW = "registration.no_show", "Player marked a no-show"
        REGISTRATION_JOINED = "registration.joined", "Player joined"
        REGISTRATION_LEFT = "registration.left", "Player left"
        REGISTRATION_APPROVED = "registration.approved", "Entry approved"
        REGISTRATION_DECLINED = "registration.declined", "Entry declined"
        REGISTRATION_INVITED = "registration.invited", "Player invited"
        INVITATION_ACCEPTED = "registration.invitation_accepted", "Invitation accepted"
        INVITATION_DECLINED = "registration.invitation_declined", "Invitation declined"
        INVITATION_WITHDRAWN = "registration.invitation_withdrawn", "Invitation taken back"
        CHECKED_IN = "registration.checked_in", "Player checked in"
        CHECK_IN_UNDONE = "registration.check_in_undone", "Check-in undone"
        BYE_REQUESTED = "bye.requested", "Bye or sit-out asked for"
        BYE_CANCELLED = "bye.cancelled", "Bye request taken back"
        ROUND_GENERATED = "round.generated", "Round generated"
        ROUND_DISCARDED = "round.discarded", "Draft discarded"
        SEATS_SWAPPED = "seats.swapped", "Seats swapped"
        SEAT_MOVED = "seats.moved", "Player moved"
        ROUND_PUBLISHED = "round.published", "Round published"
        ROUND_WAITING = "round.waiting", "Round generated by itself waits as a draft"
        ROUND_COMPLETED = "round.completed", "Round completed"
        TABLE_CLOSED = "table.closed", "Table closed"
        RESULT_RESET = "result.reset", "Result reset"
        RESULT_REPORTED = "result.reported", "Result reported by a player"
        RESULT_CONFIRMED = "result.confirmed", "Reported result confirmed and stored"
        RESULT_DISPUTED = "result.disputed", "Result disputed"
        RESULT_WITHDRAWN = "result.withdrawn", "Report taken back by its player"
        LINK_ISSUED = "link.issued", "Private link issued"
        LINK_REVOKED = "link.revoked", "Private link revoked"
        VENUE_ADDRESS_SET = "venue.address_set", "Venue address declared"
        VENUE_ADDRESS_APPROVED = "venue.address_approved", "Venue address approved"
        CANCELLED = "tournament.cancelled", "Tournament cancelled"
        CANCEL_UNDONE = "tournament.cancel_undone", "Cancel undone"
        CLONED = "tournament.cloned", "Tournament cloned from another"
        TABLE_CLOSE_UNDONE = "table.close_undone", "Table closing undone"
        RESULT_CORRECTED = "result.corrected", "Result corrected"
        DISPUTE_SETTLED = "result.dispute_settled", "Dispute settled"
        JUDGE_ADDED = "judge.added", "Judge added"
        JUDGE_REMOVED = "judge.removed", "Judge removed"
        TABLE_EXTENDED = "table.extended", "Table given extra time"
        PENALTY_GIVEN = "penalty.given", "Penalty given"
        PENALTY_TYPES_CHANGED = "penalty.types_changed", "Penalty types changed"
        TABLE_FIXED = "table.fixed", "Table's physical number fixed"
        SEATING_CHANGED = "registration.seating_changed", "Fixed table or accessibility note changed"
        PRIVATE_DATA_DELETED = "tournament.private_data_deleted", "Private data deleted"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit_entries")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Who did it; empty for the system (or a deleted account).",
    )
    action = models.CharField(max_length=40, choices=Action.choices)
    details = models.JSONField(
        default=dict, blank=True, help_text="What was done, e.g. the player and round."
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name_plural = "audit entries"
        indexes = [models.Index(fields=["tournament", "-at", "-id"], name="audit_newest_first")]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.action} at {self.at:%Y-%m-%d %H:%M}"


class StandingsSnapshot(models.Model):
    """A tournament's computed standings as of one state of everything they are computed from, so that its
    pages need not recompute them on every request (`league.tournaments.snapshots`).

    `key` fingerprints that state (the tournament's settings, its rounds, its registrations' statuses and
    seeds, its tables and the result versions of their matches): a page whose fingerprint differs computes
    the standings afresh and replaces the snapshot. The rows are stored in chunks (`StandingsChunk`), so
    that a page of them reads one chunk; names are not stored (a renamed player shows at once)."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="standings_snapshot"
    )
    key = models.CharField(max_length=64)
    count = models.PositiveIntegerField(help_text="How many rows the standings have.")
    computed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Standings of {self.tournament_id} ({self.key[:8]})"


class StandingsChunk(models.Model):
    """Rows `index * size` onwards of a standings snapshot (`size`: `snapshots.CHUNK`), each row the fields
    of pairing's Standing; stored under the snapshot's key."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=64)
    index = models.PositiveIntegerField()
    rows = models.JSONField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "key", "index"], name="standings_chunk_unique"),
        ]

    def __str__(self) -> str:
        return f"Standings of {self.tournament_id} ({self.key[:8]}), chunk {self.index}"


# The floor's rows (judge calls, extensions, penalties) live in their own module; imported here so that the
# app registers them.
from league.tournaments.floor_models import (  # noqa: E402, F401
    JudgeCall,
    Penalty,
    PenaltyType,
    TableExtension,
)
