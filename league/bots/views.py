"""Pages for bots and bot leagues: thin views that parse input, call one service or selector, and render."""

from __future__ import annotations

from typing import TypedDict, cast

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games.core.errors import ReplayError
from league.bots import selectors, uploads
from league.bots.drawings import replay_frame
from league.bots.models import BotDefinition, BotLeague, Challenge
from league.bots.services import challenges
from league.bots.services.ladders import ladder_enter, ladder_leave
from league.bots.services.leagues import SETTING_BOUNDS, league_create, league_pause, league_start
from league.core.bodies import takes_body
from league.core.bounds import ROW_IDS, Bounds, whole_number
from league.core.catalogue import game_choices, game_name
from league.core.errors import NotFound, UserError
from league.core.forms import add_user_error
from league.matches.models import Match
from league.matches.selectors import match_visible, verification_of
from league.ratings.selectors import predictions_by_seat


class SignedInRequest(HttpRequest):
    """The request of a view behind `login_required` or `staff_member_required`: its user is signed in."""

    user: User


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


def _league_context(request: HttpRequest, league: BotLeague) -> dict:
    recent = list(selectors.league_recent_matches(league))
    return {
        "forecasts": predictions_by_seat([fixture.match_id for fixture in recent]),
        "league": league,
        "game_name": game_name(league.game_id),
        "standings": selectors.league_standings(league),
        "progress": selectors.league_progress(league),
        "recent": recent,
        "chart": selectors.league_chart(league),
        "can_control": request.user.is_staff,
        "sandbox_message": selectors.sandbox_status(league).message,
    }


def league_detail(request: HttpRequest, pk: int) -> HttpResponse:
    league = get_object_or_404(BotLeague, pk=pk)
    if league.is_ladder:
        return redirect(league)
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
        bot.game_name = game_name(bot.game_id)  # type: ignore[attr-defined]  # for the template
    return render(request, "bots/bots.html", {"bots": bots})


def bot_detail(request: HttpRequest, pk: int) -> HttpResponse:
    bot = get_object_or_404(
        BotDefinition.objects.select_related("player", "previous", "program").defer("program__content"), pk=pk
    )
    versions = list(selectors.bot_versions(bot))
    return render(
        request,
        "bots/bot.html",
        {
            "bot": bot,
            "game_name": game_name(bot.game_id),
            "versions": versions,
            "newer": next(
                (version for version in versions if version.version > bot.version and version.is_ready), None
            ),
            "leagues": selectors.bot_leagues(bot),
            "sandbox": selectors.sandbox_status() if bot.is_external else None,
            "max_processes": settings.SANDBOX_MAX_PROCESSES,
            "rates": selectors.bot_forfeit_rates(bot, viewer=request.user),
            "matches": selectors.bot_matches(bot, viewer=request.user),
            "can_read_logs": uploads.can_read_logs(request.user, bot),
        },
    )


class UploadForm(forms.Form):
    game = forms.ChoiceField(choices=game_choices)
    name = forms.CharField(
        max_length=200,
        strip=False,
        help_text=(
            "A new name makes version 1 of a new bot; "
            "the name of one of your uploaded bots, its next version."
        ),
    )
    file = forms.FileField(
        label="Program",
        allow_empty_file=True,
        help_text=(
            "One Python file, or a zip or tar(.gz) archive with bot.toml or manifest.json naming its entry "
            "point (docs/bot-leagues.md). Python 3's standard library only."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".py,.zip,.tar,.tgz,.gz,.bz2,.xz"}),
    )
    description = forms.CharField(required=False, max_length=5000, widget=forms.Textarea(attrs={"rows": 3}))


