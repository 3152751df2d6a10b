"""Query filters and ordering of the list endpoints (django-filter and DRF), strict about their values.

Every filter says so when its value makes no sense, never ignores it: a boolean takes true/false or 1/0,
a choice (a game, a status, a kind) one of its values, an id a whole number, a date and time ISO 8601 with a
UTC offset PostgreSQL can store; anything else answers 400 through the API's error handler, naming the
filter and what it accepts. An empty value is no filter. A well-formed id that matches nothing gives an
empty list, not an error. `?ordering=` takes only the fields each endpoint lists.

The strictness lives in `FilterSet` (the base of every filter set here, and of the ones DRF builds from a
view's `filterset_fields`) and in its filter classes, once.
"""

from __future__ import annotations

from datetime import UTC, timedelta

import django_filters
from django import forms
from django.db import models
from django_filters import fields as filter_fields
from django_filters.filterset import FILTER_FOR_DBFIELD_DEFAULTS
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework import filters as drf_filters

from league.bots.models import BotDefinition, BotLeague
from league.core.bounds import Bounds, whole_number
from league.core.catalogue import game_choices
from league.core.errors import UserError
from league.matches.models import Match
from league.players.models import Player
from league.ratings.models import Prediction, Rating, RatingHistory, RatingPool
from league.tournaments.models import Tournament

BOOLEAN_WORDS = {"true": True, "1": True, "false": False, "0": False}
MAX_UTC_OFFSET = timedelta(hours=16)  # PostgreSQL refuses offsets of ±16:00 and beyond
MAX_TEXT = 200
ID_RANGE = Bounds(-(2**63), 2**63 - 1)  # a 64-bit integer column's: an id outside names nothing


class BooleanField(forms.Field):
    def to_python(self, value):
        if value in self.empty_values:
            return None
        try:
            return BOOLEAN_WORDS[value.lower()]
        except KeyError:
            raise forms.ValidationError(f"true or false (or 1 or 0), not {value!r}", code="invalid") from None


class IntegerField(forms.Field):
    def to_python(self, value):
        if value in self.empty_values:
            return None
        number = whole_number(value)
        if not ID_RANGE.contains(number):
            raise forms.ValidationError(
                f"a whole number from {ID_RANGE.low} to {ID_RANGE.high}, not {value!r}", code="invalid"
            )
        return number


class ChoiceField(filter_fields.ChoiceField):
    def __init__(self, *args, choices=(), **kwargs):
        super().__init__(*args, choices=choices, **kwargs)
        values = ", ".join(str(value) for value, _label in choices)
        self.error_messages["invalid_choice"] = f"one of {values}, not '%(value)s'"


class DateTimeField(filter_fields.IsoDateTimeField):
    """An ISO 8601 date and time (without an offset: in UTC), given to the query in UTC."""

    default_error_messages = {"invalid": "a date and time in ISO 8601, e.g. 2026-01-31T18:00:00+01:00"}

    def to_python(self, value):
        moment = super().to_python(value)
        if moment is None:
            return None
        if abs(moment.utcoffset()) >= MAX_UTC_OFFSET:
            minutes = abs(moment.utcoffset()) // timedelta(minutes=1)
            offset = (
                f"{'-' if moment.utcoffset() < timedelta(0) else '+'}{minutes // 60:02d}:{minutes % 60:02d}"
            )
            raise forms.ValidationError(
                f"UTC offsets run from -15:59 to +15:59, not {offset}", code="invalid"
            )
        try:
            return moment.astimezone(UTC)
        except OverflowError:
            raise forms.ValidationError("a moment from year 1 to 9999 in UTC", code="invalid") from None


class TextFilter(django_filters.CharFilter):
    """Text of at most `MAX_TEXT` characters: no name is longer, and SQLite refuses a LIKE pattern of more
    than 50,000 bytes."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, max_length=MAX_TEXT, **kwargs)


class BooleanFilter(django_filters.BooleanFilter):
    field_class = BooleanField


class IdFilter(django_filters.NumberFilter):
    field_class = IntegerField


class ChoiceFilter(django_filters.ChoiceFilter):
    field_class = ChoiceField


class DateTimeFilter(django_filters.IsoDateTimeFilter):
    field_class = DateTimeField


class GameFilter(ChoiceFilter):
    """A game id of the registry."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, choices=game_choices(), **kwargs)


