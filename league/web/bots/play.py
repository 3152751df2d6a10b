"""'Play this bot now' on a bot's page: the form (one of the visitor's ready bots of that game, and a number
of matches) and its post, which queues an unrated challenge (`league.bots.services.play_now`)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from league.bots import pages, selectors
from league.bots.models import BotDefinition
from league.bots.services import challenges
from league.bots.services.leagues import retired
from league.bots.services.play_now import MATCHES_DEFAULT, play_now
from league.core.errors import UserError
from league.core.forms import add_user_error
from league.core.http import SignedInRequest
from league.web.bots.leagues import field_limits


class PlayNowForm(forms.Form):
    bot = forms.ModelChoiceField(queryset=BotDefinition.objects.none(), label="Your bot", empty_label=None)
    # Not named "matches": a form control of that name would hide the form element's own `matches()`.
    match_count = forms.IntegerField(
        label="Matches",
        initial=MATCHES_DEFAULT,
        help_text=f"Unrated; at most {challenges.MAX_MATCHES}.",
        **field_limits(challenges.MATCHES),
    )

    def __init__(self, *args: Any, user, opponent: BotDefinition, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        mine = selectors.current_versions().filter(game_id=opponent.game_id).exclude(pk=opponent.pk)
        if not user.is_staff:
            mine = mine.filter(created_by=user)
        self.fields["bot"].queryset = mine.order_by("name", "-version")  # type: ignore[attr-defined]
        self.fields["bot"].label_from_instance = lambda bot: bot.label  # type: ignore[attr-defined]


def play_context(request: HttpRequest, bot: BotDefinition, form: PlayNowForm | None = None) -> dict[str, Any]:
    """What the bot page's 'Play this bot now' part shows: `play` is "sign_in" (anonymous), "newer" (an older
    version: play the newest), "not_ready", "no_bots" (the visitor has no ready bot of the game) or "form"."""
    if not request.user.is_authenticated:
        return {"play": "sign_in", "play_form": None}
    if not bot.is_ready:
        return {"play": "not_ready", "play_form": None}
    if retired(bot):
        return {"play": "newer", "play_form": None}
    form = form or PlayNowForm(user=request.user, opponent=bot)
    if not form.fields["bot"].queryset.exists():  # type: ignore[attr-defined]  # a ModelChoiceField
        return {"play": "no_bots", "play_form": None}
    return {"play": "form", "play_form": form, "open_cap": challenges.OPEN_PER_USER}


@login_required
@require_POST
def bot_play(request: SignedInRequest, pk: int) -> HttpResponse:
    """Queue a challenge of the chosen bot of yours against bot `pk`; the bot page with the form's errors
    (400) when it is refused."""
    opponent = get_object_or_404(BotDefinition, pk=pk)
    form = PlayNowForm(request.POST, user=request.user, opponent=opponent)
    if form.is_valid():
        try:
            challenge = play_now(
                opponent_id=opponent.pk,
                bot_id=form.cleaned_data["bot"].pk,
                matches=form.cleaned_data["match_count"],
                by=request.user,
            )
        except UserError as exc:
            add_user_error(form, exc)
        else:
            messages.success(
                request,
                f"Challenge queued: {challenge.match_count} unrated matches of {challenge.bot.label} against "
                f"{opponent.label}, behind the ladders' work.",
            )
            return redirect(challenge)
    page = pages.bot_page(pk, request.user)
    context = {**vars(page), **play_context(request, page.bot, form)}
    if context["play_form"] is None:  # the page offers no form any more (e.g. the bot was replaced)
        context["play_errors"] = form.errors
    return render(request, "bots/bot.html", context, status=400)
