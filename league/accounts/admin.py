"""Claim links in the admin: read-only (issue them from a player's page; a token is shown only once). API
tokens: DRF's token admin, whose add form also asks how long the token lasts and makes it through
`api_token_create`; tokens are never edited (replace one by adding another)."""

from django import forms
from django.conf import settings
from django.contrib import admin
from rest_framework.authtoken.admin import TokenAdmin
from rest_framework.authtoken.models import TokenProxy

from league.accounts import selectors, services
from league.accounts.forms import token_days_choices
from league.accounts.models import ClaimLink
from league.core.errors import UserError


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


class ApiTokenAddForm(forms.ModelForm):
    days = forms.TypedChoiceField(
        label="Expires after", choices=token_days_choices, coerce=int, initial=settings.API_TOKEN_DEFAULT_DAYS
    )

    class Meta:
        model = TokenProxy
        fields = ["user"]

    def validate_unique(self) -> None:
        """Nothing to check: a user who has a token gets the new one in its place (`api_token_create`)."""

    def clean(self):
        cleaned = super().clean()
        user = cleaned.get("user")
        if user is not None and not user.is_active:
            raise forms.ValidationError("that account is inactive: it cannot have an API token")
        try:
            services.check_token_days(cleaned.get("days"))
        except UserError as exc:
            self.add_error("days", exc.message)
        return cleaned


admin.site.unregister(TokenProxy)


@admin.register(TokenProxy)
class ApiTokenAdmin(TokenAdmin):
    list_display = ("key", "user", "created", "expires_at")
    list_select_related = ("user", "expiry")
    form = ApiTokenAddForm
    fields = ("user", "days")

    @admin.display(description="Expires")
    def expires_at(self, token) -> str:
        return f"{selectors.token_expires_at(token):%Y-%m-%d %H:%M} UTC"

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def save_model(self, request, obj, form, change) -> None:
        """Make the token through the service (replacing the user's token, with its expiry); `obj` becomes
        it."""
        issued = services.api_token_create(user=form.cleaned_data["user"], days=form.cleaned_data["days"])
        obj.key = issued.key
        obj._state.adding = False