@login_required
@takes_body(uploads.upload_body_limit)
def bot_upload(request: SignedInRequest) -> HttpResponse:
    form = UploadForm(
        request.POST or None, request.FILES or None, initial={"game": request.GET.get("game", "")}
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            bot = uploads.bot_upload(
                by=request.user,
                game_id=data["game"],
                name=data["name"],
                data=uploads.read_upload(data["file"]),
                description=data["description"],
            )
        except UserError as exc:
            add_user_error(form, exc)
        else:
            messages.success(
                request,
                f"Uploaded {bot.label}: a worker checks it now (this page shows when it is ready); "
                "once ready, it plays in the leagues it enters.",
            )
            return redirect(bot)
    versions, stored = uploads.upload_usage(request.user)
    return render(
        request,
        "bots/upload.html",
        {
            "form": form,
            "used_versions": versions,
            "used_bytes": stored,
            "quota_versions": settings.BOT_UPLOAD_QUOTA_VERSIONS,
            "quota_bytes": settings.BOT_UPLOAD_QUOTA_BYTES,
            "max_bytes": settings.BOT_UPLOAD_MAX_BYTES,
        },
        status=400 if form.errors else 200,
    )


@login_required
def my_bots(request: SignedInRequest) -> HttpResponse:
    bots = selectors.my_bots(request.user)
    for bot in bots:
        bot.game_name = game_name(bot.game_id)
    return render(request, "bots/mine.html", {"bots": bots})


LOGS_PER_PAGE = 20


@login_required
def bot_logs(request: SignedInRequest, pk: int) -> HttpResponse:
    """A bot version's program logs: what it printed on standard error and why it forfeited, match by match.
    Its author's and staff's only."""
    bot = get_object_or_404(BotDefinition, pk=pk)
    if not uploads.can_read_logs(request.user, bot):
        raise PermissionDenied("only the bot's author and staff read its logs")
    page = Paginator(selectors.bot_logs(bot), LOGS_PER_PAGE).get_page(request.GET.get("page"))
    for log in page:
        words = FORFEIT_WORDS.get(log.forfeit, log.forfeit)
        log.forfeit_words = words  # type: ignore[attr-defined]  # for the template
    return render(
        request,
        "bots/logs.html",
        {
            "bot": bot,
            "page": page,
            "rates": selectors.bot_forfeit_rates(bot, viewer=request.user),
            "kept": settings.BOT_LOG_MATCHES,
        },
    )


def match_replay(request: HttpRequest, pk: int) -> HttpResponse:
    """A bot match step by step; `?step=k` shows the table after k events (`&fragment=1`: the frame alone)."""
    match = get_object_or_404(Match.objects.select_related("challenge_match__challenge"), pk=pk)
    if not match_visible(match, request.user):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied("this match belongs to another user's challenge")
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
        "challenge_game": getattr(match, "challenge_match", None),
    }
    template = "bots/_frame.html" if request.GET.get("fragment") else "bots/replay.html"
    return render(request, template, context)


# Ladders ----------------------------------------------------------------------------------------------------


def ladder_list(request: HttpRequest) -> HttpResponse:
    ladders = list(selectors.leagues_list(BotLeague.Kind.LADDER))
    for ladder in ladders:
        ladder.game_name = game_name(ladder.game_id)  # type: ignore[attr-defined]  # for the template
    return render(request, "bots/ladders.html", {"ladders": ladders})


def _own_bots(user, game_id: str):
    """The signed-in user's bots of a game (staff: every bot of it), latest versions only."""
    if not user.is_authenticated:
        return BotDefinition.objects.none()
    bots = selectors.current_versions().filter(game_id=game_id)
    return (bots if user.is_staff else bots.filter(created_by=user)).order_by("name", "-version")


def ladder_detail(request: HttpRequest, pk: int) -> HttpResponse:
    ladder = get_object_or_404(BotLeague, pk=pk, kind=BotLeague.Kind.LADDER)
    standings = selectors.ladder_standings(ladder)
    inside = {row.bot.pk for row in standings.current}
    own = list(_own_bots(request.user, ladder.game_id))
    context = {
        "ladder": ladder,
        "game_name": game_name(ladder.game_id),
        "standings": standings,
        "entered": [(row, standings.entered.get(row.bot.pk)) for row in standings.current],
        "retired": [(row, standings.left.get(row.bot.pk)) for row in standings.retired],
        "played": ladder.fixtures.filter(done=True).count(),
        "recent": selectors.league_recent_matches(ladder),
        "can_enter": [bot for bot in own if bot.pk not in inside and bot.pk not in standings.left],
        "can_withdraw": [bot for bot in own if bot.pk in inside],
        "can_control": request.user.is_staff,
    }
    return render(request, "bots/ladder.html", context)


