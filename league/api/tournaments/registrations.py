"""A tournament's registrations: their serializers and the tournament's actions that read and write them."""

from django.http import Http404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from league.api.limits import whole_limits
from league.api.tournaments.common import STATE_CONFLICT
from league.core.bodies import takes_body
from league.tournaments import seating, selectors, services
from league.tournaments.forms import participants_body_limit
from league.tournaments.models import Registration, Tournament
from league.tournaments.services.seating import NOTE_MAX_LENGTH, PHYSICAL_BOUNDS


class TournamentRegistrationSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    status = serializers.ChoiceField(choices=Registration.Status.choices)
    seed = serializers.IntegerField(allow_null=True)
    entered_round = serializers.IntegerField()
    left_after_round = serializers.IntegerField(allow_null=True)
    checked_in = serializers.SerializerMethodField()
    waitlist_position = serializers.SerializerMethodField()
    fixed_table = serializers.IntegerField(
        allow_null=True,
        required=False,
        help_text="Organizers only (absent for others): the physical table the player keeps every round",
    )
    accessibility_note = serializers.CharField(
        required=False,
        help_text="Organizers only (absent for others): what the player needs at the table; never public, "
        "deleted with the event's private data",
    )

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if not self.context.get("floor"):  # organizers only: `seating.sees_floor_notes`
            data.pop("fixed_table", None)
            data.pop("accessibility_note", None)
        return data

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
    return selectors.waitlist_positions(rows)


def _registration_data(reg: Registration) -> dict:
    return TournamentRegistrationSerializer(reg, context={"positions": _positions(reg.tournament)}).data


class CheckInSerializer(serializers.Serializer):
    checked_in = serializers.BooleanField(default=True, help_text="false undoes the check-in")


class DecisionSerializer(serializers.Serializer):
    approve = serializers.BooleanField(help_text="true approves the pending entry, false declines it")


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


class SeatingSerializer(serializers.Serializer):
    fixed_table = serializers.IntegerField(
        allow_null=True,
        required=False,
        help_text="The physical table the player keeps every round; null: none",
        **whole_limits(PHYSICAL_BOUNDS),
    )
    accessibility_note = serializers.CharField(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        max_length=NOTE_MAX_LENGTH,
        help_text="What the player needs at the table (organizers only); empty: none",
    )


class PrivateDataDeletedSerializer(serializers.Serializer):
    private_links = serializers.IntegerField(help_text="Private links deleted (with their addresses)")
    accessibility_notes = serializers.IntegerField(help_text="Accessibility notes cleared")


class LeaveSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["withdrawn", "dropped", "no_show"])


class SeedSerializer(serializers.Serializer):
    method = serializers.ChoiceField(choices=["rating", "hand"])
    order = serializers.ListField(child=serializers.IntegerField(), required=False, max_length=10_000)


class RegistrationActions(viewsets.GenericViewSet):
    """A tournament's registrations: one's own entry (join, leave, check in), the organizers' list,
    batch, decisions, check-ins and seeding."""

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
            context = {
                "positions": _positions(tournament, rows),
                "floor": seating.sees_floor_notes(request.user, tournament),
            }
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
        request=SeatingSerializer,
        responses={200: TournamentRegistrationSerializer, **STATE_CONFLICT},
        description="A player's fixed physical table and accessibility note (organizers): a draft waiting "
        "to be published is seated again at once. The answer carries both (organizers only).",
    )
    @action(
        detail=True,
        methods=["patch"],
        url_path=r"registrations/(?P<player_id>[0-9]+)/seating",
        permission_classes=[IsAuthenticated],
    )
    def seating(self, request, pk=None, player_id=None):
        data = SeatingSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = self.get_object()
        registration = tournament.registrations.filter(player_id=int(player_id)).first()
        if registration is None:
            raise Http404("no such registration")
        registration = services.registration_seating(
            registration=registration, by=request.user, **data.validated_data
        )
        context = {"positions": _positions(tournament), "floor": True}
        return Response(TournamentRegistrationSerializer(registration, context=context).data)

    @extend_schema(
        request=None,
        responses={200: PrivateDataDeletedSerializer, **STATE_CONFLICT},
        description="Delete the event's private data once it is finished or cancelled (organizers): its "
        "private links with their holders' addresses, and the accessibility notes. 409 while it runs.",
    )
    @action(
        detail=True, methods=["post"], url_path="delete-private-data", permission_classes=[IsAuthenticated]
    )
    def delete_private_data(self, request, pk=None):
        deleted = services.tournament_private_data_delete(tournament=self.get_object(), by=request.user)
        return Response(PrivateDataDeletedSerializer(deleted).data)

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
