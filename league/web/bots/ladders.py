"""Ladders' and challenges' pages: the ladders, a ladder with entering and leaving it, and challenges between
bots (new, mine, one)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from league.bots import selectors
from league.bots.models import BotDefinition, BotLeague, Challenge
from league.bots.services import challenges
from league.bots.services.ladders import ladder_enter, ladder_leave
from league.core.bounds import ROW_IDS, whole_number
from league.core.catalogue import game_name
from league.core.errors import NotFound, UserError
from league.core.forms import add_user_error
from league.core.http import SignedInRequest
from league.web.bots.leagues import BotChoiceField, GameCheckboxes, field_limits


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
            "ahead": selectors.challenge_ahead(challenge),
        },
    )
