"""REST endpoints of a signed-in user's own things: my page (`/api/me/`), creating my player, a new API token,
claim links.

Every endpoint here needs a user (a token or a session; anonymous requests get 401) and acts only on that
user's own account: there is no id of another user to name. Issuing a claim link is for site staff and the
organizers of a tournament the player is registered in (403 otherwise). The same services and messages as
the pages (`league.accounts`).
"""

from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from league.accounts import selectors, services
from league.api.errors import ERROR
from league.api.serializers import PlayerSerializer
from league.core.errors import Forbidden

CONFLICT = {
    409: OpenApiResponse(
        ERROR,
        description="The state refuses it (`conflict`): the link was used or expired, the player or my "
        "account has its player already",
    )
}


class SeatMateSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="From 1; seat 1 starts")
    name = serializers.CharField()
    slug = serializers.CharField()


class NextTableSerializer(serializers.Serializer):
    tournament = serializers.CharField(source="tournament_slug", help_text="The tournament's slug")
    tournament_name = serializers.CharField()
    round = serializers.IntegerField()
    table = serializers.IntegerField(help_text="The table's number in its round, from 1")
    label = serializers.CharField(  # type: ignore[assignment]  # a field named label: stubs see Field.label
        help_text="The bracket match it plays (R1-1, GF), or empty"
    )
    seat = serializers.IntegerField(help_text="My seat, from 1; seat 1 starts")
    match = serializers.IntegerField(source="match_id")
    others = SeatMateSerializer(many=True, help_text="Who else sits at the table, in seat order")


class MyEventSerializer(serializers.Serializer):
    tournament = serializers.CharField(source="tournament_slug", help_text="The tournament's slug")
    tournament_name = serializers.CharField()
    game_id = serializers.CharField()
    status = serializers.CharField(help_text="The tournament's: draft, registration, running or finished")
    registration = serializers.CharField(help_text="My entry's: active, withdrawn, dropped or no_show")


class MyRatingSerializer(serializers.Serializer):
    game_id = serializers.CharField()
    conservative = serializers.FloatField(help_text="mu − 3σ, as on the leaderboards")
    uncertainty = serializers.FloatField(help_text="3σ: shown as ± next to the rating")
    matches = serializers.IntegerField()


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    email = serializers.CharField(help_text="My own email address (no other user's is ever in a response)")
    player = PlayerSerializer(allow_null=True, help_text="My player; null until I create or claim one")
    next_tables = NextTableSerializer(
        many=True,
        help_text="Tables awaiting a result in published rounds of running tournaments, oldest first",
    )
    events = MyEventSerializer(
        many=True, help_text="The tournaments my player is registered in, newest first"
    )
    ratings = MyRatingSerializer(many=True, help_text="My rating in each game's people pool")


class PlayerNameSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, trim_whitespace=False)


class ApiTokenRequestSerializer(serializers.Serializer):
    days = serializers.IntegerField(
        required=False, help_text="How long it lasts: 30, 90 or 365 days (API_TOKEN_DAYS); 90 when absent"
    )


class ApiTokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Shown once: send it as `Authorization: Token <token>`")
    expires_at = serializers.DateTimeField(help_text="From then on it answers 401 `token_expired`")


class ClaimIssueSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=2**62, help_text="The id of the player to claim")


class ClaimIssuedSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Shown once: only its hash is stored")
    url = serializers.CharField(help_text="The page that redeems it, for a person with a browser")
    player = PlayerSerializer()
    expires_at = serializers.DateTimeField()


class ClaimRedeemSerializer(serializers.Serializer):
    token = serializers.CharField(max_length=200, help_text="The claim link's token")


class MeView(APIView):
    """My page as JSON: my account, my player, my next tables, my events and my ratings."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=MeSerializer)
    def get(self, request):
        page = selectors.my_page(request.user)
        body = {
            "username": request.user.get_username(),
            "email": request.user.email,
            "player": page.player,
            "next_tables": page.next_tables,
            "events": page.events,
            "ratings": page.ratings,
        }
        return Response(MeSerializer(body).data)


class MyPlayerView(APIView):
    """Create my player (an account owns at most one; 409 when mine exists)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=PlayerNameSerializer, responses={201: PlayerSerializer, **CONFLICT})
    def post(self, request):
        data = PlayerNameSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.my_player_create(user=request.user, name=data.validated_data["name"])
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class MyTokenView(APIView):
    """Make me a new API token, replacing the one I had (which stops working at once); it lasts the days asked
    for (30, 90 or 365; default 90). The key is in this answer only. It needs a logged-in session (with its
    CSRF token); a token gets 403, as a token cannot renew itself: a leaked one ends at its expiry."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=ApiTokenRequestSerializer, responses={201: ApiTokenSerializer})
    def post(self, request):
        data = ApiTokenRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if not isinstance(request.successful_authenticator, SessionAuthentication):
            raise Forbidden("a token cannot make a new token: log in, and make it on your page (/me/)")
        issued = services.api_token_create(user=request.user, days=data.validated_data.get("days"))
        body = {"token": issued.key, "expires_at": issued.expires_at}
        return Response(ApiTokenSerializer(body).data, status=status.HTTP_201_CREATED)


class ClaimIssueView(APIView):
    """Issue a claim link for an unclaimed person-player: site staff, or an organizer of a tournament the
    player is registered in. The token is in this answer only."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=ClaimIssueSerializer, responses={201: ClaimIssuedSerializer, **CONFLICT})
    def post(self, request):
        data = ClaimIssueSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        issued = services.claim_link_issue(by=request.user, player_id=data.validated_data["player"])
        url = request.build_absolute_uri(reverse("accounts:claim", kwargs={"token": issued.token}))
        body = {
            "token": issued.token,
            "url": url,
            "player": issued.link.player,
            "expires_at": issued.link.expires_at,
        }
        return Response(ClaimIssuedSerializer(body).data, status=status.HTTP_201_CREATED)


class ClaimRedeemView(APIView):
    """Redeem a claim link: its player becomes mine. Refused (409) when the link was used or expired, when I
    have a player already, or when the player belongs to an account; claims never merge two players."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=ClaimRedeemSerializer, responses={200: PlayerSerializer, **CONFLICT})
    def post(self, request):
        data = ClaimRedeemSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.claim_redeem(user=request.user, token=data.validated_data["token"])
        return Response(PlayerSerializer(player).data)
