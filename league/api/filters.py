"""Query filters of the list endpoints (django-filter)."""

import django_filters

from league.matches.models import Match
from league.players.models import Player
from league.ratings.models import Rating, RatingHistory


class PlayerFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Player
        fields = ["name", "kind", "active"]


class MatchFilter(django_filters.FilterSet):
    game = django_filters.CharFilter(field_name="game_id")
    player = django_filters.NumberFilter(field_name="seats__player", distinct=True)
    played_after = django_filters.IsoDateTimeFilter(field_name="played_at", lookup_expr="gte")
    played_before = django_filters.IsoDateTimeFilter(field_name="played_at", lookup_expr="lt")

    class Meta:
        model = Match
        fields = ["game", "status", "rated", "player", "played_after", "played_before"]


class RatingFilter(django_filters.FilterSet):
    game = django_filters.CharFilter(field_name="pool__game_id")
    kind = django_filters.ChoiceFilter(field_name="pool__kind", choices=(("people", "people"), ("bot_league", "bot_league")))

    class Meta:
        model = Rating
        fields = ["pool", "game", "kind", "player"]


class RatingHistoryFilter(django_filters.FilterSet):
    game = django_filters.CharFilter(field_name="pool__game_id")

    class Meta:
        model = RatingHistory
        fields = ["pool", "game", "player", "match"]
