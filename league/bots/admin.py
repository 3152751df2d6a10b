"""Admin for bots and bot leagues: every write goes through the same services as the pages and the API.

A bot's form validates with `check_bot` (only staff may register external programs); saving a bot that has
taken a seat makes its next version instead of editing it. Leagues are created in the admin or on the site
and started, paused or resumed with the list's actions; their rounds and fixtures are read-only. The
programs' logs and the workers' sandbox probes are in `league.programs.admin`.
"""

import json

from django import forms
from django.contrib import admin, messages

from league.bots.models import (
    BotDefinition,
    BotLeague,
    Challenge,
    Fixture,
    LadderEvent,
    LeagueEntry,
    VersionTest,
)
from league.bots.services import definitions, leagues
from league.core.catalogue import game_choices
from league.core.errors import UserError
from league.core.forms import add_user_error, json_object

DEFINITION_FIELDS = (
    "strategy",
    "params",
    "command",
    "move_seconds",
    "cpu_seconds",
    "memory_mb",
    "time_bank_seconds",
)


class BotDefinitionForm(forms.ModelForm):
    game_id = forms.ChoiceField(choices=(), label="Game")
    params = forms.CharField(required=False, label="Parameters (JSON)", initial="{}")
    command = forms.CharField(
        required=False, help_text="External programs: the program's absolute path, then its arguments."
    )

    class Meta:
        model = BotDefinition
        fields = [
            "name",
            "game_id",
            "kind",
            "strategy",
            "move_seconds",
            "cpu_seconds",
            "memory_mb",
            "time_bank_seconds",
            "description",
        ]

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        if "game_id" in self.fields:  # read-only once the bot exists
            self.fields["game_id"].choices = game_choices()
        if self.instance.pk:
            self.initial["params"] = json.dumps(self.instance.params)
            self.initial["command"] = " ".join(self.instance.command)

    def clean_params(self) -> dict:
        return json_object(self.cleaned_data.get("params"), what="parameters", example='{"caution": 1.5}')

    def clean_command(self) -> list[str]:
        return (self.cleaned_data.get("command") or "").split()

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            plan = definitions.check_bot(
                game_id=data.get("game_id") or self.instance.game_id,
                kind=data["kind"],
                strategy=data.get("strategy") or "",
                params=data["params"],
                command=data["command"],
                move_seconds=data["move_seconds"],
                cpu_seconds=data["cpu_seconds"],
                memory_mb=data["memory_mb"],
                time_bank_seconds=data["time_bank_seconds"],
                by=self.user,
            )
            if not self.instance.pk:  # a new bot's name (fixed once it exists): checked here, not on saving
                definitions.check_bot_name(data.get("name"), game_id=plan.game_id, by=self.user)
        except UserError as exc:
            add_user_error(self, exc)
        return data


@admin.register(BotDefinition)
class BotDefinitionAdmin(admin.ModelAdmin):
    form = BotDefinitionForm
    list_display = ("label", "game_id", "kind", "strategy", "version", "state", "created_at")
    list_filter = ("game_id", "kind", "state")
    search_fields = ("name",)
    readonly_fields = (
        "version",
        "state",
        "refusal",
        "checked_at",
        "player",
        "previous",
        "created_by",
        "created_at",
    )

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)

        class WithUser(form):
            def __init__(self, *args, **inner):
                super().__init__(*args, user=request.user, **inner)

        return WithUser

    def get_readonly_fields(self, request, obj=None):
        if obj is not None:  # the name and game are fixed; other changes go through bot_revise
            return (*self.readonly_fields, "name", "game_id")
        return self.readonly_fields

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        definition = {field: data.get(field) for field in DEFINITION_FIELDS}
        definition["strategy"] = definition["strategy"] or ""
        if not change:
            bot = definitions.bot_register(
                name=data["name"],
                description=data.get("description", ""),
                game_id=data["game_id"],
                kind=data["kind"],
                by=request.user,
                **definition,
            )
        else:
            before = BotDefinition.objects.get(pk=obj.pk)
            bot = definitions.bot_revise(
                bot=before,
                by=request.user,
                kind=data["kind"],
                description=data.get("description", ""),
                **definition,
            )
            if bot.pk != before.pk:
                messages.info(
                    request, f"{before.label} has played, so the change is a new version: {bot.label}."
                )
        obj.pk, obj.name, obj.version = (
            bot.pk,
            bot.name,
            bot.version,
        )  # what the admin's messages and redirect use


class LeagueEntryInline(admin.TabularInline):
    model = LeagueEntry
    extra = 0
    can_delete = False
    readonly_fields = ("bot",)

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(BotLeague)
class BotLeagueAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "kind",
        "game_id",
        "status",
        "current_round",
        "target_kind",
        "target_value",
        "created_at",
    )
    list_filter = ("kind", "status", "game_id")
    search_fields = ("name",)
    inlines = [LeagueEntryInline]
    actions = ["start_leagues", "pause_leagues"]
    readonly_fields = [field.name for field in BotLeague._meta.fields]

    def has_add_permission(self, request):
        return False  # leagues are created on the site (Bot leagues → New league) or through the API

    @admin.action(description="Start or resume the selected leagues")
    def start_leagues(self, request, queryset):
        self._apply(request, queryset, leagues.league_start)

    @admin.action(description="Pause the selected leagues")
    def pause_leagues(self, request, queryset):
        self._apply(request, queryset, leagues.league_pause)

    def _apply(self, request, queryset, service):
        for league in queryset:
            try:
                service(league_id=league.pk)
            except UserError as exc:
                messages.error(request, f"{league.name}: {exc.message}")
            else:
                messages.success(request, f"{league.name}: done.")


@admin.register(Fixture)
class FixtureAdmin(admin.ModelAdmin):
    list_display = (
        "league",
        "position",
        "round",
        "match",
        "done",
        "attempts",
        "leases_lost",
        "lease_token",
        "lease_expires_at",
    )
    list_filter = ("done", "league")
    readonly_fields = [field.name for field in Fixture._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(LadderEvent)
class LadderEventAdmin(ReadOnlyAdmin):
    """A ladder's entry log: append-only (with the seed, it decides the ladder's schedule)."""

    list_display = ("league", "seq", "position", "action", "bot", "reason", "at")
    list_filter = ("action",)
    list_select_related = ("league", "bot")
    readonly_fields = [field.name for field in LadderEvent._meta.fields]


@admin.register(Challenge)
class ChallengeAdmin(ReadOnlyAdmin):
    """Authors' challenges (unrated matches): written only by `league.bots.services.challenges`."""

    list_display = ("id", "challenger", "bot", "game_id", "match_count", "status", "created_at")
    list_filter = ("status", "game_id")
    list_select_related = ("challenger", "bot")
    readonly_fields = [field.name for field in Challenge._meta.fields]


@admin.register(VersionTest)
class VersionTestAdmin(ReadOnlyAdmin):
    """Authors' version tests (is v2 better than v1?): written only by its services (`version_tests`)."""

    list_display = ("id", "author", "v1", "v2", "game_id", "state", "verdict", "llr", "created_at")
    list_filter = ("state", "verdict", "game_id")
    list_select_related = ("author", "v1", "v2")
    readonly_fields = [field.name for field in VersionTest._meta.fields]
