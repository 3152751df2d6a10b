"""REST endpoints for ladders and challenges: thin adapters over `league.bots.services.ladders`,
`league.bots.services.challenges` and the bots' selectors.

- `/api/ladders/`: anyone reads ladders and their standings; staff create them; a bot's owner (or staff)
  enters it (`entries/`) or withdraws it (`leave/`).
- `/api/challenges/`: a signed-in user lists their own challenges (staff: everyone's), creates one for a
  bot of theirs, and reads its matches and results; another user's challenge is 403.
"""

from typing import cast

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import SAFE_METHODS, BasePermission, IsAuthenticated
from rest_framework.response import Response

from league.api.bots import LeagueMatchSerializer, StandingSerializer
from league.api.errors import ERROR
from league.api.limits import whole_limits
from league.bots import selectors
from league.bots.models import BotDefinition, BotLeague, Challenge, ChallengeMatch, LadderEvent
from league.bots.services import challenges, ladders
from league.bots.services.leagues import SETTING_BOUNDS
from league.core.errors import Forbidden


class SignedInWritesOthersRead(BasePermission):
    """Reads are public; a write needs a signed-in user (the service checks what that user may do)."""

    message = "sign in to do this"

    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or bool(request.user and request.user.is_authenticated)


class LadderSerializer(serializers.ModelSerializer):
    played = serializers.SerializerMethodField()

    class Meta:
        model = BotLeague
        fields = [
            "id",
            "name",
            "game_id",
            "options",
            "table_size",
            "seed",
            "sittings_per_round",
            "newcomer_matches",
            "withdraw_after_forfeits",
            "pace",
            "interval_seconds",
            "status",
            "rating_pool",
            "current_round",
            "played",
            "created_at",
            "started_at",
        ]
        read_only_fields = fields

    def get_played(self, ladder) -> int:
        return ladder.fixtures.filter(done=True).count()


class LadderCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    game = serializers.CharField(max_length=40)
    table_size = serializers.IntegerField(**whole_limits(SETTING_BOUNDS["table_size"]))
    seed = serializers.IntegerField(default=1, **whole_limits(SETTING_BOUNDS["seed"]))
    options = serializers.DictField(default=dict)
    sittings_per_round = serializers.IntegerField(
        default=2, **whole_limits(SETTING_BOUNDS["sittings_per_round"])
    )
    newcomer_matches = serializers.IntegerField(default=20, **whole_limits(ladders.NEWCOMER_MATCHES))
    withdraw_after_forfeits = serializers.IntegerField(
        default=5, **whole_limits(ladders.WITHDRAW_AFTER_FORFEITS)
    )
    pace = serializers.CharField(default=BotLeague.Pace.FAST, max_length=20)
    interval_seconds = serializers.IntegerField(
        default=60, **whole_limits(SETTING_BOUNDS["interval_seconds"])
    )


class LadderBotSerializer(serializers.Serializer):
    bot = serializers.IntegerField(min_value=1, max_value=2**63 - 1)


class LadderEventSerializer(serializers.ModelSerializer):
    label = serializers.CharField(  # type: ignore[assignment]  # a field named label: stubs see Field.label
        source="bot.label", read_only=True
    )

    class Meta:
        model = LadderEvent
        fields = ["seq", "position", "action", "bot", "label", "reason", "at"]
        read_only_fields = fields


class LadderStandingsSerializer(serializers.Serializer):
    current = StandingSerializer(many=True)
    retired = StandingSerializer(many=True)


class LadderViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Ladders: leagues that never end, whose bots enter and leave (docs/bot-leagues.md)."""

    queryset = BotLeague.objects.filter(kind=BotLeague.Kind.LADDER).order_by("-created_at", "-id")
    serializer_class = LadderSerializer
    permission_classes = [SignedInWritesOthersRead]

    @extend_schema(request=LadderCreateSerializer, responses={201: LadderSerializer})
    def create(self, request):
        """Create a ladder in draft (staff); start it with /api/bot-leagues/{id}/start/."""
        data = LadderCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        ladder = ladders.ladder_create(
            name=values.pop("name"), game_id=values.pop("game"), by=request.user, **values
        )
        return Response(LadderSerializer(ladder).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=LadderStandingsSerializer)
    @action(detail=True, methods=["get"], pagination_class=None)
    def standings(self, request, pk=None):
        """The bots in the ladder ranked by conservative rating, and the versions that left (retired)."""
        standings = selectors.ladder_standings(self.get_object())
        return Response(
            LadderStandingsSerializer({"current": standings.current, "retired": standings.retired}).data
        )

    @extend_schema(responses=LadderEventSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def log(self, request, pk=None):
        """The entry log: who entered or left, at which schedule position (with the seed, it decides the
        whole schedule)."""
        events = LadderEvent.objects.filter(league=self.get_object()).select_related("bot").order_by("seq")
        return Response(LadderEventSerializer(events, many=True).data)

    @extend_schema(request=LadderBotSerializer, responses={201: LadderEventSerializer})
    @action(detail=True, methods=["post"])
    def entries(self, request, pk=None):
        """Enter a bot (its owner or staff) at the next round; an earlier version of it there retires."""
        data = LadderBotSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        event = ladders.ladder_enter(
            ladder_id=self.get_object().pk, bot_id=data.validated_data["bot"], by=request.user
        )
        return Response(LadderEventSerializer(event).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=LadderBotSerializer, responses={200: LadderEventSerializer})
    @action(detail=True, methods=["post"])
    def leave(self, request, pk=None):
        """Withdraw a bot (its owner or staff) at the next round; its history stays."""
        data = LadderBotSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        event = ladders.ladder_leave(
            ladder_id=self.get_object().pk, bot_id=data.validated_data["bot"], by=request.user
        )
        return Response(LadderEventSerializer(event).data)

    @extend_schema(
        request=LadderBotSerializer, responses={201: LadderEventSerializer, 400: ERROR, 403: ERROR}
    )
    @action(detail=True, methods=["post"])
    def activate(self, request, pk=None):
        """Make one version of your bot active in the ladder from the next round (its owner or staff),
        beside its other active versions (none retires); a version that left comes back with its history.
        An entry-log event."""
        data = LadderBotSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        event = ladders.ladder_version_activate(
            ladder_id=self.get_object().pk, bot_id=data.validated_data["bot"], by=request.user
        )
        return Response(LadderEventSerializer(event).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=LadderBotSerializer, responses={200: LadderEventSerializer, 400: ERROR, 403: ERROR}
    )
    @action(detail=True, methods=["post"])
    def deactivate(self, request, pk=None):
        """Make one version of your bot inactive in the ladder from the next round (its owner or staff); its
        other versions stay as they are. An entry-log event."""
        data = LadderBotSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        event = ladders.ladder_version_deactivate(
            ladder_id=self.get_object().pk, bot_id=data.validated_data["bot"], by=request.user
        )
        return Response(LadderEventSerializer(event).data)

    @extend_schema(responses=LeagueMatchSerializer(many=True))
    @action(detail=True, methods=["get"])
    def matches(self, request, pk=None):
        """The ladder's schedule so far, in order, with seats and places."""
        page = self.paginate_queryset(selectors.league_schedule(self.get_object()))
        return self.get_paginated_response(LeagueMatchSerializer(page, many=True).data)


class ChallengeLineSerializer(serializers.Serializer):
    bot = serializers.IntegerField(source="bot.pk")
    label = serializers.CharField(  # type: ignore[assignment]  # a field named label: stubs see Field.label
        source="bot.label"
    )
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_share = serializers.FloatField(allow_null=True)
    mean_place = serializers.FloatField(allow_null=True)


