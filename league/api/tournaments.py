"""REST endpoints for tournaments: thin adapters over `league.tournaments` services and selectors.

The same rules and errors as the pages: anyone reads published tournaments (drafts and draft rounds only
their organizers); writes need a login (token or session), and the services answer 403 to users who may not
(organizer writes; result entry for organizers and scorekeepers; a player's own entry for the signed-in
user's own player only), 404 to a missing object, 409 to a request that does not fit its state (e.g.
generating a round before the last is complete) and 400 to bad input, each with the API's error body
(`league/api/errors.py`). Times are ISO 8601 in the event's zone (`time_zone`), with its offset.
"""

from django.db.models import Prefetch
from django.http import Http404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from league.api import filters
from league.api.errors import ERROR
from league.api.limits import WholeLimits, whole_limits
from league.core.bodies import takes_body
from league.results.models import ResultDispute, ResultReport
from league.results.services import report_describe
from league.tournaments import clock, seam, selectors, services, snapshots, timers
from league.tournaments.errors import NotOrganizer
from league.tournaments.forms import participants_body_limit
from league.tournaments.models import ByeRequest, Registration, Round, RoundTime, Table, Tournament

# A tournament's writes answer 409 when its state refuses them (e.g. a round before the last is complete);
# the errors every write answers are added by league.api.schema.
STATE_CONFLICT = {409: ERROR}


class RoundTimeSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    starts_at = serializers.DateTimeField(help_text="In the event's zone, with its offset")


class TournamentSerializer(serializers.ModelSerializer):
    slug = serializers.CharField(read_only=True, help_text="Derived from the name; used in page URLs.")
    player_count = serializers.SerializerMethodField()
    starts_at = serializers.SerializerMethodField()
    checkin_opens_at = serializers.SerializerMethodField()
    round_times = serializers.SerializerMethodField()
    check_in = serializers.BooleanField(read_only=True, help_text="Whether the tournament uses check-in")
    places_left = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = [
            "id",
            "slug",
            "name",
            "game_id",
            "options",
            "format",
            "table_size",
            "leftovers",
            "rounds",
            "first_stage",
            "cut_size",
            "cut_format",
            "advance",
            "third_place",
            "grand_final_reset",
            "points",
            "tiebreaks",
            "rated",
            "status",
            "player_count",
            "created_at",
            "time_zone",
            "starts_at",
            "checkin_opens_at",
            "check_in",
            "round_times",
            "self_signup",
            "capacity",
            "waitlist",
            "approval",
            "places_left",
            "scale_points",
            "requested_bye_score",
            "result_reporting",
            "two_seat_confirmation",
            "dispute_window_minutes",
            "venue",
            "description",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_starts_at(self, tournament: Tournament) -> str | None:
        return clock.local_iso(tournament.starts_at, tournament.time_zone)

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_checkin_opens_at(self, tournament: Tournament) -> str | None:
        return clock.local_iso(tournament.checkin_opens_at, tournament.time_zone)

    @extend_schema_field(serializers.IntegerField(help_text="Active players"))
    def get_player_count(self, tournament: Tournament) -> int:
        counted = getattr(tournament, "player_count", None)  # annotated by the list and detail queries
        if counted is None:
            counted = tournament.registrations.filter(status=Registration.Status.ACTIVE).count()
        return counted

    @extend_schema_field(RoundTimeSerializer(many=True))
    def get_round_times(self, tournament: Tournament) -> list[dict]:
        return [
            {"number": row.number, "starts_at": clock.local_iso(row.starts_at, tournament.time_zone)}
            for row in tournament.round_times.all()
        ]

    @extend_schema_field(
        serializers.IntegerField(allow_null=True, help_text="Free places under the cap; null: no cap")
    )
    def get_places_left(self, tournament: Tournament) -> int | None:
        if tournament.capacity is None:
            return None
        active = getattr(tournament, "player_count", None)
        if active is None:
            active = tournament.registrations.filter(status=Registration.Status.ACTIVE).count()
        return max(0, tournament.capacity - active)


class TournamentWriteSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    game = serializers.CharField(max_length=40, source="game_id")
    options = serializers.DictField(required=False, default=dict)
    format = serializers.CharField(max_length=30, default=Tournament.Format.SWISS)
    table_size = serializers.IntegerField(default=2, **whole_limits(services.SETTING_BOUNDS["table_size"]))
    leftovers = serializers.CharField(max_length=10, default=Tournament.Leftovers.SHORT)
    rounds = serializers.IntegerField(
        required=False, allow_null=True, default=None, **whole_limits(services.SETTING_BOUNDS["rounds"])
    )
    first_stage = serializers.CharField(max_length=20, default="swiss")
    cut_size = serializers.IntegerField(
        required=False, allow_null=True, default=None, **whole_limits(services.SETTING_BOUNDS["cut_size"])
    )
    cut_format = serializers.CharField(max_length=30, default="single_elimination")
    advance = serializers.IntegerField(default=1, **whole_limits(services.SETTING_BOUNDS["advance"]))
    third_place = serializers.BooleanField(default=False)
    grand_final_reset = serializers.BooleanField(default=True)
    points = serializers.DictField(required=False, default=dict)
    tiebreaks = serializers.ListField(
        child=serializers.CharField(max_length=40),
        required=False,
        max_length=len(seam.TIEBREAKS),
        help_text=f"In order, from: {', '.join(seam.TIEBREAKS)}",
    )
    rated = serializers.BooleanField(default=True)
    scale_points = serializers.BooleanField(
        required=False,
        help_text="Scale other table sizes' points to a win at the preferred size (default: on at "
        "tables above 2 seats)",
    )
    requested_bye_score = serializers.ChoiceField(
        choices=Tournament.ByeScore.choices,
        required=False,
        help_text="Swiss: what a bye a player asks for scores",
    )
    result_reporting = serializers.ChoiceField(
        choices=Tournament.Reporting.choices,
        required=False,
        help_text="organizer (default): organizers enter results; self_report: a seated player reports, "
        "the others at the table confirm",
    )
    two_seat_confirmation = serializers.ChoiceField(
        choices=Tournament.TwoSeatConfirmation.choices,
        required=False,
        help_text="Self-report at tables of 2: opponent (default) confirms, or organizer enters the result",
    )
    dispute_window_minutes = serializers.IntegerField(
        required=False,
        help_text="Self-report: minutes after a stored result during which a player may dispute it "
        "(default 15)",
        **whole_limits(services.SETTING_BOUNDS["dispute_window_minutes"]),
    )
    venue = serializers.CharField(required=False, allow_blank=True, max_length=200)
    description = serializers.CharField(required=False, allow_blank=True, max_length=4000)


class TournamentCreateSerializer(TournamentWriteSerializer):
    time_zone = serializers.CharField(
        required=False, max_length=64, help_text="An IANA name; default: the site's"
    )
    starts_at = serializers.CharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        max_length=40,
        help_text="ISO 8601; without an offset a local time of the event's zone",
    )


class TournamentRegistrationSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    status = serializers.ChoiceField(choices=Registration.Status.choices)
    seed = serializers.IntegerField(allow_null=True)
    entered_round = serializers.IntegerField()
    left_after_round = serializers.IntegerField(allow_null=True)
    checked_in = serializers.SerializerMethodField()
    waitlist_position = serializers.SerializerMethodField()

    def get_checked_in(self, reg: Registration) -> bool:
        return reg.checked_in_at is not None

    @extend_schema_field(serializers.IntegerField(allow_null=True, help_text="From 1, while waitlisted"))
    def get_waitlist_position(self, reg: Registration) -> int | None:
        positions = self.context.get("positions")
        if positions is None:
            positions = _positions(reg.tournament)
            # The context is the dict the outer serializer was given, shared by its rows: a cache here.
            self.context["positions"] = positions  # type: ignore[index]  # the stubs say Mapping
        return positions.get(reg.pk)


def _positions(tournament: Tournament, registrations=None) -> dict[int, int]:
    """Registration id → waitlist position (from 1)."""
    rows = registrations if registrations is not None else list(tournament.registrations.all())
    return {reg.pk: position for position, reg in enumerate(selectors.waitlist(rows), start=1)}


def _registration_data(reg: Registration) -> dict:
    return TournamentRegistrationSerializer(reg, context={"positions": _positions(reg.tournament)}).data


class SignupSerializer(serializers.Serializer):
    self_signup = serializers.BooleanField(required=False, help_text="Players join and leave themselves")
    capacity = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="Places; null for no cap",
        **whole_limits(services.CAPACITY_BOUNDS),
    )
    waitlist = serializers.BooleanField(required=False, help_text="When full, joiners queue (else refused)")
    approval = serializers.BooleanField(required=False, help_text="Joins wait for an organizer's approval")


class ScheduleSerializer(serializers.Serializer):
    _time = "ISO 8601; without an offset a local time of the event's zone; null or empty to clear"
    time_zone = serializers.CharField(
        required=False, max_length=64, help_text="An IANA name, e.g. Europe/Berlin"
    )
    starts_at = serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=40, help_text=_time
    )
    checkin_opens_at = serializers.CharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        max_length=40,
        help_text=f"Before the start; null: no check-in. {_time}",
    )
    round_times = serializers.ListField(
        child=serializers.CharField(allow_null=True, allow_blank=True, max_length=40),
        required=False,
        max_length=60,
        help_text="Planned starts of rounds 1, 2, ... (null skips a round); replaces the list",
    )


class CheckInSerializer(serializers.Serializer):
    checked_in = serializers.BooleanField(default=True, help_text="false undoes the check-in")


class DecisionSerializer(serializers.Serializer):
    approve = serializers.BooleanField(help_text="true approves the pending entry, false declines it")


class StartSerializer(serializers.Serializer):
    confirm = serializers.BooleanField(default=False, help_text="Needed with check-in (see start-preview)")
    dropped = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        max_length=100_000,
        help_text="The player ids the preview dropped; a changed plan answers 409",
    )
    promoted = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        max_length=100_000,
        help_text="The player ids the preview promoted; a changed plan answers 409",
    )


class StartPreviewSerializer(serializers.Serializer):
    check_in = serializers.BooleanField()
    dropped = TournamentRegistrationSerializer(many=True, help_text="Registered, not checked in: no-shows")
    promoted = TournamentRegistrationSerializer(
        many=True, help_text="Checked-in waitlisted, in order, up to the cap"
    )
    staying = TournamentRegistrationSerializer(many=True, help_text="Waitlisted players who stay waiting")
    starting = serializers.IntegerField(source="starting_count", help_text="How many players will play")


class RoleSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=list(services.ROLES), default="organizer")


