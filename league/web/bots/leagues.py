"""Bot leagues' pages: the list, a new league (staff) with its form, a league's page, its live part and its
controls (start, resume, pause)."""

from __future__ import annotations

from typing import TypedDict, cast

from django import forms
from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from league.bots import pages, selectors
from league.bots.models import BotDefinition, BotLeague
from league.bots.services.leagues import SETTING_BOUNDS, league_create, league_pause, league_start
from league.core.bounds import ROW_IDS, Bounds, whole_number
from league.core.catalogue import game_choices, game_name
from league.core.errors import NotFound, UserError
from league.core.forms import add_user_error
from league.core.http import SignedInRequest


def league_list(request: HttpRequest) -> HttpResponse:
    leagues = list(selectors.leagues_list())
    for league in leagues:
        league.game_name = game_name(league.game_id)  # type: ignore[attr-defined]  # for the template
    return render(request, "bots/leagues.html", {"leagues": leagues})


class BotChoiceField(forms.ModelMultipleChoiceField):
    def clean(self, value):
        for pk in value or ():
            if not ROW_IDS.contains(whole_number(str(pk))):
                raise forms.ValidationError(
                    self.error_messages["invalid_pk_value"], code="invalid_pk_value", params={"pk": pk}
                )
        return super().clean(value)

    def label_from_instance(self, bot: BotDefinition) -> str:
        return f"{bot.label} · {game_name(bot.game_id)}"


class GameCheckboxes(forms.CheckboxSelectMultiple):
    """Checkboxes that carry their bot's game, so the page can show only the bots of the chosen game."""

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        if value:
            option["attrs"]["data-game"] = value.instance.game_id
        return option


class FieldLimits(TypedDict):
    """A whole number's `Bounds.limits`, as a form's IntegerField takes them."""

    min_value: int
    max_value: int


def field_limits(bounds: Bounds) -> FieldLimits:
    """`bounds.limits`, for bounds of a whole number (every setting of these forms is one)."""
    return cast(FieldLimits, bounds.limits)  # whole-number bounds: their low and high are ints


class LeagueForm(forms.Form):
    name = forms.CharField(max_length=120)
    game = forms.ChoiceField(choices=game_choices)
    bots = BotChoiceField(
        queryset=BotDefinition.objects.filter(state=BotDefinition.State.READY).order_by(
            "game_id", "name", "-version"
        ),
        widget=GameCheckboxes,
        help_text="Bots of the league's game.",
    )
    table_size = forms.IntegerField(initial=4, **field_limits(SETTING_BOUNDS["table_size"]))
    target_kind = forms.ChoiceField(choices=BotLeague.Target.choices, initial=BotLeague.Target.ROUNDS)
    target_value = forms.IntegerField(
        initial=10, label="Target", **field_limits(SETTING_BOUNDS["target_value"])
    )
    sittings_per_round = forms.IntegerField(
        initial=4, label="Matches per bot per round", **field_limits(SETTING_BOUNDS["sittings_per_round"])
    )
    seed = forms.IntegerField(initial=1, **field_limits(SETTING_BOUNDS["seed"]))
    pace = forms.ChoiceField(choices=BotLeague.Pace.choices, initial=BotLeague.Pace.FAST)
    interval_seconds = forms.IntegerField(
        initial=60,
        label="Seconds between rounds (scheduled pace)",
        **field_limits(SETTING_BOUNDS["interval_seconds"]),
    )


@staff_member_required
def league_new(request: SignedInRequest) -> HttpResponse:
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            league = league_create(
                name=data["name"],
                game_id=data["game"],
                bot_ids=[bot.pk for bot in data["bots"]],
                table_size=data["table_size"],
                target_kind=data["target_kind"],
                target_value=data["target_value"],
                sittings_per_round=data["sittings_per_round"],
                seed=data["seed"],
                pace=data["pace"],
                interval_seconds=data["interval_seconds"],
                by=request.user,
            )
        except UserError as exc:
            add_user_error(form, exc)
        else:
            messages.success(request, f"League {league.name} created: start it when you are ready.")
            return redirect(league)
    return render(request, "bots/league_new.html", {"form": form})


def league_detail(request: HttpRequest, pk: int) -> HttpResponse:
    league = get_object_or_404(BotLeague, pk=pk)
    if league.is_ladder:
        return redirect(league)
    return render(request, "bots/league.html", dict(vars(pages.league_page(league, request.user))))


def league_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The part of the league page that refreshes itself while the league runs."""
    league = get_object_or_404(BotLeague, pk=pk)
    return render(request, "bots/_league_live.html", dict(vars(pages.league_page(league, request.user))))


CONTROLS = {"start": league_start, "resume": league_start, "pause": league_pause}


@staff_member_required
@require_POST
def league_control(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    control = CONTROLS.get(action)
    if control is None:
        raise Http404("no such league action")
    try:
        league = control(league_id=pk)
    except NotFound:
        raise  # no such league: the 404 page, not a message on a page that does not exist
    except UserError as exc:
        messages.error(request, exc.message)
        return redirect("bots:league", pk=pk)
    messages.success(request, f"League {league.name}: {league.get_status_display().lower()}.")
    return redirect(league)
