"""REST endpoints of the floor (issue 48): judge calls, a table's extra time, warnings and penalties, and a
tournament's penalty types. The same services, rules and messages as the judges' page
(`league.web.tournaments.judging`); who judges is `reach.may_judge`.

- `GET /api/tournaments/{id}/calls/`: the calls not yet resolved, the oldest first (judges);
  `?status=resolved` the latest resolved ones instead.
- `POST /api/tournament-tables/{id}/call/`: a player seated at the table calls a judge (one open call per
  table: 409 while one is).
- `POST /api/tournaments/{id}/calls/{call_id}/claim/`, `.../resolve/` (with a `note`): a judge takes a call
  ("a judge is coming"), then closes it.
- `GET`/`POST /api/tournament-tables/{id}/extensions/`: a table's extra time (its own end), and a judge
  giving it 1 to 30 more minutes.
- `GET`/`POST /api/tournaments/{id}/penalties/`: warnings and penalties (judges see all, a player their
  own), and a judge giving one.
- `GET`/`PUT /api/tournaments/{id}/penalty-types/`: the list judges choose from (organizers edit it).
"""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from league.api.tournaments.common import STATE_CONFLICT
from league.tournaments import floor_selectors, reach, selectors, timers
from league.tournaments.errors import NotOrganizer
from league.tournaments.floor_models import JudgeCall, Penalty
from league.tournaments.models import Round, Table, Tournament
from league.tournaments.services import floor

TIMER_STATES = ["running", "paused", "over"]
JUDGES_ONLY = "only the tournament's judges and organizers (and site staff) can do this"


class CallSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=JudgeCall.Status.values)
    round = serializers.IntegerField()
    table = serializers.IntegerField(help_text="The table's number in its round")
    table_label = serializers.CharField()
    caller = serializers.IntegerField(source="caller_id", help_text="The calling player's id")
    caller_name = serializers.CharField(source="caller")
    opened_at = serializers.DateTimeField()
    claimed_by = serializers.CharField(help_text="The judge's user name; empty while open")
    claimed_at = serializers.DateTimeField(allow_null=True)
    resolved_by = serializers.CharField()
    resolved_at = serializers.DateTimeField(allow_null=True)
    note = serializers.CharField(help_text="The judge's note on resolving")


class ResolveSerializer(serializers.Serializer):
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=1000)


class ExtendSerializer(serializers.Serializer):
    minutes = serializers.IntegerField(help_text="1 to 30 minutes more for this table")
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)


class TableTimeSerializer(serializers.Serializer):
    table = serializers.IntegerField(help_text="The table's id")
    number = serializers.IntegerField()
    extra_minutes = serializers.IntegerField(help_text="All the extra time the table was given")
    state = serializers.ChoiceField(
        choices=TIMER_STATES, allow_null=True, help_text="Null: the round has no timer"
    )
    seconds_left = serializers.IntegerField(allow_null=True)
    ends_at = serializers.DateTimeField(allow_null=True, help_text="The table's own end (running or over)")


class PenaltySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player")
    round = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True, help_text="A game loss: the corrected table's number")
    infraction = serializers.CharField(help_text="The type, from the tournament's list")
    kind = serializers.ChoiceField(choices=Penalty.Kind.choices)
    points = serializers.FloatField(help_text="Points off this tournament's standings (points penalties)")
    note = serializers.CharField()
    given_by = serializers.CharField()
    given_at = serializers.DateTimeField()


class PenaltyWriteSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=2**62)
    infraction = serializers.CharField(max_length=60, help_text="A type from the tournament's list")
    kind = serializers.ChoiceField(choices=Penalty.Kind.choices, default=Penalty.Kind.WARNING)
    points = serializers.FloatField(required=False, allow_null=True, default=None)
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=1000)
    round = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=2**15,
        help_text="The round (default: the current one); a game loss corrects the player's table in it",
    )


class PenaltyTypesSerializer(serializers.Serializer):
    names = serializers.ListField(child=serializers.CharField(max_length=60), max_length=20)


def _visible(request, pk) -> Tournament:
    return get_object_or_404(selectors.tournament_list(user=request.user), pk=pk)


def _judged(request, pk) -> Tournament:
    """The tournament `pk` if the user judges it: 404 when they cannot see it, 403 when they do not judge."""
    tournament = _visible(request, pk)
    if not reach.may_judge(request.user, tournament):
        raise NotOrganizer(JUDGES_ONLY)
    return tournament


def _published_table(request, pk) -> Table:
    """The table `pk` of a published (or complete) round of a tournament the user can see; 404 otherwise."""
    tables = Table.objects.select_related("round__tournament", "match").exclude(
        round__status=Round.Status.DRAFT
    )
    table = get_object_or_404(tables, pk=pk, match__isnull=False)
    _visible(request, table.round.tournament_id)
    return table


