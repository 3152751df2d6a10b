"""Bots' pages: the list, a bot's page, uploading a bot, my bots and their logs, and a bot match's replay."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from games.core.errors import ReplayError
from games.viewer.drawing import replay_frame
from league.bots import pages, selectors, uploads
from league.bots.ladder_versions import ladder_versions
from league.bots.models import BotDefinition
from league.bots.pages import STARTUP_SECONDS
from league.bots.services.definitions import TIME_BANK_DEFAULT, TIME_BANK_SECONDS
from league.bots.version_test_pages import bot_version_tests
from league.core.bodies import takes_body
from league.core.catalogue import game_choices, game_name
from league.core.errors import UserError
from league.core.forms import add_user_error
from league.core.http import SignedInRequest
from league.matches.models import Match
from league.matches.selectors import match_visible, verification_of
from league.programs.runtimes import NODE_ADDRESS_SPACE_MB
from league.programs.uploads import bots_python
from league.web.bots.play import play_context

# A record's forfeit codes (games.core.record.FORFEIT_REASONS), as the replay page says them.
FORFEIT_WORDS = {
    "illegal_action": "an illegal action",
    "timeout": "out of time",
    "crashed": "the bot crashed",
    "protocol_error": "an answer that broke the bot protocol",
    "limit_exceeded": "over a limit (CPU time, file size or answer size)",
}


def bot_list(request: HttpRequest) -> HttpResponse:
    bots = list(selectors.bots_list())
    for bot in bots:
        bot.game_name = game_name(bot.game_id)  # type: ignore[attr-defined]  # for the template
    return render(request, "bots/bots.html", {"bots": bots})


def bot_detail(request: HttpRequest, pk: int) -> HttpResponse:
    page = pages.bot_page(pk, request.user)
    return render(
        request,
        "bots/bot.html",
        {**vars(page), **play_context(request, page.bot), **bot_version_tests(page.bot, request.user)},
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
            "One Python, JavaScript or C file, or a zip or tar(.gz) archive with bot.toml or manifest.json "
            "naming its entry point (see the docs: Limits and runtimes). The runtime's standard library only."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".py,.js,.mjs,.cjs,.c,.zip,.tar,.tgz,.gz,.bz2,.xz"}),
    )
    runtime = forms.ChoiceField(
        required=False,
        choices=[
            ("", "As its manifest or file name says"),
            ("python", "Python 3"),
            ("node", "JavaScript (Node.js)"),
            ("c", "C (compiled by cc at its check)"),
        ],
        help_text="A manifest's runtime or the entry point's extension (.py, .js, .c) says it; "
        "choose only to be sure.",
    )
    description = forms.CharField(required=False, max_length=5000, widget=forms.Textarea(attrs={"rows": 3}))
    time_bank_seconds = forms.FloatField(
        label="Time bank (seconds per match)",
        required=False,
        initial=TIME_BANK_DEFAULT,
        min_value=TIME_BANK_SECONDS.low,
        max_value=TIME_BANK_SECONDS.high,
        help_text="An answer over the move time draws on it; an empty bank forfeits the seat (a time-out).",
    )


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
                time_bank_seconds=(
                    TIME_BANK_DEFAULT if data["time_bank_seconds"] is None else data["time_bank_seconds"]
                ),
                filename=getattr(data["file"], "name", "") or "",
                runtime=data["runtime"],
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
            "python_version": bots_python(),
            "node_extra_mb": NODE_ADDRESS_SPACE_MB,
            "build_cpu": settings.BOT_BUILD_CPU_SECONDS,
            "build_memory": settings.BOT_BUILD_MEMORY_MB,
            "move_seconds": BotDefinition._meta.get_field("move_seconds").default,
            "startup_seconds": STARTUP_SECONDS,
        },
        status=400 if form.errors else 200,
    )


@login_required
def my_bots(request: SignedInRequest) -> HttpResponse:
    bots = selectors.my_bots(request.user)
    ladders = ladder_versions([version for bot in bots for version in bot.versions])
    for bot in bots:
        bot.game_name = game_name(bot.game_id)
        bot.ladders = ladders.get((request.user.pk, bot.game_id, bot.name), [])  # type: ignore[attr-defined]
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
            (forfeit["seat"], forfeit["event"], FORFEIT_WORDS.get(forfeit["reason"], forfeit["reason"]))
            for forfeit in record["end"]["forfeits"]
        ],
        "game_name": game_name(match.game_id),
        "fixture": getattr(match, "bot_fixture", None),
        "verification": verification_of(match),
        "challenge_game": getattr(match, "challenge_match", None),
    }
    template = "bots/_frame.html" if request.GET.get("fragment") else "bots/replay.html"
    return render(request, template, context)
