"""Admin for ratings: read-only, since only the ratings service (its replays) writes them."""

from django.contrib import admin

from league.core.admin import ReadOnlyAdmin
from league.ratings.models import PendingRatingUpdate, Rating, RatingHistory, RatingPool


@admin.register(RatingPool)
class RatingPoolAdmin(ReadOnlyAdmin):
    list_display = ["name", "kind", "game_id", "model_name", "created_at"]
    list_filter = ["kind", "game_id"]


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ["player", "pool", "conservative", "mu", "sigma", "matches"]
    list_filter = ["pool"]
    list_select_related = ["player", "pool"]
    search_fields = ["player__name"]


@admin.register(RatingHistory)
class RatingHistoryAdmin(ReadOnlyAdmin):
    list_display = ["player", "pool", "match", "mu_before", "mu_after", "sigma_after"]
    list_filter = ["pool"]
    list_select_related = ["player", "pool", "match"]
    search_fields = ["player__name"]


@admin.register(PendingRatingUpdate)
class PendingRatingUpdateAdmin(ReadOnlyAdmin):
    list_display = ["pool", "match", "created_at"]
