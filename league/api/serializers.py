"""API shapes: output serializers per resource, and input serializers per write endpoint."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from league.matches.models import Match, MatchSeat, Verification
from league.players.models import Player
from league.ratings.models import Prediction, Rating, RatingHistory, RatingPool
from league.results.models import ResultVersion


class PlayerSerializer(serializers.ModelSerializer):
    # Slugs keep letters of any script ("lucía", "李雷"): no ASCII-only pattern in the schema.
    slug = serializers.CharField(read_only=True, help_text="Derived from the name; used in page URLs.")

    class Meta:
        model = Player
        fields = ["id", "name", "slug", "kind", "active", "created_at"]
        read_only_fields = fields


class PlayerCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, trim_whitespace=False)


class PlayerUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, required=False, trim_whitespace=False)
    active = serializers.BooleanField(required=False)


class SeatSerializer(serializers.ModelSerializer):
    player = PlayerSerializer(read_only=True)

    class Meta:
        model = MatchSeat
        fields = ["seat", "player", "place", "score"]
        read_only_fields = fields


class NotRemadeSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="0-based seat.")
    why = serializers.CharField(help_text="Why its decisions were checked for legality only.")


class VerificationSerializer(serializers.ModelSerializer):
    """The strict verification of a bot match's record (docs/engine.md): events and seats numbered from 0."""

    summary = serializers.CharField(
        read_only=True, help_text='"verified", "rejected: event N: ..." or "not verifiable: why".'
    )
    not_remade = NotRemadeSerializer(many=True, read_only=True)
    notes = serializers.ListField(child=serializers.CharField(), read_only=True)

    class Meta:
        model = Verification
        fields = ["status", "summary", "reason", "event", "seat", "not_remade", "notes", "checked_at"]
        read_only_fields = fields


class MatchSerializer(serializers.ModelSerializer):
    seats = SeatSerializer(many=True, read_only=True)
    verification = serializers.SerializerMethodField(
        help_text="The strict verification of the match's record; null for a match without one, or while "
        "it is pending."
    )

    @extend_schema_field(VerificationSerializer(allow_null=True))
    def get_verification(self, match: Match) -> dict | None:
        try:
            verification = match.verification
        except Verification.DoesNotExist:
            return None
        return VerificationSerializer(verification).data

    class Meta:
        model = Match
        fields = [
            "id",
            "game_id",
            "game_version",
            "options",
            "status",
            "rated",
            "rating_pool",
            "played_at",
            "result_version",
            "seats",
            "verification",
        ]
        read_only_fields = fields


class MatchCreateSerializer(serializers.Serializer):
    game = serializers.CharField(max_length=40)
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**62), min_length=1, max_length=20
    )
    options = serializers.DictField(required=False, default=dict)
    rated = serializers.BooleanField(required=False, default=True)
    played_at = serializers.DateTimeField(required=False, allow_null=True, default=None)


class ResultVersionSerializer(serializers.ModelSerializer):
    entered_by = serializers.SerializerMethodField()

    class Meta:
        model = ResultVersion
        fields = ["version", "void", "places", "scores", "entered_by", "entered_at", "reason"]
        read_only_fields = fields

    def get_entered_by(self, version: ResultVersion) -> str | None:
        """The username of whoever entered the version; null for the system (bot matches)."""
        return version.entered_by.get_username() if version.entered_by else None


class ResultSubmitSerializer(serializers.Serializer):
    expected_version = serializers.IntegerField(min_value=0, max_value=2**31 - 1)
    places = serializers.ListField(
        child=serializers.IntegerField(), required=False, allow_null=True, default=None
    )
    scores = serializers.ListField(
        child=serializers.IntegerField(), required=False, allow_null=True, default=None
    )
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class RatingSerializer(serializers.ModelSerializer):
    player = PlayerSerializer(read_only=True)
    game_id = serializers.CharField(source="pool.game_id", read_only=True)
    uncertainty = serializers.FloatField(read_only=True, help_text="3σ: shown as ± next to the rating")

    class Meta:
        model = Rating
        fields = ["pool", "game_id", "player", "conservative", "uncertainty", "mu", "sigma", "matches"]
        read_only_fields = fields


class RatingHistorySerializer(serializers.ModelSerializer):
    played_at = serializers.DateTimeField(source="match.played_at", read_only=True)

    class Meta:
        model = RatingHistory
        fields = [
            "pool",
            "match",
            "played_at",
            "player",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
        ]
        read_only_fields = fields


class PredictionSerializer(serializers.ModelSerializer):
    upset = serializers.SerializerMethodField()

    class Meta:
        model = Prediction
        fields = [
            "match",
            "pool",
            "seat",
            "seats",
            "player",
            "mu",
            "sigma",
            "p_first",
            "expected_place",
            "created_at",
            "upset",
        ]
        read_only_fields = fields

    def get_upset(self, prediction: Prediction) -> bool:
        """True when a win from this seat is an upset: P(first) under a third of 1/seats."""
        return prediction.long_shot


class RatingPoolSerializer(serializers.ModelSerializer):
    calibration = serializers.SerializerMethodField()
    settled = serializers.SerializerMethodField()

    class Meta:
        model = RatingPool
        fields = ["id", "name", "kind", "game_id", "model_name", "model_params", "calibration", "settled"]
        read_only_fields = fields

    def get_calibration(self, pool: RatingPool) -> dict | None:
        """The pool's calibration as its page shows it (null before the first): `matches`, `seats`, `bins`
        (low, high, count, mean_predicted, observed, ci_low, ci_high), `model`, `uniform` and `seat_share`
        (brier, log_loss), `favourite_won`, `upsets` (match, seat, seats, p_first), `computed_at`, `stale`."""
        calibration = getattr(pool, "calibration", None)
        if calibration is None:
            return None
        return {**calibration.summary, "computed_at": calibration.computed_at, "stale": calibration.stale}

    def get_settled(self, pool: RatingPool) -> dict | None:
        """The last nightly whole-history fit (null before the first): `matches`, `iterations`, `fitted_at`,
        and `comparison` (matches, days, `live` and `settled` brier and log_loss, `better`: settled, live or
        equal)."""
        fit = getattr(pool, "settled_fit", None)
        if fit is None:
            return None
        return {
            "matches": fit.matches,
            "iterations": fit.iterations,
            "fitted_at": fit.fitted_at,
            "comparison": fit.comparison,
        }
