"""Tournaments: the list, one tournament, its settings, sign-up, schedule, organizers, start and finish, its
standings, bracket and rounds (the registrations' and byes' actions come from their modules)."""

from django.db.models import Prefetch
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from league.api import filters
from league.api.errors import ERROR
from league.api.limits import whole_limits
from league.api.tournaments.byes import ByeActions
from league.api.tournaments.common import STATE_CONFLICT
from league.api.tournaments.registrations import (
    RegistrationActions,
    TournamentRegistrationSerializer,
    _positions,
)
from league.api.tournaments.rounds import TournamentRoundSerializer, _round_view
from league.tournaments import clock, round_selectors, seam, selectors, services, snapshots
from league.tournaments.bracket_selectors import bracket_matches
from league.tournaments.days import tournament_days
from league.tournaments.errors import NotOrganizer
from league.tournaments.history import load_history
from league.tournaments.models import Registration, RoundTime, Tournament


class RoundTimeSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    starts_at = serializers.DateTimeField(help_text="In the event's zone, with its offset")


class QualifierSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    points = serializers.FloatField(help_text="Points at the end of Day 1")


class DaySerializer(serializers.Serializer):
    number = serializers.IntegerField()
    first_round = serializers.IntegerField()
    last_round = serializers.IntegerField()
    stage = serializers.CharField(help_text="The day's pairing, e.g. Swiss")
    field = serializers.CharField(help_text="Who plays the day, in words")
    qualified = QualifierSerializer(
        many=True,
        allow_null=True,
        help_text="Day 2: who qualified, in the ranking order of the end of Day 1; null until Day 1 is "
        "complete (and for Day 1)",
    )


class TournamentSerializer(serializers.ModelSerializer):
    slug = serializers.CharField(read_only=True, help_text="Derived from the name; used in page URLs.")
    player_count = serializers.SerializerMethodField()
    starts_at = serializers.SerializerMethodField()
    checkin_opens_at = serializers.SerializerMethodField()
    round_times = serializers.SerializerMethodField()
    check_in = serializers.BooleanField(read_only=True, help_text="Whether the tournament uses check-in")
    places_left = serializers.SerializerMethodField()
    days = serializers.SerializerMethodField()

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
            "cancel_reason",
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
            "auto_next_round",
            "day2_after_round",
            "day2_points",
            "days",
            "venue",
            "description",
            "public_version",
        ]
        read_only_fields = fields
        extra_kwargs = {
            "public_version": {
                "help_text": "Counts the changes to what the tournament's public pages show (results, "
                "rounds, drops, timers, settings): it grows with each"
            }
        }

    @extend_schema_field(DaySerializer(many=True))
    def get_days(self, tournament: Tournament) -> list[dict]:
        """A Swiss with a Day 2: each day with its rounds and field, Day 2 with who qualified once Day 1 is
        complete; empty for a one-day event."""
        return list(DaySerializer(tournament_days(tournament), many=True).data)

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
    auto_next_round = serializers.BooleanField(
        required=False,
        help_text="Start the next round as soon as every table is in: published by itself when its draft "
        "has no warning and no dispute is open, else it waits as a draft and the organizers are told "
        "(changes at any time)",
    )
    day2_after_round = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="Swiss: the last round of Day 1; the later rounds are Day 2 (null: one day)",
        **whole_limits(services.SETTING_BOUNDS["day2_after_round"]),
    )
    day2_points = serializers.FloatField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=services.DAY2_POINTS_LIMIT,
        help_text="Swiss with a Day 2: the points after Day 1 that qualify for it (everyone on them goes "
        "through)",
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


class OrganizerSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)


class CancelSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=services.CANCEL_REASON_MAX_LENGTH,
        trim_whitespace=False,
        allow_blank=True,
        help_text="Why the event is cancelled: shown on its page and told to its players",
    )


class CloneSerializer(serializers.Serializer):
    name = serializers.CharField(
        required=False, allow_blank=True, help_text='The new event\'s name (default: the name with " (copy)")'
    )
    shift_days = serializers.IntegerField(
        default=0,
        **whole_limits(services.SHIFT_DAYS),
        help_text="Days the clock moves (start, check-in, rounds)",
    )
    shift_hours = serializers.IntegerField(
        default=0, **whole_limits(services.SHIFT_HOURS), help_text="Hours it moves too"
    )


class DeletedSerializer(serializers.Serializer):
    walk_ins_deleted = serializers.ListField(
        child=serializers.CharField(), help_text="The players made for the event, deleted with it"
    )


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


class TournamentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, RegistrationActions, ByeActions):
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

    @extend_schema(
        responses={200: DeletedSerializer, **STATE_CONFLICT},
        description="Delete a tournament no round of which was published, with the walk-ins made for it "
        "(players without an account, no other registration, no seat); 409 once a round was published "
        "(cancel it instead).",
    )
    def destroy(self, request, pk=None):
        names = services.tournament_delete(tournament=self.get_object(), by=request.user)
        return Response({"walk_ins_deleted": names})

    @extend_schema(request=CancelSerializer, responses={200: TournamentSerializer, **STATE_CONFLICT})
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        """Cancel an unfinished event with a reason: stored results and their ratings stay, unplayed tables
        are voided, its players are told and its webhooks stop. Undone within 10 minutes (cancel/undo)."""
        data = CancelSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = services.tournament_cancel(
            tournament=self.get_object(), by=request.user, **data.validated_data
        )
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(request=None, responses={200: TournamentSerializer, **STATE_CONFLICT})
    @action(detail=True, methods=["post"], url_path="cancel/undo")
    def cancel_undo(self, request, pk=None):
        """Undo the cancel within 10 minutes of it: the event is back where it was."""
        return self._transition(request, services.tournament_cancel_undo)

    @extend_schema(request=CloneSerializer, responses={201: TournamentSerializer, **STATE_CONFLICT})
    @action(detail=True, methods=["post"], url_path="clone")
    def clone(self, request, pk=None):
        """A new draft with this event's settings, sign-up settings and clock moved by the shift (site staff
        who organize this event)."""
        data = CloneSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = services.tournament_clone(
            tournament=self.get_object(), by=request.user, **data.validated_data
        )
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)

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

    @extend_schema(responses=BracketMatchSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def bracket(self, request, pk=None):
        """The 2-seat elimination bracket (or top cut) in playing order, as far as results tell; [] before
        it is drawn and for other formats."""
        history = load_history(self.get_object())
        names = {reg.player_id: reg.player.name for reg in history.registrations}
        return Response(BracketMatchSerializer(bracket_matches(history, names) or [], many=True).data)

    @extend_schema(responses=TournamentRoundSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def rounds(self, request, pk=None):
        """Every round with its tables, seats, places and points (draft rounds for organizers only)."""
        tournament = self.get_object()
        organizer = selectors.is_organizer(request.user, tournament)
        views = round_selectors.rounds(load_history(tournament, quality=True), include_drafts=organizer)
        return Response(TournamentRoundSerializer(views, many=True).data)

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