class PlayedGameSerializer(serializers.ModelSerializer):
    """The fields every unrated game of an owner shows (a challenge's, a version test's): its match's status,
    why it is void, its seats with places, its replay. Subclasses name the model and the fields."""

    status = serializers.CharField(source="match.status")
    void_reason = serializers.CharField(read_only=True, help_text='Why its match is void ("" if it is not).')
    seats = serializers.SerializerMethodField()
    replay = serializers.SerializerMethodField()

    def get_seats(self, game) -> list[dict]:
        return [
            {"seat": seat.seat, "player": seat.player_id, "name": seat.player.name, "place": seat.place}
            for seat in sorted(game.match.seats.all(), key=lambda seat: seat.seat)
        ]

    def get_replay(self, game) -> str:
        return f"/bots/matches/{game.match_id}/replay/"


class ChallengeMatchSerializer(PlayedGameSerializer):
    class Meta:
        model = ChallengeMatch
        fields = ["index", "match", "seed", "status", "void_reason", "seats", "replay", "leases_lost"]
        read_only_fields = fields


class ChallengeSerializer(serializers.ModelSerializer):
    opponents: serializers.PrimaryKeyRelatedField[BotDefinition] = serializers.PrimaryKeyRelatedField(
        many=True, read_only=True
    )
    played = serializers.SerializerMethodField()

    class Meta:
        model = Challenge
        fields = [
            "id",
            "challenger",
            "bot",
            "opponents",
            "game_id",
            "match_count",
            "seed",
            "status",
            "played",
            "created_at",
            "finished_at",
        ]
        read_only_fields = fields

    def get_played(self, challenge) -> int:
        return challenge.games.filter(done=True).count()


class ChallengeDetailSerializer(ChallengeSerializer):
    results = serializers.SerializerMethodField()
    matches = serializers.SerializerMethodField()

    class Meta(ChallengeSerializer.Meta):
        fields = [*ChallengeSerializer.Meta.fields, "results", "matches"]
        read_only_fields = fields

    @extend_schema_field(ChallengeLineSerializer(many=True))
    def get_results(self, challenge) -> list[dict]:
        # many=True makes a ListSerializer, whose data is a list; the stubs type every serializer's as a dict.
        return cast(
            list[dict], ChallengeLineSerializer(selectors.challenge_summary(challenge), many=True).data
        )

    @extend_schema_field(ChallengeMatchSerializer(many=True))
    def get_matches(self, challenge) -> list[dict]:
        # many=True: a list (see get_results).
        return cast(
            list[dict], ChallengeMatchSerializer(selectors.challenge_games(challenge), many=True).data
        )


class ChallengeCreateSerializer(serializers.Serializer):
    bot = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
    opponents = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1), max_length=challenges.MAX_OPPONENTS
    )
    matches = serializers.IntegerField(**whole_limits(challenges.MATCHES))
    seed = serializers.IntegerField(required=False, **whole_limits(challenges.SEED))


class ChallengeViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Challenges: your bot against chosen bots for N unrated matches (at most 100), played behind ladder
    work; at most 3 unfinished at once. Yours to see (and staff's)."""

    serializer_class = ChallengeSerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Challenge.objects.none()
        challenges_all = Challenge.objects.prefetch_related("opponents").order_by("-created_at", "-id")
        if self.action == "list" and not self.request.user.is_staff:
            return challenges_all.filter(challenger=self.request.user)
        return challenges_all

    @extend_schema(responses={200: ChallengeDetailSerializer, 403: ERROR})
    def retrieve(self, request, pk=None):
        challenge = self.get_object()
        if not challenges.may_see(challenge, request.user):
            raise Forbidden("this challenge is its challenger's (and staff's) to see")
        return Response(ChallengeDetailSerializer(challenge).data)

    @extend_schema(request=ChallengeCreateSerializer, responses={201: ChallengeSerializer})
    def create(self, request):
        data = ChallengeCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        challenge = challenges.challenge_create(
            bot_id=values["bot"],
            opponent_ids=values["opponents"],
            matches=values["matches"],
            seed=values.get("seed"),
            by=request.user,
        )
        return Response(ChallengeSerializer(challenge).data, status=status.HTTP_201_CREATED)
