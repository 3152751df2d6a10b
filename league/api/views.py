"""REST endpoints: thin adapters that parse input, call one service or selector, and serialize."""

from django.db.models import Prefetch
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.generics import get_object_or_404
from rest_framework.response import Response
from rest_framework.views import APIView

from league.api import filters
from league.api.errors import VERSION_CONFLICT
from league.api.serializers import (
    MatchCreateSerializer,
    MatchSerializer,
    PlayerCreateSerializer,
    PlayerSerializer,
    PlayerUpdateSerializer,
    PredictionSerializer,
    RatingHistorySerializer,
    RatingPoolSerializer,
    RatingSerializer,
    ResultSubmitSerializer,
    ResultVersionSerializer,
)
from league.core.catalogue import game_specs
from league.matches.models import Match, MatchSeat
from league.matches.selectors import visible_to
from league.players.models import Player
from league.players.services import player_create, player_update
from league.ratings.models import Prediction, Rating, RatingHistory, RatingPool
from league.results.services import match_create, result_submit


class GameList(APIView):
    """The game catalogue: ids, names, player ranges and variant options."""

    pagination_class = None

    @extend_schema(responses=inline_serializer("Game", fields={"id": serializers.CharField()}, many=True))
    def get(self, request):
        return Response([spec.describe() for spec in game_specs()])


class PlayerViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Players. Staff create and rename them or change their active flag."""

    queryset = Player.objects.order_by("name")
    serializer_class = PlayerSerializer
    filterset_class = filters.PlayerFilter
    ordering_fields = ["name", "created_at"]

    @extend_schema(request=PlayerCreateSerializer, responses={201: PlayerSerializer})
    def create(self, request):
        data = PlayerCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = player_create(name=data.validated_data["name"])
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=PlayerUpdateSerializer, responses={200: PlayerSerializer})
    def partial_update(self, request, pk=None):
        player = self.get_object()
        data = PlayerUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = player_update(player=player, **data.validated_data)
        return Response(PlayerSerializer(player).data)


class MatchViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Matches with their seats and the current outcome. Staff create them and submit results."""

    queryset = (
        Match.objects.select_related("verification")
        .prefetch_related(
            Prefetch("seats", queryset=MatchSeat.objects.select_related("player").order_by("seat"))
        )
        .order_by("-played_at", "-id")
    )
    serializer_class = MatchSerializer
    filterset_class = filters.MatchFilter
    ordering_fields = ["played_at", "id"]

    def get_queryset(self):
        """The matches the user may see: a private match (a challenge's) does not exist for the others."""
        return visible_to(super().get_queryset(), self.request.user)

    @extend_schema(request=MatchCreateSerializer, responses={201: MatchSerializer})
    def create(self, request):
        data = MatchCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        match = match_create(
            game_id=values["game"],
            player_ids=values["players"],
            options=values["options"],
            rated=values["rated"],
            played_at=values["played_at"],
            created_by=request.user,
        )
        return Response(
            MatchSerializer(self.get_queryset().get(pk=match.pk)).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(methods=["GET"], responses=ResultVersionSerializer(many=True))
    @extend_schema(
        methods=["POST"],
        request=ResultSubmitSerializer,
        responses={
            201: ResultVersionSerializer,
            409: OpenApiResponse(
                VERSION_CONFLICT,
                description="Someone was first (`version_conflict`, with `current_version`), or the match "
                "belongs to a tournament table, a bot league or a challenge (`conflict`, naming where its "
                "result goes)",
            ),
        },
        description="Submit the next result version. `expected_version` is the version being corrected "
        "(0 for the first result); a stale one answers 409 with `current_version`. A match owned by a "
        "tournament table, a bot league or a challenge answers 409 naming where its result goes.",
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def results(self, request, pk=None):
        match = get_object_or_404(self.get_queryset(), pk=pk)  # DRF's: a non-numeric id is a 404 too
        if request.method == "GET":
            versions = match.result_versions.select_related("entered_by").order_by("-version")
            return Response(ResultVersionSerializer(versions, many=True).data)
        data = ResultSubmitSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        version = result_submit(match_id=match.pk, entered_by=request.user, **data.validated_data)
        return Response(ResultVersionSerializer(version).data, status=status.HTTP_201_CREATED)


class RatingViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Ratings per pool, best conservative rating (mu − 3σ) first."""

    queryset = Rating.objects.select_related("player", "pool").order_by(
        "pool_id", "-conservative", "player__name"
    )
    serializer_class = RatingSerializer
    filterset_class = filters.RatingFilter
    ordering_fields = ["conservative", "mu", "sigma", "matches"]


class PredictionViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Each seat's chances before its match (P(first), expected place), stored when the table was set and
    never changed; filter by match, pool or player."""

    queryset = Prediction.objects.order_by("match_id", "seat")
    serializer_class = PredictionSerializer
    filterset_class = filters.PredictionFilter
    ordering_fields = ["p_first", "expected_place", "created_at"]


class RatingPoolViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Rating pools with their calibration: how well their stored chances predicted the results."""

    queryset = RatingPool.objects.select_related("calibration", "settled_fit").order_by("id")
    serializer_class = RatingPoolSerializer
    filterset_class = filters.RatingPoolFilter


class RatingHistoryViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """A history row per player per rated match, in each pool's order."""

    queryset = RatingHistory.objects.select_related("match").order_by(
        "pool_id", "match__played_at", "match_id"
    )
    serializer_class = RatingHistorySerializer
    filterset_class = filters.RatingHistoryFilter
