"""A tournament's tables (`/api/tournament-tables/`): result entry, the players' reports and disputes,
closing."""

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from league.api.limits import WholeLimits, whole_limits
from league.api.tournaments.common import STATE_CONFLICT
from league.api.tournaments.rounds import TournamentTableSerializer, _round_view
from league.results.models import ResultDispute, ResultReport
from league.results.services import report_describe
from league.tournaments import services
from league.tournaments.models import Table
from league.tournaments.services.seating import PHYSICAL_BOUNDS


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


class TableFixSerializer(serializers.Serializer):
    physical_number = serializers.IntegerField(
        allow_null=True,
        help_text="Pin the draft table here (this round and every later one); null unpins it",
        **whole_limits(PHYSICAL_BOUNDS),
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

    @extend_schema(
        request=TableFixSerializer,
        responses={200: TournamentTableSerializer, **STATE_CONFLICT},
        description="Pin a draft table's physical number (organizers): the table of its rank stands there "
        "this round and every later one. 409 once the round is published.",
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def fix(self, request, pk=None):
        data = TableFixSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = services.table_fix(table=self.get_object(), by=request.user, **data.validated_data)
        return Response(TournamentTableSerializer(self._view(table)).data)

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

    @extend_schema(request=None, responses={200: TournamentTableSerializer, **STATE_CONFLICT})
    @action(detail=True, methods=["post"], url_path="close/undo")
    def close_undo(self, request, pk=None):
        """Undo the closing of the table within 10 minutes of it: it waits for its result again."""
        table = self.get_object()
        services.table_close_undo(table=table, by=request.user)
        return Response(TournamentTableSerializer(self._view(table)).data)