class CallList(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter("status", enum=["resolved"], required=False)],
        responses={200: CallSerializer(many=True)},
    )
    def get(self, request, pk: str):
        """The tournament's judge calls not yet resolved, the oldest first (judges and organizers)."""
        tournament = _judged(request, pk)
        if request.query_params.get("status") == "resolved":
            rows = floor_selectors.calls_resolved(tournament)
        else:
            rows = floor_selectors.call_queue(tournament)
        return Response(CallSerializer(rows, many=True).data)


class CallOpen(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={201: CallSerializer, **STATE_CONFLICT})
    def post(self, request, pk: str):
        """A player seated at the table calls a judge; 409 while the table has a call open."""
        table = _published_table(request, pk)
        call = floor.judge_call_open(table=table, by=request.user)
        row = floor_selectors.call_row(call.pk)
        return Response(CallSerializer(row).data, status=status.HTTP_201_CREATED)


class CallClaim(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: CallSerializer, **STATE_CONFLICT})
    def post(self, request, pk: str, call_id: int):
        """A judge takes an open call: the table sees "a judge is coming"."""
        tournament = _judged(request, pk)
        call = get_object_or_404(JudgeCall.objects.filter(tournament=tournament), pk=call_id)
        floor.judge_call_claim(call=call, by=request.user)
        return Response(CallSerializer(floor_selectors.call_row(call.pk)).data)


class CallResolve(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=ResolveSerializer, responses={200: CallSerializer, **STATE_CONFLICT})
    def post(self, request, pk: str, call_id: int):
        """A judge closes a call (open or claimed) with a note of the ruling."""
        data = ResolveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = _judged(request, pk)
        call = get_object_or_404(JudgeCall.objects.filter(tournament=tournament), pk=call_id)
        floor.judge_call_resolve(call=call, by=request.user, note=data.validated_data["note"])
        return Response(CallSerializer(floor_selectors.call_row(call.pk)).data)


def _table_time(table: Table) -> dict:
    minutes = floor_selectors.extensions_of([table.pk]).get(table.pk, 0)
    view = floor_selectors.table_timer(table.round, minutes, timers.now())
    return {
        "table": table.pk,
        "number": table.number,
        "extra_minutes": minutes,
        "state": view.state if view else None,
        "seconds_left": view.seconds_left if view else None,
        "ends_at": view.ends_at if view else None,
    }


class TableExtensions(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: TableTimeSerializer})
    def get(self, request, pk: str):
        """The table's extra time and its own timer (its round's, moved on by the extra time)."""
        return Response(TableTimeSerializer(_table_time(_published_table(request, pk))).data)

    @extend_schema(request=ExtendSerializer, responses={201: TableTimeSerializer, **STATE_CONFLICT})
    def post(self, request, pk: str):
        """A judge gives the table 1 to 30 minutes more than its round (while it has no result)."""
        data = ExtendSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = _published_table(request, pk)
        floor.table_extend(table=table, by=request.user, **data.validated_data)
        return Response(TableTimeSerializer(_table_time(table)).data, status=status.HTTP_201_CREATED)


class PenaltyList(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: PenaltySerializer(many=True)})
    def get(self, request, pk: str):
        """Warnings and penalties: every one for the event's judges and organizers, a player's own for
        them; 403 for anyone else."""
        tournament = _visible(request, pk)
        if reach.may_judge(request.user, tournament):
            rows = floor_selectors.penalties_of(tournament)
        else:
            player = selectors.player_of(request.user)
            if player is None or not tournament.registrations.filter(player=player).exists():
                raise NotOrganizer(JUDGES_ONLY)
            rows = floor_selectors.penalties_of(tournament, player.pk)
        return Response(PenaltySerializer(rows, many=True).data)

    @extend_schema(request=PenaltyWriteSerializer, responses={201: PenaltySerializer, **STATE_CONFLICT})
    def post(self, request, pk: str):
        """A judge gives a registered player a warning, a points penalty (off this event's standings only)
        or a game loss (their table corrected with them placed last; ratings follow)."""
        data = PenaltyWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = _visible(request, pk)
        values = data.validated_data
        penalty = floor.penalty_give(
            tournament=tournament,
            by=request.user,
            player_id=values["player"],
            infraction=values["infraction"],
            kind=values["kind"],
            points=values["points"],
            note=values["note"],
            round_number=values["round"],
        )
        row = next(
            row for row in floor_selectors.penalties_of(tournament, penalty.player_id) if row.id == penalty.pk
        )
        return Response(PenaltySerializer(row).data, status=status.HTTP_201_CREATED)


class PenaltyTypes(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: PenaltyTypesSerializer})
    def get(self, request, pk: str):
        """The tournament's penalty types, in order (judges and organizers)."""
        tournament = _judged(request, pk)
        return Response({"names": floor_selectors.penalty_types_of(tournament)})

    @extend_schema(request=PenaltyTypesSerializer, responses={200: PenaltyTypesSerializer})
    def put(self, request, pk: str):
        """Replace the list (1 to 20 names; organizers only)."""
        data = PenaltyTypesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = _visible(request, pk)
        names = floor.penalty_types_set(
            tournament=tournament, by=request.user, names=data.validated_data["names"]
        )
        return Response({"names": names})
