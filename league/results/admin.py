"""Admin for matches and result versions. A match is added, corrected and voided through the results services
(as on the site and in the API), so its admin is here with the versions; seats and versions are read-only."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError

from league.core.admin import ReadOnlyAdmin
from league.core.catalogue import game_choices, game_spec
from league.core.errors import UserError
from league.core.forms import json_object
from league.matches.models import Match, MatchSeat
from league.matches.services import check_match
from league.players.services import player_by_name
from league.results.models import ResultVersion
from league.results.selectors import owner_entry
from league.results.services import check_outcome, match_create, result_submit, result_void


def _numbers(raw: str, what: str) -> list[int] | None:
    raw = raw.strip()
    if not raw:
        return None
    try:
        return [int(part) for part in raw.replace(",", " ").split()]
    except ValueError:
        raise ValidationError(f"{what}: whole numbers separated by commas, e.g. 1, 2, 2, 4") from None


class MatchAddForm(forms.ModelForm):
    game = forms.ChoiceField(choices=())
    seat_names = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="One player name per line, seat 0 (who starts) first.",
    )
    options_json = forms.CharField(
        required=False, label="Options (JSON)", help_text="Empty for the defaults."
    )

    class Meta:
        model = Match
        fields = ["rated", "played_at"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = game_choices()

    def clean_seat_names(self) -> list[int]:
        names = [line.strip() for line in self.cleaned_data["seat_names"].splitlines() if line.strip()]
        ids, missing = [], []
        for name in names:
            try:
                player = player_by_name(name)
            except UserError:  # not a name any player can have
                player = None
            if player is None:
                missing.append(name)
            else:
                ids.append(player.pk)
        if missing:
            raise ValidationError(f"no player called {', '.join(missing)}")
        return ids

    def clean_options_json(self) -> dict:
        return json_object(self.cleaned_data["options_json"], what="options")

    def clean(self):
        data = super().clean()
        if not self.errors:
            try:
                check_match(
                    game_id=data["game"],
                    player_ids=data["seat_names"],
                    options=data["options_json"],
                    rated=data["rated"],
                    played_at=data.get("played_at"),
                )
            except UserError as exc:
                raise ValidationError(exc.message) from None
        return data


class MatchChangeForm(forms.ModelForm):
    new_places = forms.CharField(required=False, help_text="Correction: a place per seat, e.g. 1, 1, 3, 4.")
    new_scores = forms.CharField(required=False, help_text="Correction: a score per seat (optional).")
    correction_reason = forms.CharField(required=False, help_text="Why the result changes (required).")

    class Meta:
        model = Match
        fields: list[str] = []

    def clean(self):
        data = super().clean()
        places = _numbers(data.get("new_places", ""), "places")
        scores = _numbers(data.get("new_scores", ""), "scores")
        if places is None and scores is None:
            data["correction"] = None
            return data
        match = self.instance
        if match.owner != Match.Owner.CASUAL:  # the results service refuses it too (check_owner)
            raise ValidationError(owner_entry(match))
        if match.status == Match.Status.VOID:
            raise ValidationError("the match is void: it takes no result")
        try:
            places, scores = check_outcome(
                num_seats=match.seats.count(),
                score_order=game_spec(match.game_id).score_order,
                places=places,
                scores=scores,
            )
        except UserError as exc:
            raise ValidationError(exc.message) from None
        if match.result_version and not data.get("correction_reason", "").strip():
            raise ValidationError("say why the result is corrected")
        data["correction"] = (places, scores)
        return data


class SeatInline(admin.TabularInline):
    model = MatchSeat
    fields = ("seat", "player", "place", "score")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        """Seats and versions are written by the services only."""
        return False


class ResultVersionInline(admin.TabularInline):
    model = ResultVersion
    fields = ("version", "places", "scores", "entered_by", "entered_at", "reason")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ["-version"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        """Seats and versions are written by the services only."""
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "game_id", "status", "owner", "rated", "played_at", "result_version"]
    list_filter = ["game_id", "status", "owner", "rated", "visibility"]
    date_hierarchy = "played_at"
    search_fields = ["id", "seats__player__name"]
    readonly_fields = [
        "game_id",
        "game_version",
        "options",
        "status",
        "owner",
        "rated",
        "rating_pool",
        "played_at",
        "result_version",
        "created_by",
        "created_at",
        "visibility",
    ]
    actions = ["void_matches"]

    def get_form(self, request, obj=None, change=False, **kwargs):
        kwargs["form"] = MatchChangeForm if obj is not None else MatchAddForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        return self.readonly_fields if obj is not None else []

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["game", "seat_names", "options_json", "rated", "played_at"]
        return [*self.readonly_fields, "new_places", "new_scores", "correction_reason"]

    def get_inlines(self, request, obj):
        return [SeatInline, ResultVersionInline] if obj is not None else []

    def has_delete_permission(self, request, obj=None):
        """A match with results is voided, not deleted, so that its pool replays without it."""
        return False

    def save_model(self, request, obj, form, change):
        if not change:
            created = match_create(
                game_id=form.cleaned_data["game"],
                player_ids=form.cleaned_data["seat_names"],
                options=form.cleaned_data["options_json"],
                rated=form.cleaned_data["rated"],
                played_at=form.cleaned_data["played_at"],
                created_by=request.user,
            )
            obj.pk = created.pk
            return
        correction = form.cleaned_data.get("correction")
        if correction is None:
            return
        places, scores = correction
        try:
            result_submit(
                match_id=obj.pk,
                expected_version=obj.result_version,
                places=places,
                scores=scores,
                entered_by=request.user,
                reason=form.cleaned_data.get("correction_reason", ""),
            )
        except UserError as exc:
            messages.error(request, exc.message)

    @admin.action(description="Void the selected matches (they stop counting)")
    def void_matches(self, request, queryset):
        for match in queryset:
            try:
                result_void(match_id=match.pk, entered_by=request.user, reason="voided in the admin")
            except UserError as exc:
                messages.warning(request, f"Match {match.pk}: {exc.message}")


@admin.register(ResultVersion)
class ResultVersionAdmin(ReadOnlyAdmin):
    """Versions are read-only: corrections are added on the match's page, through the results service."""

    list_display = ["match", "version", "places", "scores", "entered_by", "entered_at", "reason"]
    list_select_related = ["match", "entered_by"]
    search_fields = ["match__id", "reason"]
    date_hierarchy = "entered_at"
