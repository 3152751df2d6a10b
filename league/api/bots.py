"""REST endpoints for bots and bot leagues: thin adapters over `league.bots` services and selectors."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from league.api import filters
from league.api.errors import ERROR
from league.api.limits import number_limits, whole_limits
from league.bots import selectors, uploads
from league.bots.head_to_head import bot_head_to_head
from league.bots.ladder_versions import ladder_versions, line_of
from league.bots.models import BotDefinition, BotLeague, Fixture
from league.bots.services import definitions, leagues
from league.core.bodies import takes_body
from league.core.errors import ErrorCode, NotFound
from league.players.models import Player
from league.programs.models import Program, ProgramLog


class ProgramSerializer(serializers.ModelSerializer):
    files = serializers.ListField(
        child=serializers.ListField(child=serializers.JSONField()),
        help_text="Each file: [path, size, sha256].",
    )

    class Meta:
        model = Program
        fields = [
            "sha256",
            "size",
            "format",
            "entry",
            "manifest",
            "files",
            "extracted_bytes",
            "runtime",
            "runtime_version",
            "build_sha256",
            "created_at",
        ]
        read_only_fields = fields


class BotSerializer(serializers.ModelSerializer):
    player: serializers.PrimaryKeyRelatedField[Player] = serializers.PrimaryKeyRelatedField(read_only=True)
    label = serializers.CharField(  # type: ignore[assignment]  # a field named label: stubs see Field.label
        read_only=True
    )
    shown_name = serializers.CharField(
        source="player.name",
        read_only=True,
        help_text="How pages name this version: its label, and 'by <author>' where another author's bot has "
        "the same name.",
    )
    program = ProgramSerializer(read_only=True, allow_null=True, help_text="An uploaded program (else null).")
    refusal = serializers.SerializerMethodField(
        help_text="Why the check of uploads refused this version: its author and staff only (else empty)."
    )

    class Meta:
        model = BotDefinition
        fields = [
            "id",
            "name",
            "version",
            "label",
            "shown_name",
            "game_id",
            "kind",
            "strategy",
            "params",
            "command",
            "move_seconds",
            "cpu_seconds",
            "memory_mb",
            "time_bank_seconds",
            "description",
            "player",
            "previous",
            "program",
            "state",
            "refusal",
            "checked_at",
            "created_at",
        ]
        read_only_fields = fields
        extra_kwargs = {
            "state": {
                "help_text": "checking (an upload being compiled by a worker), validating (playing its "
                "validation matches), ready (it plays), refused (by the check) or failing (its validation)"
            }
        }

    def get_refusal(self, bot) -> str:
        request = self.context.get("request")
        return bot.refusal if request is not None and uploads.can_read_logs(request.user, bot) else ""


class BotUploadSerializer(serializers.Serializer):
    game = serializers.CharField(max_length=40)
    name = serializers.CharField(max_length=200, trim_whitespace=False)
    file = serializers.FileField(
        allow_empty_file=True,
        help_text="One Python, JavaScript or C file, or a zip or tar archive with bot.toml or manifest.json "
        "(docs/bot-leagues.md).",
    )
    runtime = serializers.ChoiceField(
        choices=["python", "node", "c"],
        required=False,
        allow_blank=True,
        default="",
        help_text="What runs it: python, node or c. Empty: the manifest's runtime, else the entry point's "
        "extension (one file alone: the file name's: .py, .js, .c).",
    )
    description = serializers.CharField(default="", allow_blank=True, max_length=5000)
    time_bank_seconds = serializers.FloatField(
        default=10.0,
        help_text="Seconds per match that answers over the move time draw on.",
        **number_limits(definitions.TIME_BANK_SECONDS),
    )


class ProgramLogSerializer(serializers.ModelSerializer):
    class Meta:
        model = ProgramLog
        fields = ["match", "seat", "forfeit", "detail", "output", "output_bytes", "bank", "created_at"]
        read_only_fields = fields


class HeadToHeadSerializer(serializers.Serializer):
    bot = serializers.IntegerField(
        source="bot_id", allow_null=True, help_text="The opponent bot version (null for a person)."
    )
    player = serializers.IntegerField(source="player_id", help_text="The opponent's player.")
    name = serializers.CharField(help_text="The opponent as pages name it.")
    games = serializers.IntegerField(help_text="Rated matches both finished.")
    ahead = serializers.IntegerField(help_text="Of those, how many this bot finished ahead of the opponent.")
    behind = serializers.IntegerField(help_text="... behind the opponent.")
    ties = serializers.IntegerField(help_text="... level with it (a shared place).")
    score = serializers.FloatField(help_text="(ahead + ties / 2) / games, from 0 to 1.")


class VersionStateSerializer(serializers.Serializer):
    bot = serializers.IntegerField(source="bot.pk")
    version = serializers.IntegerField(source="bot.version")
    label = serializers.CharField(  # type: ignore[assignment]  # a field named label: stubs see Field.label
        source="bot.label"
    )
    state = serializers.CharField(source="bot.state", help_text="Only a ready version may be activated.")
    active = serializers.BooleanField(help_text="Whether it plays in the ladder from its next round.")


class LadderVersionsSerializer(serializers.Serializer):
    ladder = serializers.IntegerField(source="ladder.pk")
    name = serializers.CharField(source="ladder.name")
    status = serializers.CharField(source="ladder.status")
    versions = VersionStateSerializer(many=True, help_text="Every version of the bot, newest first.")


class BotWriteSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, trim_whitespace=False)
    game = serializers.CharField(max_length=40)
    kind = serializers.CharField(max_length=20, default=BotDefinition.Kind.BUILTIN)
    strategy = serializers.CharField(max_length=40, default="", allow_blank=True)
    params = serializers.DictField(default=dict)
    command = serializers.ListField(
        child=serializers.CharField(max_length=1000), default=list, max_length=100
    )
    move_seconds = serializers.FloatField(default=1.0, **number_limits(definitions.MOVE_SECONDS))
    cpu_seconds = serializers.IntegerField(default=60, **whole_limits(definitions.CPU_SECONDS))
    memory_mb = serializers.IntegerField(default=512, **whole_limits(definitions.MEMORY_MB))
    time_bank_seconds = serializers.FloatField(
        default=10.0,
        help_text="External programs: seconds per match that answers over the move time draw on.",
        **number_limits(definitions.TIME_BANK_SECONDS),
    )
    description = serializers.CharField(default="", allow_blank=True, max_length=5000)


class BotReviseSerializer(serializers.Serializer):
    strategy = serializers.CharField(max_length=40, required=False)
    params = serializers.DictField(required=False)
    command = serializers.ListField(
        child=serializers.CharField(max_length=1000), required=False, max_length=100
    )
    move_seconds = serializers.FloatField(required=False, **number_limits(definitions.MOVE_SECONDS))
    cpu_seconds = serializers.IntegerField(required=False, **whole_limits(definitions.CPU_SECONDS))
    memory_mb = serializers.IntegerField(required=False, **whole_limits(definitions.MEMORY_MB))
    time_bank_seconds = serializers.FloatField(required=False, **number_limits(definitions.TIME_BANK_SECONDS))
    description = serializers.CharField(required=False, allow_blank=True, max_length=5000)


class BotViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Bots (one row per version). Staff register them; only staff may register external programs. A change
    to a bot that has taken a seat makes its next version."""

    queryset = (
        BotDefinition.objects.select_related("program", "player")
        .defer("program__content")
        .order_by("game_id", "name", "-version")
    )
    serializer_class = BotSerializer
    filterset_class = filters.BotFilter

    @extend_schema(
        request={"multipart/form-data": BotUploadSerializer},
        responses={201: BotSerializer, 409: ERROR},
        description="Upload a program (multipart): version 1 of a new bot, or the next version of one of "
        "your uploaded bots (by its name). Any signed-in user; refusals name the field and say why. The "
        "version answers in state `checking`: a worker compiles its modules, and it becomes `ready` or "
        "`refused` (with `refusal`, the reason). At most BOT_UPLOADS_PER_USER_HOUR uploads an hour (then "
        "429 `throttled`).",
    )
    @action(detail=False, methods=["post"], permission_classes=[IsAuthenticated])
    @takes_body(uploads.upload_body_limit)
    def upload(self, request):
        data = BotUploadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        bot = uploads.bot_upload(
            by=request.user,
            game_id=values["game"],
            name=values["name"],
            data=uploads.read_upload(values["file"]),
            description=values["description"],
            time_bank_seconds=values["time_bank_seconds"],
            filename=getattr(values["file"], "name", "") or "",
            runtime=values["runtime"],
        )
        return Response(BotSerializer(bot, context={"request": request}).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=BotSerializer(many=True), filters=False)
    @action(detail=False, methods=["get"], permission_classes=[IsAuthenticated], filterset_class=None)
    def mine(self, request):
        """Your bots, every version, newest version first within each bot."""
        bots = self.get_queryset().filter(created_by=request.user)
        page = self.paginate_queryset(bots)
        return self.get_paginated_response(BotSerializer(page, many=True, context={"request": request}).data)

    @extend_schema(responses={200: ProgramLogSerializer(many=True), 403: ERROR}, filters=False)
    @action(detail=True, methods=["get"], permission_classes=[IsAuthenticated], filterset_class=None)
    def logs(self, request, pk=None):
        """A bot version's program logs, newest match first: what it printed on standard error (the last 8 KB
        per match) and why it forfeited. Its author and staff only."""
        bot = self.get_object()
        if not uploads.can_read_logs(request.user, bot):
            raise PermissionDenied("only the bot's author and staff read its logs")
        page = self.paginate_queryset(selectors.bot_logs(bot))
        return self.get_paginated_response(ProgramLogSerializer(page, many=True).data)

    @extend_schema(responses=HeadToHeadSerializer(many=True), filters=False)
    @action(
        detail=True, methods=["get"], url_path="head-to-head", pagination_class=None, filterset_class=None
    )
    def head_to_head(self, request, pk=None):
        """This version's head-to-head record: each bot it shared a rated table with (most games together
        first), how often it finished ahead of it, behind it or level (a tie counts half in `score`)."""
        bot = self.get_object()
        return Response(HeadToHeadSerializer(bot_head_to_head(bot, viewer=request.user), many=True).data)

    @extend_schema(responses=LadderVersionsSerializer(many=True), filters=False)
    @action(
        detail=True, methods=["get"], url_path="ladder-versions", pagination_class=None, filterset_class=None
    )
    def ladder_versions(self, request, pk=None):
        """The ladders any version of this bot entered (newest ladder first), with each version and whether it
        is active there; its author changes that with /api/ladders/{id}/activate/ and /deactivate/."""
        bot = self.get_object()
        rows = ladder_versions(list(selectors.bot_versions(bot))).get(line_of(bot), [])
        return Response(LadderVersionsSerializer(rows, many=True).data)

    @extend_schema(request=BotWriteSerializer, responses={201: BotSerializer})
    def create(self, request):
        data = BotWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        bot = definitions.bot_register(
            name=values.pop("name"),
            description=values.pop("description"),
            game_id=values.pop("game"),
            by=request.user,
            **values,
        )
        return Response(BotSerializer(bot).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=BotReviseSerializer,
        responses={200: BotSerializer},
        description="Change a bot: in place while it never took a seat, else as a new version (returned).",
    )
    def partial_update(self, request, pk=None):
        bot = self.get_object()
        data = BotReviseSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        revised = definitions.bot_revise(bot=bot, by=request.user, **data.validated_data)
        return Response(BotSerializer(revised).data)