class FilterSet(django_filters.FilterSet):
    """The strict base of every filter set: a model's booleans, ids, dates and choices get the filters
    above, which refuse what makes no sense."""

    FILTER_DEFAULTS = {
        **FILTER_FOR_DBFIELD_DEFAULTS,
        models.CharField: {"filter_class": TextFilter},
        models.BooleanField: {"filter_class": BooleanFilter},
        models.IntegerField: {"filter_class": IdFilter},
        models.ForeignKey: {"filter_class": IdFilter},
        models.OneToOneField: {"filter_class": IdFilter},
        models.DateTimeField: {"filter_class": DateTimeFilter},
    }

    @classmethod
    def filter_for_lookup(cls, field, lookup_type):
        filter_class, params = super().filter_for_lookup(field, lookup_type)
        if filter_class is django_filters.ChoiceFilter:
            filter_class = ChoiceFilter
        return filter_class, params


class FilterBackend(DjangoFilterBackend):
    """django-filter's backend over `FilterSet`, answering the first bad filter value as a UserError."""

    filterset_base = FilterSet

    def filter_queryset(self, request, queryset, view):
        filterset = self.get_filterset(request, queryset, view)
        if filterset is None:
            return queryset
        if not filterset.is_valid():
            name, messages = next(iter(filterset.errors.items()))
            raise UserError(f"{name}: {' '.join(messages)}", field=name)
        return filterset.qs


class OrderingFilter(drf_filters.OrderingFilter):
    """DRF's `?ordering=`, refusing a field the endpoint does not order by instead of ignoring it."""

    def remove_invalid_fields(self, queryset, fields, view, request):
        valid = [name for name, _label in self.get_valid_fields(queryset, view, {"request": request})]
        unknown = [term for term in fields if term.removeprefix("-") not in valid]
        if unknown:
            name, choices = self.ordering_param, f"one of {', '.join(valid)} (- first for descending)"
            raise UserError(f"{name}: {choices}, not {unknown[0]!r}", field=name)
        return fields


class PlayerFilter(FilterSet):
    name = TextFilter(lookup_expr="icontains")

    class Meta:
        model = Player
        fields = ["name", "kind", "active"]


class MatchFilter(FilterSet):
    game = GameFilter(field_name="game_id")
    player = IdFilter(field_name="seats__player", distinct=True)
    played_after = DateTimeFilter(field_name="played_at", lookup_expr="gte")
    played_before = DateTimeFilter(field_name="played_at", lookup_expr="lt")

    class Meta:
        model = Match
        fields = ["game", "status", "rated", "player", "played_after", "played_before"]


class RatingFilter(FilterSet):
    game = GameFilter(field_name="pool__game_id")
    kind = ChoiceFilter(field_name="pool__kind", choices=RatingPool.Kind.choices)

    class Meta:
        model = Rating
        fields = ["pool", "game", "kind", "player"]


class RatingHistoryFilter(FilterSet):
    game = GameFilter(field_name="pool__game_id")

    class Meta:
        model = RatingHistory
        fields = ["pool", "game", "player", "match"]


class PredictionFilter(FilterSet):
    class Meta:
        model = Prediction
        fields = ["match", "pool", "player"]


class RatingPoolFilter(FilterSet):
    game = GameFilter(field_name="game_id")
    kind = ChoiceFilter(field_name="kind", choices=RatingPool.Kind.choices)

    class Meta:
        model = RatingPool
        fields = ["game", "kind"]


class BotFilter(FilterSet):
    game_id = GameFilter()

    class Meta:
        model = BotDefinition
        fields = ["game_id", "kind", "name"]


class LeagueFilter(FilterSet):
    game_id = GameFilter()

    class Meta:
        model = BotLeague
        fields = ["game_id", "status"]


class TournamentFilter(FilterSet):
    """`tournament_format`, not `format`: DRF reads `?format=` as the response's format (json, api)."""

    game_id = GameFilter()
    tournament_format = ChoiceFilter(field_name="format", choices=Tournament.Format.choices)

    class Meta:
        model = Tournament
        fields = ["game_id", "status", "tournament_format"]
