"""The bot authors' docs (/bots/docs/): how to write a bot, the protocol, the limits and runtimes, the local
runner, each game's observation and action reference, and the starter kits and engines as zip files. Open to
everyone; what they show comes from `league.bots.docs`."""

from __future__ import annotations

import json
import re

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_safe

from league.bots import docs

SECTIONS = {
    "start": ("bots/docs/start.html", "Write a bot"),
    "protocol": ("bots/docs/protocol.html", "The bot protocol"),
    "limits": ("bots/docs/limits.html", "Limits and runtimes"),
    "local": ("bots/docs/local.html", "Playing locally"),
}


CODE_SPAN = re.compile(r"`([^`]+)`")


def code_spans(text: str) -> SafeString:
    """A reference's text as HTML: escaped, each `span` in backticks as code."""
    return mark_safe(CODE_SPAN.sub(r"<code>\1</code>", escape(text)))  # escaped first


def _section(request: HttpRequest, key: str) -> HttpResponse:
    template, title = SECTIONS[key]
    page = docs.docs_page()
    context = dict(vars(page), offered_runtimes=page.offered_runtimes)
    context.update(section=key, title=title)
    return render(request, template, context)


@require_safe
def docs_start(request: HttpRequest) -> HttpResponse:
    return _section(request, "start")


@require_safe
def docs_protocol(request: HttpRequest) -> HttpResponse:
    return _section(request, "protocol")


@require_safe
def docs_limits(request: HttpRequest) -> HttpResponse:
    return _section(request, "limits")


@require_safe
def docs_local(request: HttpRequest) -> HttpResponse:
    return _section(request, "local")


@require_safe
def docs_game(request: HttpRequest, game_id: str) -> HttpResponse:
    page = docs.game_docs_page(game_id)
    context = dict(vars(page))
    reference = page.reference
    context.update(
        section=f"game:{page.id}",
        title=page.name,
        summary_html=code_spans(reference.summary),
        decisions_html=code_spans(reference.decisions),
        observation_rows=[(entry.name, code_spans(entry.text)) for entry in reference.observation],
        action_rows=[(entry.name, code_spans(entry.text)) for entry in reference.actions],
        options=[{**option, "default_json": json.dumps(option["default"])} for option in page.options],
        others=range(page.example.num_players - 1),
    )
    return render(request, "bots/docs/game.html", context)


def _download(name: str, data: bytes) -> HttpResponse:
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Content-Length"] = str(len(data))
    return response


@require_safe
def docs_kit(request: HttpRequest, game_id: str, language: str) -> HttpResponse:
    return _download(*docs.kit_archive(game_id, language))


@require_safe
def docs_engines(request: HttpRequest) -> HttpResponse:
    return _download(*docs.engines_archive())
