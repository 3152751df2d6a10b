"""REST endpoints of a signed-in user's notifications and webhooks (league.notifications; docs/webhooks.md).

Every endpoint needs a user (401 otherwise) and acts on that user's own rows only: another user's
notification ids are ignored when marking read, and another owner's webhook is a 404, as a missing one.
"""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from league.bots.models import BotLeague
from league.core.bidi import bare
from league.core.errors import UserError
from league.notifications import selectors, services, webhooks
from league.notifications.models import Event
from league.seasons.models import Season
from league.tournaments.models import Tournament


class NotificationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField(
        help_text="table_ready, confirm_result, table_disputed or tournament_finished"
    )
    text = serializers.SerializerMethodField(help_text="What happened, in a sentence")
    link = serializers.CharField(help_text="A path on this site")
    tournament = serializers.IntegerField(source="tournament_id", allow_null=True)
    table = serializers.IntegerField(source="table_id", allow_null=True)
    created_at = serializers.DateTimeField()
    read_at = serializers.DateTimeField(allow_null=True)

    def get_text(self, note) -> str:
        """The text without the Unicode isolates that keep its names apart in mails and pages."""
        return bare(note.text)


class MarkReadSerializer(serializers.Serializer):
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**62),
        required=False,
        max_length=services.MAX_IDS,
        help_text="The notifications to mark read (others' ids are ignored)",
    )
    all = serializers.BooleanField(required=False, default=False, help_text="Mark every unread one read")


class MarkedSerializer(serializers.Serializer):
    marked = serializers.IntegerField(help_text="How many were unread and are read now")
    unread = serializers.IntegerField(help_text="How many are still unread")


class WebhookSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField()
    tournament = serializers.IntegerField(source="tournament_id", allow_null=True)
    league = serializers.IntegerField(source="league_id", allow_null=True)
    season = serializers.IntegerField(source="season_id", allow_null=True)
    events = serializers.ListField(child=serializers.CharField())
    secret = serializers.CharField(help_text="Signs every delivery; only the owner sees it")
    created_at = serializers.DateTimeField()


class WebhookCreateSerializer(serializers.Serializer):
    url = serializers.CharField(max_length=500, help_text="http:// or https://")
    events = serializers.ListField(child=serializers.ChoiceField(choices=Event.values), max_length=10)
    tournament = serializers.IntegerField(min_value=1, max_value=2**62, required=False)
    league = serializers.IntegerField(
        min_value=1, max_value=2**62, required=False, help_text="A bot league (staff)"
    )
    season = serializers.IntegerField(
        min_value=1, max_value=2**62, required=False, help_text="A season (its club's organizers)"
    )


class AttemptSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    at = serializers.DateTimeField()
    duration_ms = serializers.IntegerField()
    status_code = serializers.IntegerField(allow_null=True)
    error = serializers.CharField()
    response_bytes = serializers.IntegerField()
    truncated = serializers.BooleanField()


class DeliverySerializer(serializers.Serializer):
    delivery_id = serializers.UUIDField()
    event = serializers.CharField()
    status = serializers.CharField(help_text="pending, delivered, failed or refused")
    created_at = serializers.DateTimeField()
    attempts = AttemptSerializer(many=True)


def page_of(item: type[serializers.Serializer], name: str) -> type[serializers.Serializer]:
    """The schema of a page of `item`s as PageNumberPagination answers (count, next, previous, results)."""
    return type(
        name,
        (serializers.Serializer,),
        {
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": item(many=True),
        },
    )


class NotificationList(APIView):
    """My notifications, newest first (paged)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="notifications_list",
        responses=page_of(NotificationSerializer, "PaginatedNotificationList"),
    )
    def get(self, request):
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(selectors.inbox(request.user), request, view=self)
        return paginator.get_paginated_response(NotificationSerializer(page, many=True).data)


class NotificationRead(APIView):
    """Mark my notifications read: `{"ids": [...]}` or `{"all": true}`."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=MarkReadSerializer, responses=MarkedSerializer)
    def post(self, request):
        data = MarkReadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if not data.validated_data["all"] and "ids" not in data.validated_data:
            raise UserError('give "ids" (a list) or "all": true', field="ids")
        marked = services.notifications_mark_read(
            user=request.user, ids=data.validated_data.get("ids"), every=data.validated_data["all"]
        )
        return Response({"marked": marked, "unread": selectors.unread_count(request.user)})


class WebhookList(APIView):
    """My webhooks; POST registers one for a tournament I organize (or, as staff, a bot league)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="webhooks_list", responses=page_of(WebhookSerializer, "PaginatedWebhookList"))
    def get(self, request):
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(selectors.webhooks_of(request.user), request, view=self)
        return paginator.get_paginated_response(WebhookSerializer(page, many=True).data)

    @extend_schema(request=WebhookCreateSerializer, responses={201: WebhookSerializer})
    def post(self, request):
        data = WebhookCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        if sum(name in values for name in ("tournament", "league", "season")) != 1:
            raise UserError('give "tournament", "league" or "season" (one of them)', field="tournament")
        tournament = league = season = None
        if "tournament" in values:
            tournament = Tournament.objects.filter(pk=values["tournament"]).first()
            if tournament is None:
                raise UserError(f"no tournament with id {values['tournament']}", field="tournament")
        elif "league" in values:
            league = BotLeague.objects.filter(pk=values["league"]).first()
            if league is None:
                raise UserError(f"no bot league with id {values['league']}", field="league")
        else:
            season = Season.objects.select_related("club").filter(pk=values["season"]).first()
            if season is None:
                raise UserError(f"no season with id {values['season']}", field="season")
        webhook = webhooks.webhook_create(
            by=request.user,
            url=values["url"],
            events=values["events"],
            tournament=tournament,
            league=league,
            season=season,
        )
        return Response(WebhookSerializer(webhook).data, status=status.HTTP_201_CREATED)


class WebhookDetail(APIView):
    """One of my webhooks (404 for another owner's); DELETE stops it."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=WebhookSerializer)
    def get(self, request, pk: int):
        return Response(WebhookSerializer(webhooks.owned_webhook(by=request.user, webhook_id=pk)).data)

    @extend_schema(responses={204: None})
    def delete(self, request, pk: int):
        webhooks.webhook_delete(by=request.user, webhook_id=pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookDeliveries(APIView):
    """The deliveries of one of my webhooks, newest first, each with every attempt (paged)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="webhooks_deliveries_list",
        responses=page_of(DeliverySerializer, "PaginatedDeliveryList"),
    )
    def get(self, request, pk: int):
        webhook = webhooks.owned_webhook(by=request.user, webhook_id=pk)
        queryset = selectors.deliveries_of(webhook)
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(queryset, request, view=self)
        return paginator.get_paginated_response(DeliverySerializer(page, many=True).data)
