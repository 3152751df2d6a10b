"""REST endpoints of clubs and seasons (read-only; the pages write): a club with its events and seasons, a
season with its rules and its table (each player's counted and dropped results, where the points came from).
Totals and points are decimal strings to the cent."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import mixins, serializers, viewsets

from league.seasons import selectors
from league.seasons.models import Club, Season


class ClubSerializer(serializers.ModelSerializer):
    events = serializers.SerializerMethodField()
    seasons = serializers.SerializerMethodField()

    class Meta:
        model = Club
        fields = ["id", "name", "slug", "events", "seasons"]
        read_only_fields = fields

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_events(self, club: Club) -> list[int]:
        """The ids of the club's events that are not drafts."""
        return list(selectors.club_events(club).values_list("pk", flat=True))

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_seasons(self, club: Club) -> list[int]:
        return list(club.seasons.values_list("pk", flat=True))


class ResultSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    event_name = serializers.CharField()
    place = serializers.IntegerField(allow_null=True)
    place_points = serializers.CharField()
    win_points = serializers.CharField()
    participation = serializers.CharField()
    multiplier = serializers.CharField()
    points = serializers.CharField()


class LineSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    total = serializers.DecimalField(max_digits=12, decimal_places=2, coerce_to_string=True)
    attended = serializers.IntegerField(help_text="Events where the player played at least one match")
    qualifies = serializers.BooleanField()
    counted = ResultSerializer(many=True)
    dropped = ResultSerializer(many=True)
    rating = serializers.FloatField(
        allow_null=True,
        help_text="The settled rating (Elo scale) where the season is ranked by it, else null",
    )
    sd = serializers.FloatField(
        allow_null=True, help_text="The settled rating's standard deviation (Elo scale)"
    )


class SeasonSerializer(serializers.ModelSerializer):
    club = serializers.IntegerField(source="club_id")
    events = serializers.SerializerMethodField()
    frozen = serializers.SerializerMethodField()
    table = serializers.SerializerMethodField()

    class Meta:
        model = Season
        fields = [
            "id",
            "name",
            "slug",
            "club",
            "place_points",
            "scale_by_field",
            "reference_size",
            "per_win",
            "participation",
            "best_of",
            "minimum_events",
            "qualify_top",
            "qualify_points",
            "tie_breaks",
            "rank_by",
            "frozen_at",
            "frozen",
            "events",
            "table",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.ListField(child=serializers.DictField()))
    def get_events(self, season: Season) -> list[dict]:
        """Each event with its multiplier and whether it has joined (an invited event has not yet)."""
        return [
            {
                "tournament": entry.tournament_id,
                "multiplier": str(entry.multiplier),
                "joined": entry.accepted_at is not None,
            }
            for entry in season.entries.order_by("tournament_id")
        ]

    @extend_schema_field(serializers.DictField())
    def get_frozen(self, season: Season) -> dict:
        """Whether the table is frozen, and the events whose results changed after the freeze."""
        table = self._table(season)
        return {"frozen": table.frozen, "changed_after_freeze": table.changed_after_freeze}

    def _table(self, season: Season) -> selectors.SeasonTable:
        """The season's table, computed once per answer (both fields read it)."""
        cache: dict[int, selectors.SeasonTable] = self.__dict__.setdefault("_tables", {})
        if season.pk not in cache:
            cache[season.pk] = selectors.season_table(season)
        return cache[season.pk]

    @extend_schema_field(LineSerializer(many=True))
    def get_table(self, season: Season) -> list[dict]:
        return list(LineSerializer(self._table(season).lines, many=True).data)


class ClubViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Clubs: their events and seasons."""

    queryset = Club.objects.order_by("id")
    serializer_class = ClubSerializer


class SeasonViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A season with its rules and its table as its page shows it."""

    queryset = Season.objects.select_related("club").order_by("id")
    serializer_class = SeasonSerializer
