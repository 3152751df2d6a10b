"""REST endpoints for version tests ("is v2 better than v1?"): thin adapters over
`league.bots.services.version_tests` and its page selector.

- `/api/version-tests/`: a signed-in user lists their own tests (staff: everyone's), creates one for two
  versions of a bot of theirs, and reads its verdict, LLR and bounds, pentanomial counts and matches; another
  user's test is 403.
"""

from typing import cast

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from league.api.errors import ERROR
from league.api.ladders import PlayedGameSerializer
from league.api.limits import whole_limits
from league.bots import sprt
from league.bots.models import BotDefinition, VersionTest, VersionTestMatch
from league.bots.services import version_tests
from league.bots.version_test_pages import version_test_games
from league.core.errors import Forbidden


class VersionTestMatchSerializer(PlayedGameSerializer):
    class Meta:
        model = VersionTestMatch
        fields = ["pair", "game", "match", "seed", "status", "void_reason", "seats", "replay"]
        read_only_fields = fields


class VersionTestSerializer(serializers.ModelSerializer):
    opponents: serializers.PrimaryKeyRelatedField[BotDefinition] = serializers.PrimaryKeyRelatedField(
        many=True, read_only=True
    )
    counts = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Pairs that scored 0, 0.25, 0.5, 0.75 and 1 for v2 (the pentanomial).",
    )
    pairs = serializers.SerializerMethodField(help_text="Pairs counted.")
    lower_bound = serializers.SerializerMethodField(help_text="At or below it: not better.")
    upper_bound = serializers.SerializerMethodField(help_text="At or above it: better.")

    class Meta:
        model = VersionTest
        fields = [
            "id",
            "author",
            "game_id",
            "v1",
            "v2",
            "opponents",
            "seed",
            "elo0",
            "elo1",
            "alpha",
            "beta",
            "max_pairs",
            "state",
            "verdict",
            "llr",
            "lower_bound",
            "upper_bound",
            "counts",
            "pairs",
            "pairs_void",
            "created_at",
            "finished_at",
        ]
        read_only_fields = fields

    def get_pairs(self, test) -> int:
        return sum(test.counts)

    def get_lower_bound(self, test) -> float:
        return sprt.bounds(test.alpha, test.beta).lower

    def get_upper_bound(self, test) -> float:
        return sprt.bounds(test.alpha, test.beta).upper


class VersionTestDetailSerializer(VersionTestSerializer):
    matches = serializers.SerializerMethodField()

    class Meta(VersionTestSerializer.Meta):
        fields = [*VersionTestSerializer.Meta.fields, "matches"]
        read_only_fields = fields

    @extend_schema_field(VersionTestMatchSerializer(many=True))
    def get_matches(self, test) -> list[dict]:
        # many=True makes a ListSerializer, whose data is a list; the stubs type every serializer's as a dict.
        return cast(list[dict], VersionTestMatchSerializer(version_test_games(test), many=True).data)


class VersionTestCreateSerializer(serializers.Serializer):
    v1 = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="The version to beat.")
    v2 = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="The candidate.")
    elo0 = serializers.FloatField(
        default=sprt.ELO0, min_value=version_tests.ELO.low, max_value=version_tests.ELO.high
    )
    elo1 = serializers.FloatField(
        default=sprt.ELO1, min_value=version_tests.ELO.low, max_value=version_tests.ELO.high
    )
    alpha = serializers.FloatField(
        default=sprt.ALPHA, min_value=version_tests.ERROR_RATE.low, max_value=version_tests.ERROR_RATE.high
    )
    beta = serializers.FloatField(
        default=sprt.BETA, min_value=version_tests.ERROR_RATE.low, max_value=version_tests.ERROR_RATE.high
    )
    max_pairs = serializers.IntegerField(default=sprt.MAX_PAIRS, **whole_limits(version_tests.PAIRS))
    seed = serializers.IntegerField(required=False, **whole_limits(version_tests.SEED))


class VersionTestViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Version tests: is v2 of your bot better than v1? Pairs of unrated matches against the game's heuristic
    bots until a sequential test (GSPRT, pentanomial) says "better" or "not better", or 2,000 pairs pass. A
    running test counts as one of your 3 open challenges. Yours to see (and staff's)."""

    serializer_class = VersionTestSerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return VersionTest.objects.none()
        tests = VersionTest.objects.prefetch_related("opponents").order_by("-created_at", "-id")
        if self.action == "list" and not self.request.user.is_staff:
            return tests.filter(author=self.request.user)
        return tests

    @extend_schema(responses={200: VersionTestDetailSerializer, 403: ERROR})
    def retrieve(self, request, pk=None):
        test = self.get_object()
        if not version_tests.may_see(test, request.user):
            raise Forbidden("this version test is its author's (and staff's) to see")
        return Response(VersionTestDetailSerializer(test).data)

    @extend_schema(
        request=VersionTestCreateSerializer, responses={201: VersionTestSerializer, 400: ERROR, 403: ERROR}
    )
    def create(self, request):
        data = VersionTestCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        test = version_tests.version_test_create(
            v1_id=values["v1"],
            v2_id=values["v2"],
            elo0=values["elo0"],
            elo1=values["elo1"],
            alpha=values["alpha"],
            beta=values["beta"],
            max_pairs=values["max_pairs"],
            seed=values.get("seed"),
            by=request.user,
        )
        return Response(VersionTestSerializer(test).data, status=status.HTTP_201_CREATED)
