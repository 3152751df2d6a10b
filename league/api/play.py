"""'Play this bot now' (`POST /api/bots/{id}/play/`): one of your ready bots of the bot's game against it, an
unrated challenge (`league.bots.services.play_now`): private as challenges are, at most 3 unfinished per user,
played in the challenges' share of the workers."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from league.api.errors import ERROR
from league.api.ladders import ChallengeSerializer
from league.api.limits import whole_limits
from league.bots.services import challenges
from league.bots.services.play_now import MATCHES_DEFAULT, play_now


class PlayNowSerializer(serializers.Serializer):
    bot = serializers.IntegerField(
        min_value=1, max_value=2**63 - 1, help_text="Your bot (a ready, latest version of the same game)."
    )
    matches = serializers.IntegerField(default=MATCHES_DEFAULT, **whole_limits(challenges.MATCHES))
    seed = serializers.IntegerField(required=False, **whole_limits(challenges.SEED))


class PlayNowView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="bots_play_create",
        request=PlayNowSerializer,
        responses={201: ChallengeSerializer, 400: ERROR, 404: ERROR},
        description="Play your bot `bot` against this bot now: a challenge of `matches` unrated matches "
        "(a game whose smallest table seats more than two fills it with its built-in bots). Refused (400, "
        "naming the field) for a bot that is not yours, plays another game, is not ready or has a newer "
        "version, and while you have 3 unfinished challenges.",
        tags=["bots"],
    )
    def post(self, request, pk: int):
        data = PlayNowSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        challenge = play_now(
            opponent_id=pk,
            bot_id=values["bot"],
            matches=values["matches"],
            seed=values.get("seed"),
            by=request.user,
        )
        return Response(ChallengeSerializer(challenge).data, status=status.HTTP_201_CREATED)
