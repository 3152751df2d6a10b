"""REST endpoints of registrations' private links and the venue's declared address (organizers only; the
same services and messages as the organizers' page, `league.web.tournaments.private_links`).

- `GET /api/tournaments/{id}/private-links/`: every registration's link state (never a token).
- `POST /api/tournaments/{id}/private-links/{player_id}/`: issue the player's link, or reissue it (the old
  token stops working at once); the token and the link's address are in this answer only.
- `DELETE /api/tournaments/{id}/private-links/{player_id}/`: revoke it (reissuing makes a new one).
- `GET`/`PUT /api/tournaments/{id}/venue-address/`: the address the venue's phones share on the event day;
  from it the per-address limits count per account and per private link instead.
"""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from league.core.throttling import client_address
from league.tournaments import link_selectors, selectors, services
from league.tournaments.errors import NotOrganizer
from league.tournaments.models import PrivateLink, Tournament


class PrivateLinkSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="registration.player_id", help_text="The player's id")
    name = serializers.CharField(source="registration.player.name")
    issued_at = serializers.DateTimeField(help_text="When the current token was issued")
    revoked_at = serializers.DateTimeField(allow_null=True, help_text="Set: the link no longer works")
    email = serializers.SerializerMethodField(help_text="Whether the holder left an email address")

    def get_email(self, link: PrivateLink) -> bool:
        return bool(link.email)


class PrivateLinkIssuedSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    token = serializers.CharField(help_text="128 random bits; shown in this answer only, stored hashed")
    url = serializers.CharField(help_text="The holder's page: hand it to the player alone")
    issued_at = serializers.DateTimeField()
    reissued = serializers.BooleanField(help_text="True: an earlier token of this player no longer works")
    works_until = serializers.DateTimeField(
        allow_null=True, help_text="When it stops working; null until the event ends (then a week after)"
    )


class VenueAddressSerializer(serializers.Serializer):
    venue_address = serializers.IPAddressField(
        allow_null=True, required=False, help_text="The address the venue's phones share; null: none"
    )
    venue_day = serializers.DateField(
        allow_null=True, required=False, help_text="The event day (the tournament's zone) it holds"
    )
    venue_approved = serializers.SerializerMethodField(
        help_text="True once site staff approved the address: only then do the limits per address lift there"
    )

    def get_venue_approved(self, tournament) -> bool:
        return getattr(tournament, "venue_approved_at", None) is not None


def _tournament(request, pk: str) -> Tournament:
    """The tournament `pk` if the user organizes it: 404 when they cannot see it, 403 when they do not run
    it."""
    tournament = get_object_or_404(selectors.tournament_list(user=request.user), pk=pk)
    if not selectors.is_organizer(request.user, tournament):
        raise NotOrganizer()
    return tournament


class PrivateLinkList(APIView):
    """The tournament's private links (organizers): one row per registration that has one."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: PrivateLinkSerializer(many=True)})
    def get(self, request, pk: str):
        tournament = _tournament(request, pk)
        links = (
            PrivateLink.objects.filter(registration__tournament=tournament)
            .select_related("registration__player")
            .order_by("registration__player__name", "pk")
        )
        return Response(PrivateLinkSerializer(links, many=True).data)


class PrivateLinkDetail(APIView):
    """Issue (or reissue) and revoke one registration's private link (organizers)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={201: PrivateLinkIssuedSerializer})
    def post(self, request, pk: str, player_id: int):
        """Issue the player's private link, or reissue it: the earlier token stops working at once."""
        tournament = _tournament(request, pk)
        issued = services.private_link_issue(tournament=tournament, player_id=player_id, by=request.user)
        player = issued.link.registration.player
        body = {
            "player": player.pk,
            "name": player.name,
            "token": issued.token,
            "url": request.build_absolute_uri(reverse("private-link", args=[issued.token])),
            "issued_at": issued.link.issued_at,
            "reissued": issued.reissued,
            "works_until": link_selectors.links_work_until(tournament),
        }
        response = Response(PrivateLinkIssuedSerializer(body).data, status=status.HTTP_201_CREATED)
        response["Cache-Control"] = "no-store"
        return response

    @extend_schema(request=None, responses={200: PrivateLinkSerializer})
    def delete(self, request, pk: str, player_id: int):
        """Revoke the player's private link (404 when it has none); reissuing makes a new one."""
        tournament = _tournament(request, pk)
        link = services.private_link_revoke(tournament=tournament, player_id=player_id, by=request.user)
        return Response(PrivateLinkSerializer(link).data)


class VenueAddress(APIView):
    """The venue's declared address and its day (organizers): both set, or both null."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: VenueAddressSerializer})
    def get(self, request, pk: str):
        tournament = _tournament(request, pk)
        return Response(VenueAddressSerializer(tournament).data)

    @extend_schema(request=VenueAddressSerializer, responses={200: VenueAddressSerializer})
    def put(self, request, pk: str):
        tournament = _tournament(request, pk)
        data = VenueAddressSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = services.venue_address_set(
            tournament=tournament,
            by=request.user,
            address=data.validated_data.get("venue_address"),
            day=data.validated_data.get("venue_day"),
            client=client_address(request),
        )
        return Response(VenueAddressSerializer(tournament).data)
