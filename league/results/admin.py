from django.contrib import admin

from league.results.models import ResultVersion


@admin.register(ResultVersion)
class ResultVersionAdmin(admin.ModelAdmin):
    """Versions are read-only: corrections are added on the match's page, through the results service."""

    list_display = ["match", "version", "places", "scores", "entered_by", "entered_at", "reason"]
    list_select_related = ["match", "entered_by"]
    search_fields = ["match__id", "reason"]
    date_hierarchy = "entered_at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