class RegistrationWriteSerializer(serializers.Serializer):
    player = serializers.IntegerField(required=False, min_value=1, max_value=2**62, help_text="A player's id")
    name = serializers.CharField(
        required=False, max_length=200, help_text="Or a name (a new one makes a player)"
    )
    seed = serializers.IntegerField(required=False, allow_null=True, **whole_limits(services.SEED_BOUNDS))


class BatchEntrySerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, trim_whitespace=False)
    seed = serializers.IntegerField(
        required=False, allow_null=True, default=None, **whole_limits(services.SEED_BOUNDS)
    )


class BatchWriteSerializer(serializers.Serializer):
    entries = BatchEntrySerializer(  # type: ignore[call-arg]  # many=True: a ListSerializer, with max_length
        many=True, max_length=2_000
    )
    confirm_new = serializers.BooleanField(
        default=False,
        help_text="Create the new players the batch names (without it a batch with new names saves nothing)",
    )


class BatchLineSerializer(serializers.Serializer):
    line = serializers.IntegerField(help_text="The entry's position, from 1")
    name = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    new = serializers.BooleanField(help_text="The name is nobody's yet: registering makes a new player")
    suggestions = serializers.ListField(
        child=serializers.CharField(), help_text="Existing names that look like it"
    )
    player = serializers.IntegerField(source="player_id", allow_null=True, help_text="Once saved")


class BatchResultSerializer(serializers.Serializer):
    saved = serializers.BooleanField(help_text="False: new names wait for confirm_new; nothing was saved")
    lines = BatchLineSerializer(many=True)


class LeaveSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["withdrawn", "dropped", "no_show"])


class SeedSerializer(serializers.Serializer):
    method = serializers.ChoiceField(choices=["rating", "hand"])
    order = serializers.ListField(child=serializers.IntegerField(), required=False, max_length=10_000)


class OrganizerSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)


class TournamentStandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    seed = serializers.IntegerField()
    status = serializers.CharField()
    points = serializers.FloatField()
    opponents_points = serializers.FloatField()
    wins = serializers.IntegerField()
    head_to_head = serializers.IntegerField()
    played = serializers.IntegerField()
    byes = serializers.IntegerField(help_text="Byes the pairing gave")
    opponents_points_average = serializers.FloatField()
    buchholz_cut1 = serializers.FloatField()
    buchholz_median = serializers.FloatField()
    sonneborn_berger = serializers.FloatField()
    opponents_match_win_percentage = serializers.FloatField(help_text="A fraction: 0.5 is 50%")
    cumulative = serializers.FloatField()
    requested_byes = serializers.IntegerField(help_text="Byes the player asked for")
    group = serializers.CharField(
        help_text="Elimination: the bracket's rule that placed the player (e.g. 'Champion', 'Final', "
        "'Out in losers' round 3'); empty where the tie-breaks alone order the standings"
    )


class BracketSlotSerializer(serializers.Serializer):
    text = serializers.CharField(help_text="The player's name, 'bye', or where the player comes from")
    player = serializers.IntegerField(source="player_id", allow_null=True)
    won = serializers.BooleanField()


class BracketMatchSerializer(serializers.Serializer):
    label = serializers.CharField()  # type: ignore[assignment]  # a field named label: stubs see Field.label
    slots = BracketSlotSerializer(many=True)
    decided = serializers.BooleanField()
    skipped = serializers.BooleanField(help_text="A grand-final reset that was not needed")


class TournamentSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="0-based; seat 0 starts")
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    place = serializers.IntegerField(allow_null=True)
    score = serializers.IntegerField(allow_null=True)
    points = serializers.FloatField(allow_null=True)
    absent = serializers.BooleanField()


class TournamentTableSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field named label: stubs see Field.label
    match = serializers.IntegerField(source="match_id", allow_null=True)
    match_status = serializers.CharField()
    result_version = serializers.IntegerField()
    closed_as = serializers.CharField()
    advancing = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Elimination: who goes through, where the result's places left a tie at the cut",
    )
    seats = TournamentSeatSerializer(many=True)


class RoundTimerSerializer(serializers.Serializer):
    state = serializers.ChoiceField(choices=["running", "paused", "over"])
    duration_seconds = serializers.IntegerField(help_text="The timer's length, extensions included")
    seconds_left = serializers.IntegerField(help_text="At the time of the answer")
    ends_at = serializers.DateTimeField(allow_null=True, help_text="Running (or over): when it reaches zero")


class TimerActionSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=["start", "pause", "resume", "extend", "reset"])
    minutes = serializers.IntegerField(
        required=False, help_text="start: 1 to 600; extend: 1 to 120", **whole_limits(services.TIMER_MINUTES)
    )


class TournamentRoundSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="row.pk")
    number = serializers.IntegerField()
    status = serializers.CharField(source="row.status")
    final = serializers.BooleanField(source="row.final")
    byes = serializers.ListField(child=serializers.IntegerField(), source="row.byes")
    advanced = serializers.ListField(child=serializers.IntegerField(), source="row.advanced")
    requested_byes = serializers.ListField(
        child=serializers.ListField(child=serializers.JSONField()),
        source="row.requested_byes",
        help_text='Byes players asked for: [player id, "win" | "half" | "zero"]',
    )
    sat_out = serializers.ListField(
        child=serializers.IntegerField(),
        source="row.sat_out",
        help_text="Players who asked to sit the round out",
    )
    quality = serializers.DictField(source="row.quality")
    timer = serializers.SerializerMethodField()
    tables = TournamentTableSerializer(many=True)

    @extend_schema_field(RoundTimerSerializer(allow_null=True))
    def get_timer(self, view) -> dict | None:
        """The round timer (null without one)."""
        timer = timers.timer_view(view.row)
        return None if timer is None else RoundTimerSerializer(timer).data


class ByeRequestSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="round_number")
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    kind = serializers.ChoiceField(
        choices=ByeRequest.Kind.choices, help_text="bye (scored as the tournament says) or sit_out (unscored)"
    )


class ByeRequestWriteSerializer(serializers.Serializer):
    round = serializers.IntegerField(
        min_value=1, max_value=whole_limits(services.SETTING_BOUNDS["rounds"])["max_value"]
    )
    kind = serializers.ChoiceField(choices=ByeRequest.Kind.choices, default=ByeRequest.Kind.BYE)
    player = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=2**62,
        help_text="Organizers: any registered player; omitted: your own",
    )


class ByeCancelSerializer(serializers.Serializer):
    round = serializers.IntegerField(
        min_value=1, max_value=whole_limits(services.SETTING_BOUNDS["rounds"])["max_value"]
    )
    player = serializers.IntegerField(required=False, min_value=1, max_value=2**62)


class SwapSerializer(serializers.Serializer):
    first_table = serializers.IntegerField(min_value=1, max_value=10_000)
    first_seat = serializers.IntegerField(min_value=1, max_value=7)
    second_table = serializers.IntegerField(min_value=1, max_value=10_000)
    second_seat = serializers.IntegerField(min_value=1, max_value=7)


class MoveSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=2**62)
    to_table = serializers.IntegerField(min_value=1, max_value=10_000)


class TableResultSerializer(serializers.Serializer):
    expected_version = serializers.IntegerField(min_value=0, max_value=2**31 - 1)
    places = serializers.ListField(
        child=serializers.IntegerField(), required=False, allow_null=True, default=None
    )
    scores = serializers.ListField(
        child=serializers.IntegerField(), required=False, allow_null=True, default=None
    )
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)
    advancing = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**62),
        required=False,
        allow_null=True,
        default=None,
        max_length=7,
        help_text="Elimination: the players who go through, required where the places tie at the cut",
    )
    reset = serializers.BooleanField(
        default=False,
        help_text="A bracket correction that changes who plays a later match: reset those matches "
        "(voided, then opened again with the corrected players); without it such a correction answers 409",
    )


def _per_seat(help_text: str) -> serializers.ListField:
    """A list of whole numbers, one per seat (at most 7 seats), optional."""
    return serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        allow_null=True,
        default=None,
        max_length=7,
        help_text=help_text,
    )


_REPORT_ID: WholeLimits = {"min_value": 1, "max_value": 2**62}


class ReportWriteSerializer(serializers.Serializer):
    expected_version = serializers.IntegerField(
        min_value=0,
        max_value=2**31 - 1,
        help_text="The table's result_version: 0 (players report a first result)",
    )
    places = _per_seat("Place per seat (seat order), 1 = first")
    scores = _per_seat("Score per seat, optional")
    advancing = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**62),
        required=False,
        allow_null=True,
        default=None,
        max_length=7,
        help_text="Elimination: the players who go through, required where the places tie at the cut",
    )


class ConfirmSerializer(serializers.Serializer):
    report = serializers.IntegerField(help_text="The open report's id", **_REPORT_ID)


class DisputeWriteSerializer(serializers.Serializer):
    report = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="The report disputed; default: the table's latest",
        **_REPORT_ID,
    )
    places = _per_seat("The places you claim, per seat (optional with a note)")
    scores = _per_seat("The scores you claim, per seat, optional")
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class ReportSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    match = serializers.IntegerField()
    expected_version = serializers.IntegerField()
    reporter = serializers.IntegerField(help_text="The reporting player's id")
    places = serializers.ListField(child=serializers.IntegerField())
    scores = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    advancing = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    awaiting = serializers.ListField(child=serializers.IntegerField(), help_text="Players yet to confirm")
    confirmed = serializers.ListField(child=serializers.IntegerField(), help_text="Players who confirmed")
    status = serializers.ChoiceField(choices=["open", "stored", "disputed", "superseded"])
    created_at = serializers.DateTimeField()


class DisputeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    report = serializers.IntegerField(source="report_id")
    player = serializers.IntegerField(source="player_id", help_text="The disputing player's id")
    places = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    scores = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    note = serializers.CharField()
    status = serializers.ChoiceField(choices=["open", "settled"])
    created_at = serializers.DateTimeField()


class TableReportsSerializer(serializers.Serializer):
    open_reports = ReportSerializer(many=True, help_text="At most one: the report waiting for confirmation")
    open_disputes = DisputeSerializer(many=True, help_text="At most one: the dispute an organizer settles")


class CloseSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["no_show", "forfeit"])
    absent = serializers.ListField(child=serializers.IntegerField(), min_length=1, max_length=7)
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)
    advancing = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        allow_null=True,
        default=None,
        max_length=8,
        help_text="Who goes through when the players present tie at an elimination table's cut.",
    )


TIMER_ACTIONS = {
    "start": services.round_timer_start,
    "pause": services.round_timer_pause,
    "resume": services.round_timer_resume,
    "extend": services.round_timer_extend,
    "reset": services.round_timer_reset,
}


def _round_view(round_row: Round, user) -> object:
    organizer = selectors.is_organizer(user, round_row.tournament)
    if round_row.status == Round.Status.DRAFT and not organizer:
        raise Http404("no such round")
    history = seam.load_history(round_row.tournament)
    return next(
        view for view in selectors.rounds(history, include_drafts=True) if view.row.pk == round_row.pk
    )


class TournamentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Tournaments. Site staff create them; their organizers run them (registrations, rounds, results)."""

    serializer_class = TournamentSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]
    filterset_class = filters.TournamentFilter

    def get_queryset(self):
        return selectors.tournament_list(user=self.request.user).prefetch_related(
            Prefetch("round_times", queryset=RoundTime.objects.order_by("number"))
        )

    @extend_schema(request=TournamentCreateSerializer, responses={201: TournamentSerializer})
    def create(self, request):
        data = TournamentCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = services.tournament_create(created_by=request.user, **data.validated_data)
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=TournamentWriteSerializer,
        responses={200: TournamentSerializer, **STATE_CONFLICT},
        description="Change settings before the tournament starts; once a stage sequence has started, its "
        "cut's size and advance until the cut is drawn (409 for any other setting).",
    )
    def partial_update(self, request, pk=None):
        data = TournamentWriteSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        tournament = services.tournament_update(
            tournament=self.get_object(), by=request.user, **data.validated_data
        )
        return Response(TournamentSerializer(tournament).data)

    def _transition(self, request, service):
        tournament = service(tournament=self.get_object(), by=request.user)
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(request=None, responses={200: TournamentSerializer, **STATE_CONFLICT})
    @action(detail=True, methods=["post"], url_path="open-registration")
    def open_registration(self, request, pk=None):
        """Draft → registration."""
        return self._transition(request, services.tournament_open_registration)

    @extend_schema(request=StartSerializer, responses={200: TournamentSerializer, **STATE_CONFLICT})
    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        """Registration → running; unseeded players are seeded by rating after the seeded ones. With check-in,
        `confirm: true` carries out the start preview (no-shows dropped, checked-in waitlisted players moved
        up); with `dropped` and `promoted` as the preview gave them, a plan that changed since answers 409."""
        data = StartSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = services.tournament_start(
            tournament=self.get_object(), by=request.user, **data.validated_data
        )
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(responses={200: StartPreviewSerializer, 403: ERROR})
    @action(detail=True, methods=["get"], url_path="start-preview", permission_classes=[IsAuthenticated])
    def start_preview(self, request, pk=None):
        """What starting now would do (organizers): who is dropped as a no-show, who moves up, who stays."""
        tournament = self.get_object()
        if not selectors.is_organizer(request.user, tournament):
            raise NotOrganizer()
        registrations = list(tournament.registrations.select_related("player").order_by("seed", "id"))
        plan = selectors.start_plan(tournament, registrations)
        context = {"positions": _positions(tournament, registrations)}
        body = {
            "check_in": plan.check_in,
            "dropped": plan.dropped,
            "promoted": plan.promoted,
            "staying": plan.staying,
            "starting_count": len(plan.starting),
        }
        return Response(StartPreviewSerializer(body, context=context).data)

    @extend_schema(request=SignupSerializer, responses={200: TournamentSerializer, **STATE_CONFLICT})
    @action(detail=True, methods=["patch"], url_path="sign-up")
    def signup(self, request, pk=None):
        """How players sign up (organizers, before the start): self sign-up, cap, waitlist, approval."""
        data = SignupSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = services.signup_configure(
            tournament=self.get_object(), by=request.user, **data.validated_data
        )
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(request=ScheduleSerializer, responses={200: TournamentSerializer, **STATE_CONFLICT})
    @action(detail=True, methods=["patch"])
    def schedule(self, request, pk=None):
        """The event's clock (organizers): time zone, start, check-in opening, round times."""
        data = ScheduleSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = services.tournament_schedule(
            tournament=self.get_object(), by=request.user, **data.validated_data
        )
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(request=None, responses={201: TournamentRegistrationSerializer, **STATE_CONFLICT})
    @action(detail=True, methods=["post"])
    def join(self, request, pk=None):
        """The signed-in user's player joins: registered, waitlisted (full) or pending (approval)."""
        reg = services.registration_join(tournament=self.get_object(), by=request.user)
        return Response(_registration_data(reg), status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: TournamentRegistrationSerializer, **STATE_CONFLICT})
    @action(detail=True, methods=["post"])
    def leave(self, request, pk=None):
        """The signed-in user's player leaves before the start; the first waitlisted player moves up."""
        reg = services.registration_withdraw(tournament=self.get_object(), by=request.user)
        return Response(_registration_data(reg))

    @extend_schema(
        request=CheckInSerializer, responses={200: TournamentRegistrationSerializer, **STATE_CONFLICT}
    )
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request, pk=None):
        """The signed-in user's player checks in (or undoes it) while the check-in window is open."""
        data = CheckInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = services.registration_check_in(
            tournament=self.get_object(), by=request.user, **data.validated_data
        )
        return Response(_registration_data(reg))

    @extend_schema(responses={200: TournamentRegistrationSerializer})
    @action(detail=True, methods=["get"], permission_classes=[IsAuthenticated])
    def entry(self, request, pk=None):
        """The signed-in user's own entry (404 when their player has none)."""
        tournament = self.get_object()
        player = selectors.player_of(request.user)
        reg = (
            tournament.registrations.select_related("player").filter(player=player).first()
            if player
            else None
        )
        if reg is None:
            raise Http404("you are not registered in this tournament")
        return Response(_registration_data(reg))

    @extend_schema(
        request=CheckInSerializer, responses={200: TournamentRegistrationSerializer, **STATE_CONFLICT}
    )
    @action(detail=True, methods=["post"], url_path=r"registrations/(?P<player_id>[0-9]+)/check-in")
    def registration_check_in(self, request, pk=None, player_id=None):
        """An organizer checks a registered or waitlisted player in (or undoes it), any time before the
        start."""
        data = CheckInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = services.registration_check_in(
            tournament=self.get_object(), by=request.user, player_id=int(player_id), **data.validated_data
        )
        return Response(_registration_data(reg))

    @extend_schema(
        request=DecisionSerializer, responses={200: TournamentRegistrationSerializer, **STATE_CONFLICT}
    )
    @action(detail=True, methods=["post"], url_path=r"registrations/(?P<player_id>[0-9]+)/decision")
    def registration_decision(self, request, pk=None, player_id=None):
        """An organizer approves (a place, or the waitlist when full) or declines a pending entry."""
        data = DecisionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reg = services.registration_decide(
            tournament=self.get_object(), by=request.user, player_id=int(player_id), **data.validated_data
        )
        return Response(_registration_data(reg))

    @extend_schema(methods=["GET"], responses={200: RoleSerializer(many=True), 403: ERROR})
    @extend_schema(
        methods=["POST"],
        request=RoleSerializer,
        responses={201: RoleSerializer},
        description="Give a user a role by user name: 403 for users who may not, whether or not the "
        "name exists; 400 for an unknown name.",
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None, permission_classes=[IsAuthenticated])
    def roles(self, request, pk=None):
        """Organizers and scorekeepers (organizers only)."""
        tournament = self.get_object()
        if request.method == "GET":
            if not selectors.is_organizer(request.user, tournament):
                raise NotOrganizer()
            return Response(RoleSerializer(selectors.roles(tournament), many=True).data)
        data = RoleSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = services.role_add(tournament=tournament, by=request.user, **data.validated_data)
        body = {"username": user.get_username(), "role": data.validated_data["role"]}
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None, **STATE_CONFLICT})
    @action(
        detail=True,
        methods=["delete"],
        url_path=r"roles/(?P<role>organizer|scorekeeper)/(?P<username>[\w.@+-]+)",
    )
    def role(self, request, pk=None, role=None, username=None):
        """Take a role away; a tournament keeps at least one organizer."""
        services.role_remove(tournament=self.get_object(), by=request.user, username=username, role=role)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=None, responses={200: TournamentSerializer, **STATE_CONFLICT})
    @action(detail=True, methods=["post"])
    def finish(self, request, pk=None):
        """Running → finished, once the last round is complete."""
        return self._transition(request, services.tournament_finish)

    @extend_schema(request=OrganizerSerializer, responses={204: None})
    @action(detail=True, methods=["post"])
    def organizers(self, request, pk=None):
        """Add an organizer by user name."""
        data = OrganizerSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.organizer_add(tournament=self.get_object(), by=request.user, **data.validated_data)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(responses=TournamentStandingSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def standings(self, request, pk=None):
        """Standings with every tie-break column, in the tournament's tie-break order."""
        rows = list(snapshots.standings_list(self.get_object()))
        return Response(TournamentStandingSerializer(rows, many=True).data)

    @extend_schema(
        request=BatchWriteSerializer,
        responses={201: BatchResultSerializer, 200: BatchResultSerializer, **STATE_CONFLICT},
        description="Register many players, all or nothing: every bad entry is named (`errors`: "
        "`entries.<index>`) and nothing is saved; a batch naming new players saves nothing and answers "
        "200 with the new names (and look-alike existing names) until `confirm_new` is true.",
    )
    @action(detail=True, methods=["post"], url_path="registrations/batch")
    @takes_body(participants_body_limit)
    def registrations_batch(self, request, pk=None):
        data = BatchWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entries = [
            services.BatchEntry(entry["name"], entry["seed"], index)
            for index, entry in enumerate(data.validated_data["entries"], start=1)
        ]
        batch = services.registrations_add_batch(
            tournament=self.get_object(),
            by=request.user,
            entries=entries,
            confirm_new=data.validated_data["confirm_new"],
        )
        code = status.HTTP_201_CREATED if batch.saved else status.HTTP_200_OK
        return Response(BatchResultSerializer(batch).data, status=code)

    @extend_schema(methods=["GET"], responses=TournamentRegistrationSerializer(many=True))
    @extend_schema(
        methods=["POST"],
        request=RegistrationWriteSerializer,
        responses={201: TournamentRegistrationSerializer, **STATE_CONFLICT},
        description="Register a player by id or name; while running, a late entry (zero points).",
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def registrations(self, request, pk=None):
        tournament = self.get_object()
        if request.method == "GET":
            rows = list(tournament.registrations.select_related("player").order_by("seed", "id"))
            context = {"positions": _positions(tournament, rows)}
            if not selectors.is_organizer(request.user, tournament):
                rows = [reg for reg in rows if reg.status in selectors.PUBLIC_STATUSES]
            return Response(TournamentRegistrationSerializer(rows, many=True, context=context).data)
        data = RegistrationWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        registration = services.registration_add(
            tournament=tournament,
            by=request.user,
            player_id=values.get("player"),
            name=values.get("name"),
            seed=values.get("seed"),
        )
        return Response(_registration_data(registration), status=status.HTTP_201_CREATED)

    @extend_schema(
        request=LeaveSerializer,
        responses={200: TournamentRegistrationSerializer, **STATE_CONFLICT},
        description="A player withdraws (before the start), drops or is a no-show (while running).",
    )
    @action(detail=True, methods=["patch"], url_path=r"registrations/(?P<player_id>[0-9]+)")
    def registration(self, request, pk=None, player_id=None):
        data = LeaveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        registration = services.registration_leave(
            tournament=self.get_object(),
            by=request.user,
            player_id=int(player_id),
            status=data.validated_data["status"],
        )
        return Response(_registration_data(registration))

    @extend_schema(
        request=SeedSerializer, responses={200: TournamentRegistrationSerializer(many=True), **STATE_CONFLICT}
    )
    @action(detail=True, methods=["post"], pagination_class=None)
    def seed(self, request, pk=None):
        """Seed every active player by rating, or by hand (`order`: player ids, top seed first)."""
        data = SeedSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ordered = services.tournament_seed(
            tournament=self.get_object(), by=request.user, **data.validated_data
        )
        return Response(TournamentRegistrationSerializer(ordered, many=True).data)

    @extend_schema(responses=BracketMatchSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def bracket(self, request, pk=None):
        """The 2-seat elimination bracket (or top cut) in playing order, as far as results tell; [] before
        it is drawn and for other formats."""
        history = seam.load_history(self.get_object())
        names = {reg.player_id: reg.player.name for reg in history.registrations}
        return Response(BracketMatchSerializer(seam.bracket_matches(history, names) or [], many=True).data)

    @extend_schema(responses=TournamentRoundSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def rounds(self, request, pk=None):
        """Every round with its tables, seats, places and points (draft rounds for organizers only)."""
        tournament = self.get_object()
        views = selectors.rounds(
            seam.load_history(tournament), include_drafts=selectors.is_organizer(request.user, tournament)
        )
        return Response(TournamentRoundSerializer(views, many=True).data)

    @extend_schema(methods=["GET"], responses=ByeRequestSerializer(many=True))
    @extend_schema(
        methods=["POST"],
        request=ByeRequestWriteSerializer,
        responses={201: ByeRequestSerializer, **STATE_CONFLICT},
        description="Ask to miss a Swiss round not generated yet: a bye or a sit-out; your own player, "
        "or (organizers) any registered player. Asking again changes the kind.",
    )
    @extend_schema(
        methods=["DELETE"],
        request=ByeCancelSerializer,
        responses={204: None, **STATE_CONFLICT},
        description="Take a request back before its round is generated (round and player in the body "
        "or the query string).",
    )
    @action(detail=True, methods=["get", "post", "delete"], url_path="bye-requests", pagination_class=None)
    def bye_requests(self, request, pk=None):
        """Requests for byes and sit-outs in rounds still to be generated, by round then seed."""
        tournament = self.get_object()
        if request.method == "GET":
            rows = selectors.open_bye_requests(tournament)
            return Response(ByeRequestSerializer(rows, many=True).data)
        if request.method == "DELETE":
            data = ByeCancelSerializer(data=request.data or request.query_params)
            data.is_valid(raise_exception=True)
            services.bye_cancel(
                tournament=tournament,
                by=request.user,
                round_number=data.validated_data["round"],
                player_id=data.validated_data.get("player"),
            )
            return Response(status=status.HTTP_204_NO_CONTENT)
        data = ByeRequestWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        row = services.bye_request(
            tournament=tournament,
            by=request.user,
            round_number=values["round"],
            kind=values["kind"],
            player_id=values.get("player"),
        )
        return Response(ByeRequestSerializer(row).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=None,
        responses={201: TournamentRoundSerializer, **STATE_CONFLICT},
        description="Generate the next round as a draft; 409 while the last round is not complete.",
    )
    @action(detail=True, methods=["post"], url_path="rounds/generate")
    def generate(self, request, pk=None):
        round_row = services.round_generate(tournament=self.get_object(), by=request.user)
        return Response(
            TournamentRoundSerializer(_round_view(round_row, request.user)).data,
            status=status.HTTP_201_CREATED,
        )


class RoundViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A tournament round: its organizers adjust a draft, publish it, and complete it once every table has
    a result."""

    queryset = Round.objects.select_related("tournament")
    serializer_class = TournamentRoundSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]

    def retrieve(self, request, pk=None):
        return Response(TournamentRoundSerializer(_round_view(self.get_object(), request.user)).data)

    @extend_schema(responses={204: None, **STATE_CONFLICT}, description="Discard a draft round.")
    def destroy(self, request, pk=None):
        services.round_discard(round_row=self.get_object(), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    def _done(self, round_row):
        round_row.refresh_from_db()
        return Response(TournamentRoundSerializer(_round_view(round_row, self.request.user)).data)

    @extend_schema(request=None, responses={200: TournamentRoundSerializer, **STATE_CONFLICT})
    @action(detail=True, methods=["post"])
    def publish(self, request, pk=None):
        """Publish a draft: every table becomes a scheduled match of the league."""
        round_row = self.get_object()
        services.round_publish(round_row=round_row, by=request.user)
        return self._done(round_row)

    @extend_schema(request=None, responses={200: TournamentRoundSerializer, **STATE_CONFLICT})
    @action(detail=True, methods=["post"])
    def complete(self, request, pk=None):
        """Complete a published round; 409 while a table waits for its result."""
        round_row = self.get_object()
        services.round_complete(round_row=round_row, by=request.user)
        return self._done(round_row)

    @extend_schema(
        request=TimerActionSerializer,
        responses={200: TournamentRoundSerializer, **STATE_CONFLICT},
        description="Organizers and site staff only.",
    )
    @action(detail=True, methods=["post"])
    def timer(self, request, pk=None):
        """Run the round timer of a published round: start (`minutes`), pause, resume, extend (`minutes`) or
        reset (remove it)."""
        data = TimerActionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round_row = self.get_object()
        action, minutes = data.validated_data["action"], data.validated_data.get("minutes")
        timed = {"minutes": minutes} if action in ("start", "extend") else {}
        TIMER_ACTIONS[action](round_row=round_row, by=request.user, **timed)
        return self._done(round_row)

    @extend_schema(request=SwapSerializer, responses={200: TournamentRoundSerializer, **STATE_CONFLICT})
    @action(detail=True, methods=["post"])
    def swap(self, request, pk=None):
        """Swap two seats of a draft (tables and seats from 1)."""
        data = SwapSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round_row = self.get_object()
        services.round_swap(round_row=round_row, by=request.user, **data.validated_data)
        return self._done(round_row)

    @extend_schema(request=MoveSerializer, responses={200: TournamentRoundSerializer, **STATE_CONFLICT})
    @action(detail=True, methods=["post"])
    def move(self, request, pk=None):
        """Move a player of a draft to another table."""
        data = MoveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round_row = self.get_object()
        services.round_move(
            round_row=round_row,
            by=request.user,
            player_id=data.validated_data["player"],
            to_table=data.validated_data["to_table"],
        )
        return self._done(round_row)


class TableViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A tournament table and its match: organizers enter or correct its result, or close it."""

    queryset = Table.objects.select_related("round__tournament")
    serializer_class = TournamentTableSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]

    def _view(self, table):
        view = _round_view(table.round, self.request.user)
        return next(item for item in view.tables if item.id == table.pk)

    def retrieve(self, request, pk=None):
        return Response(TournamentTableSerializer(self._view(self.get_object())).data)

    @extend_schema(
        request=TableResultSerializer,
        responses={201: TournamentTableSerializer, **STATE_CONFLICT},
        description="Enter the result (expected_version 0) or correct it (the version it corrects, and "
        "a reason). A stale version answers 409 with current_version.",
    )
    @action(detail=True, methods=["post"])
    def result(self, request, pk=None):
        data = TableResultSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = self.get_object()
        services.table_result(table=table, by=request.user, **data.validated_data)
        return Response(TournamentTableSerializer(self._view(table)).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: TableReportsSerializer})
    @action(detail=True, methods=["get"], pagination_class=None)
    def reports(self, request, pk=None):
        """The table's open report (waiting for its players' confirmation) and open dispute, if any."""
        table = self.get_object()
        self._view(table)  # a draft's table only for its organizers
        reports = ResultReport.objects.filter(match_id=table.match_id, status=ResultReport.Status.OPEN)
        disputes = ResultDispute.objects.filter(match_id=table.match_id, status=ResultDispute.Status.OPEN)
        body = {
            "open_reports": [report_describe(report) for report in reports.prefetch_related("confirmations")],
            "open_disputes": DisputeSerializer(disputes, many=True).data,
        }
        return Response(body)

    @extend_schema(
        request=ReportWriteSerializer,
        responses={201: ReportSerializer, **STATE_CONFLICT},
        description="A seated player reports the table's result (self-report tournaments); it is stored "
        "once every other seated player confirms (at 2 seats: the opponent). 409 while a report is open "
        "(the body's open_report is that report), once a result is stored, or while the table is "
        "disputed; 403 for anyone not seated and still playing at the table.",
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def report(self, request, pk=None):
        data = ReportWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        report = services.table_report(table=self.get_object(), by=request.user, **data.validated_data)
        return Response(report_describe(report), status=status.HTTP_201_CREATED)

    @extend_schema(
        request=ConfirmSerializer,
        responses={200: ReportSerializer, **STATE_CONFLICT},
        description="A player the report awaits confirms it; the last confirmation stores it (status "
        "stored). 409 once an organizer entered the result, or for a report no longer open.",
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def confirm(self, request, pk=None):
        data = ConfirmSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        report = services.table_confirm(
            table=self.get_object(), by=request.user, report_id=data.validated_data["report"]
        )
        return Response(report_describe(report))

    @extend_schema(
        request=DisputeWriteSerializer,
        responses={201: DisputeSerializer, **STATE_CONFLICT},
        description="A seated player disputes the open report, or the stored one within the tournament's "
        "dispute window, with the places they claim and/or a note; an organizer's entry settles it. "
        "409 after the window or when the table is disputed already.",
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def dispute(self, request, pk=None):
        data = DisputeWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        dispute = services.table_dispute(
            table=self.get_object(),
            by=request.user,
            report_id=data.validated_data["report"],
            places=data.validated_data["places"],
            scores=data.validated_data["scores"],
            note=data.validated_data["note"],
        )
        return Response(DisputeSerializer(dispute).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=CloseSerializer, responses={200: TournamentTableSerializer, **STATE_CONFLICT})
    @action(detail=True, methods=["post"])
    def close(self, request, pk=None):
        """Close the table as a no-show or forfeit: absent players share last place."""
        data = CloseSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = self.get_object()
        services.table_close(table=table, by=request.user, **data.validated_data)
        return Response(TournamentTableSerializer(self._view(table)).data)
