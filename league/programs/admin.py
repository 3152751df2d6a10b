"""Admin for external programs' rows, read-only: the programs' logs (why a seat forfeited, what its program
printed: staff only) and the workers' sandbox probes."""

from django.contrib import admin

from league.core.admin import ReadOnlyAdmin
from league.programs.models import ProgramLog, WorkerProbe


@admin.register(ProgramLog)
class ProgramLogAdmin(ReadOnlyAdmin):
    """What a seat's program printed and why it forfeited: for staff (never on a public page)."""

    list_display = ("match", "seat", "bot", "forfeit", "output_bytes", "created_at")
    list_filter = ("forfeit",)
    list_select_related = ("bot",)
    raw_id_fields = ("match", "bot")
    readonly_fields = [field.name for field in ProgramLog._meta.fields]


@admin.register(WorkerProbe)
class WorkerProbeAdmin(ReadOnlyAdmin):
    list_display = ("worker", "isolated", "checked_at", "seen_at")
    list_filter = ("isolated",)
    readonly_fields = [field.name for field in WorkerProbe._meta.fields]
