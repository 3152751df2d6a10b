"""Pages for bots and bot leagues: thin views that parse input, call one service or selector, and render."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games.core.errors import ReplayError
from league.bots import selectors
from league.bots.drawings import replay_frame
from league.bots.leagues import SETTING_BOUNDS, league_create, league_pause, league_start
from league.bots.models import BotDefinition, BotLeague
from league.core.bounds import ROW_IDS, whole_number
from league.core.catalogue import game_choices, game_name
from league.core.errors import NotFound, UserError
from league.core.forms import add_user_error
from league.matches.models import Match
from league.matches.selectors import verification_of


def league_list(request: HttpRequest) -> HttpResponse:
    leagues = list(selectors.leagues_list())
    for league in leagues:
        league.game_name = game_name(league.game_id)
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


class LeagueForm(forms.Form):
    name = forms.CharField(max_length=120)
    game = forms.ChoiceField(choices=game_choices)
    bots = BotChoiceField(
        queryset=BotDefinition.objects.order_by("game_id", "name", "-version"),
        widget=GameCheckboxes,
        help_text="Bots of the league's game.",
    )
    table_size = forms.IntegerField(initial=4, **SETTING_BOUNDS["table_size"].limits)
    target_kind = forms.ChoiceField(choices=BotLeague.Target.choices, initial=BotLeague.Target.ROUNDS)
    target_value = forms.IntegerField(initial=10, label="Target", **SETTING_BOUNDS["target_value"].limits)
    sittings_per_round = forms.IntegerField(
        initial=4, label="Matches per bot per round", **SETTING_BOUNDS["sittings_per_round"].limits
    )
    seed = forms.IntegerField(initial=1, **SETTING_BOUNDS["seed"].limits)
    pace = forms.ChoiceField(choices=BotLeague.Pace.choices, initial=BotLeague.Pace.FAST)
    interval_seconds = forms.IntegerField(
        initial=60, label="Seconds between rounds (scheduled pace)",
        **SETTING_BOUNDS["interval_seconds"].limits,
    )  # fmt: skip


@staff_member_required
def league_new(request: HttpRequest) -> HttpResponse:
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


def _league_context(request: HttpRequest, league: BotLeague) -> dict:
    return {
        "league": league,
        "game_name": game_name(league.game_id),
        "standings": selectors.league_standings(league),
        "progress": selectors.league_progress(league),
        "recent": selectors.league_recent_matches(league),
        "chart": selectors.league_chart(league),
        "can_control": request.user.is_staff,
        "sandbox_message": selectors.sandbox_status(league).message,
    }


def league_detail(request: HttpRequest, pk: int) -> HttpResponse:
    league = get_object_or_404(BotLeague, pk=pk)
    return render(request, "bots/league.html", _league_context(request, league))


def league_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The part of the league page that refreshes itself while the league runs."""
    league = get_object_or_404(BotLeague, pk=pk)
    return render(request, "bots/_league_live.html", _league_context(request, league))


# A record's forfeit codes (games.core.record.FORFEIT_REASONS), as the replay page says them.
FORFEIT_WORDS = {
    "illegal_action": "an illegal action",
    "timeout": "out of time",
    "crashed": "the bot crashed",
    "protocol_error": "an answer that broke the bot protocol",
    "limit_exceeded": "over a limit (CPU time, file size or answer size)",
}

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


def bot_list(request: HttpRequest) -> HttpResponse:
    bots = list(selectors.bots_list())
    for bot in bots:
        bot.game_name = game_name(bot.game_id)
    return render(request, "bots/bots.html", {"bots": bots})


def bot_detail(request: HttpRequest, pk: int) -> HttpResponse:
    bot = get_object_or_404(BotDefinition.objects.select_related("player", "previous"), pk=pk)
    return render(
        request,
        "bots/bot.html",
        {
            "bot": bot,
            "game_name": game_name(bot.game_id),
            "versions": selectors.bot_versions(bot),
            "leagues": selectors.bot_leagues(bot),
            "sandbox": selectors.sandbox_status() if bot.is_external else None,
            "max_processes": settings.SANDBOX_MAX_PROCESSES,
        },
    )


def match_replay(request: HttpRequest, pk: int) -> HttpResponse:
    """A bot match step by step; `?step=k` shows the table after k events (`&fragment=1`: the frame alone)."""
    match = get_object_or_404(Match, pk=pk)
    record = match.record_json()
    if record is None:
        raise Http404("this match has no record to replay")
    seats = list(match.seats.select_related("player").order_by("seat"))
    names = [seat.player.name for seat in seats]
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    try:
        frame, total = replay_frame(record, names, step)
    except ReplayError as exc:
        return render(request, "bots/replay.html", {"match": match, "error": str(exc)}, status=409)
    context = {
        "match": match,
        "frame": frame,
        "total": total,
        "seats": seats,
        "record": record,
        "forfeits": [
            (
                forfeit["seat"] + 1,
                forfeit["event"] + 1,
                FORFEIT_WORDS.get(forfeit["reason"], forfeit["reason"]),
            )
            for forfeit in record["end"]["forfeits"]
        ],
        "game_name": game_name(match.game_id),
        "fixture": getattr(match, "bot_fixture", None),
        "verification": verification_of(match),
    }
    template = "bots/_frame.html" if request.GET.get("fragment") else "bots/replay.html"
    return render(request, template, context)
