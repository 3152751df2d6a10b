"""A tournament's bye requests: their serializers and the tournament's action that reads and writes them."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from league.api.limits import whole_limits
from league.api.tournaments.common import STATE_CONFLICT
from league.tournaments import selectors, services
from league.tournaments.models import ByeRequest


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


class ByeActions(viewsets.GenericViewSet):
    """A tournament's bye requests: listed, asked for and cancelled."""

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
