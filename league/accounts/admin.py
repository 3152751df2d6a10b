"""Claim links in the admin: read-only (issue them from a player's page; a token is shown only once)."""

from django.contrib import admin

from league.accounts.models import ClaimLink


@admin.register(ClaimLink)
class ClaimLinkAdmin(admin.ModelAdmin):
    list_display = ["player", "issued_by", "created_at", "expires_at", "used_at", "used_by"]
    list_select_related = ["player", "issued_by", "used_by"]
    search_fields = ["player__name"]
    readonly_fields = ["player", "issued_by", "created_at", "expires_at", "used_at", "used_by"]
    exclude = ["token_hash"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