class LeagueSerializer(serializers.ModelSerializer):
    bots: serializers.PrimaryKeyRelatedField[BotDefinition] = serializers.PrimaryKeyRelatedField(
        many=True, read_only=True
    )
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
            "target_kind",
            "target_value",
            "sittings_per_round",
            "batch_size",
            "commit_every",
            "lease_seconds",
            "pace",
            "interval_seconds",
            "status",
            "rating_pool",
            "bots",
            "current_round",
            "played",
            "created_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields

    def get_played(self, league) -> int:
        return league.fixtures.filter(done=True).count()


class LeagueCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    game = serializers.CharField(max_length=40)
    bots = serializers.ListField(child=serializers.IntegerField(min_value=1), min_length=2, max_length=500)
    table_size = serializers.IntegerField(**whole_limits(leagues.SETTING_BOUNDS["table_size"]))
    target_kind = serializers.CharField(default=BotLeague.Target.ROUNDS)
    target_value = serializers.IntegerField(
        default=10, **whole_limits(leagues.SETTING_BOUNDS["target_value"])
    )
    seed = serializers.IntegerField(default=1, **whole_limits(leagues.SETTING_BOUNDS["seed"]))
    options = serializers.DictField(default=dict)
    sittings_per_round = serializers.IntegerField(
        default=4, **whole_limits(leagues.SETTING_BOUNDS["sittings_per_round"])
    )
    batch_size = serializers.IntegerField(default=50, **whole_limits(leagues.SETTING_BOUNDS["batch_size"]))
    commit_every = serializers.IntegerField(
        default=10, **whole_limits(leagues.SETTING_BOUNDS["commit_every"])
    )
    lease_seconds = serializers.IntegerField(
        default=30, **whole_limits(leagues.SETTING_BOUNDS["lease_seconds"])
    )
    pace = serializers.CharField(default=BotLeague.Pace.FAST)
    interval_seconds = serializers.IntegerField(
        default=60, **whole_limits(leagues.SETTING_BOUNDS["interval_seconds"])
    )


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    bot = serializers.IntegerField(source="bot.pk")
    label = serializers.CharField(  # type: ignore[assignment]  # a field named label: stubs see Field.label
        source="bot.label"
    )
    rating = serializers.FloatField(source="conservative", allow_null=True)
    mu = serializers.FloatField(allow_null=True)
    uncertainty = serializers.FloatField(allow_null=True)
    matches = serializers.IntegerField()
    mean_place = serializers.FloatField(allow_null=True)
    win_share = serializers.FloatField(allow_null=True)


class LeagueMatchSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number")
    status = serializers.CharField(source="match.status")
    void_reason = serializers.CharField(read_only=True, help_text='Why its match is void ("" if it is not).')
    seats = serializers.SerializerMethodField()

    class Meta:
        model = Fixture
        fields = [
            "position",
            "round",
            "match",
            "seed",
            "status",
            "void_reason",
            "seats",
            "attempts",
            "leases_lost",
        ]
        read_only_fields = fields

    def get_seats(self, fixture) -> list[dict]:
        return [
            {
                "seat": seat.seat,
                "player": seat.player_id,
                "name": seat.player.name,
                "place": seat.place,
                "score": seat.score,
            }
            for seat in fixture.match.seats.all()
        ]


class LeagueViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Bot leagues: staff create, start, pause and resume them; anyone reads standings, matches and
    records."""

    queryset = BotLeague.objects.prefetch_related("bots").order_by("-created_at", "-id")
    serializer_class = LeagueSerializer
    filterset_class = filters.LeagueFilter

    @extend_schema(request=LeagueCreateSerializer, responses={201: LeagueSerializer})
    def create(self, request):
        data = LeagueCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        league = leagues.league_create(
            name=values.pop("name"),
            game_id=values.pop("game"),
            bot_ids=values.pop("bots"),
            by=request.user,
            **values,
        )
        return Response(LeagueSerializer(league).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: LeagueSerializer})
    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        """Start a draft league or resume a paused one."""
        league = leagues.league_start(league_id=self.get_object().pk)
        return Response(LeagueSerializer(league).data)

    @extend_schema(request=None, responses={200: LeagueSerializer})
    @action(detail=True, methods=["post"])
    def pause(self, request, pk=None):
        league = leagues.league_pause(league_id=self.get_object().pk)
        return Response(LeagueSerializer(league).data)

    @extend_schema(responses=StandingSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def standings(self, request, pk=None):
        """Bots ranked by conservative rating, with mean place, share of wins and matches played."""
        return Response(StandingSerializer(selectors.league_standings(self.get_object()), many=True).data)

    @extend_schema(responses=LeagueMatchSerializer(many=True))
    @action(detail=True, methods=["get"])
    def matches(self, request, pk=None):
        """The league's schedule: every match drawn so far, in schedule order, with seats and places."""
        page = self.paginate_queryset(selectors.league_schedule(self.get_object()))
        return self.get_paginated_response(LeagueMatchSerializer(page, many=True).data)

    @extend_schema(
        responses={200: OpenApiResponse(description="The match record (docs/engine.md)")},
    )
    @action(detail=True, methods=["get"], url_path=r"matches/(?P<match_id>[0-9]+)/record")
    def record(self, request, pk=None, match_id=None):
        """One match's record: seed, seats, every event, the outcome and how it ended (forfeits named)."""
        fixture = get_object_or_404(
            Fixture.objects.select_related("match"), league=self.get_object(), match_id=match_id
        )
        record = fixture.match.record_json()
        if record is None:
            raise NotFound("this match has not been played yet", code=ErrorCode.NOT_PLAYED)
        return Response(record)
