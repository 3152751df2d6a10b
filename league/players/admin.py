from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError

from league.core.errors import UserError
from league.players.models import Player
from league.players.services import check_player_name, player_create, player_search_key, player_update


class PlayerAdminForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["name", "kind", "user", "active"]

    def clean_name(self):
        try:
            # A new player is checked as a person: the admin's strictest case.
            kind = self.instance.kind if self.instance.pk else Player.Kind.PERSON
            return check_player_name(self.cleaned_data["name"], exclude_id=self.instance.pk, kind=kind)
        except UserError as exc:
            raise ValidationError(exc.message) from None


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    form = PlayerAdminForm
    list_display = ["name", "kind", "active", "user", "created_at"]
    list_filter = ["kind", "active"]
    search_fields = ["name"]
    readonly_fields = ["slug", "created_at"]
    autocomplete_fields = ["user"]

    def save_model(self, request, obj, form, change):
        if change:
            player_update(player=obj, name=form.cleaned_data["name"], active=form.cleaned_data["active"])
            if "kind" in form.changed_data or "user" in form.changed_data:
                obj.search_key = player_search_key(obj)  # the account's user name is searched too
                obj.save(update_fields=["kind", "user", "search_key"])
        else:
            created = player_create(
                name=form.cleaned_data["name"],
                kind=form.cleaned_data["kind"],
                user=form.cleaned_data["user"],
                active=form.cleaned_data["active"],
            )
            obj.pk = created.pk
            obj.slug = created.slug
