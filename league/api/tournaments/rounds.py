"""A tournament's rounds (`/api/tournament-rounds/`): publish, complete, discard, the timer, swaps and
moves."""

from django.http import Http404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from league.api.limits import whole_limits
from league.api.tournaments.common import STATE_CONFLICT
from league.tournaments import draft_warnings, round_selectors, selectors, services, timers
from league.tournaments.history import load_history
from league.tournaments.models import Round


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
    physical_number = serializers.IntegerField(
        source="physical",
        help_text="The number on the table in the room (slips, find my table, the projector); `number` is "
        "the rank order",
    )
    fixed = serializers.BooleanField(help_text="The table keeps its physical number every round")
    short_code = serializers.CharField(help_text='The code on its slip for keypad entry: round.table, "3.12"')
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


class DraftWarningSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=[check.kind for check in draft_warnings.DRAFT_CHECKS],
        help_text="The check that warns (`repeat_opponents`, `short_table_again`, ...)",
    )
    message = serializers.CharField(source="text", help_text="The warning's sentence, names bare")


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
    warnings = serializers.SerializerMethodField()
    tables = TournamentTableSerializer(many=True)

    @extend_schema_field(DraftWarningSerializer(many=True))
    def get_warnings(self, view) -> list[dict]:
        """A draft's warnings before it is published (empty once published): repeat opponents, a short
        table again, seat streaks, a player far from their score group."""
        if view.row.status != Round.Status.DRAFT:
            return []
        return list(DraftWarningSerializer(draft_warnings.draft_warnings(view.row), many=True).data)

    @extend_schema_field(RoundTimerSerializer(allow_null=True))
    def get_timer(self, view) -> dict | None:
        """The round timer (null without one)."""
        timer = timers.timer_view(view.row)
        return None if timer is None else RoundTimerSerializer(timer).data


class SwapSerializer(serializers.Serializer):
    first_table = serializers.IntegerField(min_value=1, max_value=10_000)
    first_seat = serializers.IntegerField(min_value=1, max_value=7)
    second_table = serializers.IntegerField(min_value=1, max_value=10_000)
    second_seat = serializers.IntegerField(min_value=1, max_value=7)


class MoveSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=2**62)
    to_table = serializers.IntegerField(min_value=1, max_value=10_000)


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
    history = load_history(round_row.tournament, quality=True)
    return next(
        view for view in round_selectors.rounds(history, include_drafts=True) if view.row.pk == round_row.pk
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
