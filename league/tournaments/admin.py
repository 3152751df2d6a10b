"""Admin for tournaments. Settings are edited here while a tournament has not started (through
`tournament_update`); the lifecycle and rounds move through admin actions that call the same services as the
pages and the API, so the admin can drive a whole tournament. Rounds and tables are read-only records."""

from typing import cast

from django.contrib import admin, messages

from league.core.errors import UserError
from league.tournaments import services
from league.tournaments.models import AuditEntry, Registration, Round, Table, Tournament


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    fields = ["player", "status", "seed", "entered_round", "left_after_round", "queued_at", "checked_in_at"]
    readonly_fields = ["player", "status", "entered_round", "left_after_round", "queued_at", "checked_in_at"]
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # seeds change through the tournament's seed service (pages, API)


def _run(modeladmin, request, queryset, service, done: str, **kwargs) -> None:
    for item in queryset:
        try:
            service(by=request.user, **{kwargs.get("key", "tournament"): item})
        except UserError as exc:
            modeladmin.message_user(request, f"{item}: {exc.message}", messages.ERROR)
        else:
            modeladmin.message_user(request, f"{item}: {done}", messages.SUCCESS)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "game_id", "format", "table_size", "status", "rated", "created_at"]
    list_filter = [
        "status",
        "format",
        "game_id",
        "rated",
        ("venue_address", admin.EmptyFieldListFilter),
        ("venue_approved_at", admin.EmptyFieldListFilter),
    ]
    search_fields = ["name"]
    filter_horizontal = ["organizers", "scorekeepers"]
    # Sign-up and the event's clock change on the tournament's "Sign-up and schedule" page (or the API),
    # where local times are read in the event's zone, the venue's address on its "Private links" page; here
    # they are shown only.
    readonly_fields = [
        "slug",
        "status",
        "created_by",
        "created_at",
        "time_zone",
        "starts_at",
        "checkin_opens_at",
        "self_signup",
        "capacity",
        "waitlist",
        "approval",
        "venue_address",
        "venue_day",
        "venue_approved_at",
        "venue_approved_by",
    ]
    inlines = [RegistrationInline]
    actions = ["open_registration", "start", "generate_round", "finish", "approve_venue_address"]

    def has_add_permission(self, request) -> bool:
        return False  # created on the site or through the API, where the settings are validated as a whole

    def save_model(self, request, obj, form, change):
        settings = {name: form.cleaned_data[name] for name in form.changed_data if name in services.SETTINGS}
        fresh = Tournament.objects.get(pk=obj.pk)
        try:
            services.tournament_update(tournament=fresh, by=request.user, **settings)
        except UserError as exc:
            self.message_user(request, exc.message, messages.ERROR)
        for role in ("organizers", "scorekeepers"):
            if role in form.changed_data:
                getattr(obj, role).set(form.cleaned_data[role])

    def save_related(self, request, form, formsets, change):
        """Organizers and scorekeepers are saved in save_model. The registrations inline is view-only
        (registrations change through the services): saving its formset writes nothing, and gives the admin's
        change message the (empty) lists of what it saved, which it reads."""
        for formset in formsets:
            self.save_formset(request, form, formset, change=change)

    @admin.action(description="Open registration")
    def open_registration(self, request, queryset):
        _run(self, request, queryset, services.tournament_open_registration, "registration open")

    @admin.action(description="Start (seed unseeded players by rating)")
    def start(self, request, queryset):
        _run(self, request, queryset, services.tournament_start, "started")

    @admin.action(description="Generate the next round (as a draft)")
    def generate_round(self, request, queryset):
        _run(self, request, queryset, services.round_generate, "round generated")

    @admin.action(description="Finish")
    def finish(self, request, queryset):
        _run(self, request, queryset, services.tournament_finish, "finished")

    @admin.action(description="Approve the declared venue address")
    def approve_venue_address(self, request, queryset):
        _run(self, request, queryset, services.venue_address_approve, "venue address approved")


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ["number", "label", "planned_seats", "match", "closed_as", "absent"]
    readonly_fields = cast(list[str], fields)  # the names above (the base class also takes groups of them)
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "final", "published_at", "completed_at"]
    list_filter = ["status"]
    readonly_fields = [
        "tournament",
        "number",
        "status",
        "byes",
        "advanced",
        "final",
        "quality",
        "generated_at",
        "published_at",
        "completed_at",
        "timer_duration_seconds",
        "timer_ends_at",
        "timer_paused_remaining",
    ]
    inlines = [TableInline]
    actions = ["publish", "complete"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return obj is not None and obj.status == Round.Status.DRAFT

    def delete_model(self, request, obj):
        services.round_discard(round_row=obj, by=request.user)

    @admin.action(description="Publish (draft rounds)")
    def publish(self, request, queryset):
        _run(self, request, queryset, services.round_publish, "published", key="round_row")

    @admin.action(description="Complete (every table has a result)")
    def complete(self, request, queryset):
        _run(self, request, queryset, services.round_complete, "complete", key="round_row")


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """The audit log, read only: entries are written by the tournament services (`services.audit`)."""

    list_display = ["at", "tournament", "actor", "action"]
    list_filter = ["action"]
    list_select_related = ["tournament", "actor"]
    search_fields = ["tournament__name", "actor__username"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