@login_required
@require_POST
def ladder_entry(request: SignedInRequest, pk: int, action: str) -> HttpResponse:
    """Enter a bot of yours in the ladder, or withdraw it (the form's `bot`)."""
    service = {"enter": ladder_enter, "leave": ladder_leave}.get(action)
    bot_id = whole_number(request.POST.get("bot", ""))
    if service is None:
        raise Http404("no such ladder action")
    if bot_id is None or not ROW_IDS.contains(bot_id):
        messages.error(request, "choose one of your bots")
        return redirect("bots:ladder", pk=pk)
    try:
        event = service(ladder_id=pk, bot_id=bot_id, by=request.user)
    except NotFound:
        raise
    except UserError as exc:
        messages.error(request, exc.message)
        return redirect("bots:ladder", pk=pk)
    words = "enters the ladder" if action == "enter" else "leaves the ladder"
    messages.success(request, f"{event.bot.label} {words} at match {event.position + 1}.")
    return redirect("bots:ladder", pk=pk)


# Challenges -------------------------------------------------------------------------------------------------


class OpponentChoiceField(BotChoiceField):
    def label_from_instance(self, bot: BotDefinition) -> str:
        return bot.label


class GameSelect(forms.Select):
    """A select whose options carry their bot's game (the page shows the opponents of that game only)."""

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        if value:
            option["attrs"]["data-game"] = value.instance.game_id
        return option


class ChallengeForm(forms.Form):
    bot = forms.ModelChoiceField(queryset=BotDefinition.objects.none(), label="Your bot", widget=GameSelect)
    opponents = OpponentChoiceField(
        queryset=BotDefinition.objects.none(),
        widget=GameCheckboxes,
        help_text=(
            f"Bots of your bot's game (latest versions), at most {challenges.MAX_OPPONENTS}; every match "
            "seats all of them."
        ),
    )
    matches = forms.IntegerField(
        initial=20,
        help_text=f"Unrated; at most {challenges.MAX_MATCHES}.",
        **field_limits(challenges.MATCHES),
    )
    seed = forms.IntegerField(
        required=False, help_text="Empty: a random one.", **field_limits(challenges.SEED)
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        mine = selectors.current_versions().order_by("game_id", "name")
        if not user.is_staff:
            mine = mine.filter(created_by=user)
        self.fields["bot"].queryset = mine
        if not self.is_bound and len(mine[:2]) == 1:
            self.initial.setdefault("bot", mine[0].pk)  # their only bot: chosen already
        self.fields["bot"].label_from_instance = lambda bot: f"{bot.label} · {game_name(bot.game_id)}"
        self.fields["opponents"].queryset = selectors.current_versions().order_by("game_id", "name")


@login_required
def challenge_new(request: SignedInRequest) -> HttpResponse:
    form = ChallengeForm(request.POST or None, user=request.user, initial=request.GET.dict() or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            challenge = challenges.challenge_create(
                bot_id=data["bot"].pk,
                opponent_ids=[bot.pk for bot in data["opponents"]],
                matches=data["matches"],
                seed=data["seed"],
                by=request.user,
            )
        except UserError as exc:
            add_user_error(form, exc)
        else:
            messages.success(
                request, f"Challenge queued: {challenge.match_count} matches, behind the ladders' work."
            )
            return redirect(challenge)
    return render(
        request,
        "bots/challenge_new.html",
        {
            "form": form,
            "has_bots": form.fields["bot"].queryset.exists(),  # type: ignore[attr-defined]  # a ModelChoiceField
            "open_cap": challenges.OPEN_PER_USER,
        },
    )


@login_required
def challenge_list(request: SignedInRequest) -> HttpResponse:
    mine = list(selectors.challenges_of(request.user))
    for challenge in mine:
        challenge.game_name = game_name(challenge.game_id)  # type: ignore[attr-defined]  # for the template
    return render(request, "bots/challenges.html", {"challenges": mine})


def challenge_detail(request: HttpRequest, pk: int) -> HttpResponse:
    challenge = get_object_or_404(Challenge.objects.select_related("bot", "challenger"), pk=pk)
    if not challenges.may_see(challenge, request.user):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied("this challenge is its challenger's (and staff's) to see")
    lines = selectors.challenge_summary(challenge)
    games = list(selectors.challenge_games(challenge))
    return render(
        request,
        "bots/challenge.html",
        {
            "challenge": challenge,
            "game_name": game_name(challenge.game_id),
            "lines": lines,
            "games": games,
            "played": sum(1 for game in games if game.done and not game.void_reason),
            "voided": sum(1 for game in games if game.void_reason),
            "percent": round(100 * sum(1 for game in games if game.done) / challenge.match_count),
        },
    )
