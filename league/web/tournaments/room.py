"""Pages for the room at an event: print views, the projector, the round timer's controls and the embeddable
standings and bracket. Thin views over the same selectors as the tournament pages
(`league.web.tournaments`).

- **Print views** of a round follow the round page's visibility (published rounds for everyone, drafts for
  their organizers): the pairings by table and by name, and the score slips, one per table on its own printed
  page. Nothing on them is more than the round page shows, so a table judge without an organizer's rights
  may print them too; the round page links them for organizers.
- **The projector view** shows the current round (the latest published one, else the latest round) and the
  standings in large type, never a draft and never a control, for whoever looks at it; it refreshes itself.
- **The round timer** is run from the round page through `services.round_timer_*` (organizers and staff).
- **The embed** (`/embed/`, and `?embed=1` on the tournament page) is the one page that other sites may frame:
  `X-Frame-Options` is left off and its Content-Security-Policy says `frame-ancestors *`, where every other
  page keeps Django's `X-Frame-Options: DENY` and `frame-ancestors 'none'` (settings.CONTENT_SECURITY_POLICY).
  It is drawn for an anonymous visitor whoever asks (no request context: no user, no CSRF token, no session
  read), so it holds no form or control even for an organizer.
"""

from __future__ import annotations

from collections.abc import Callable

import segno
from csp.decorators import csp_replace
from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_POST

from league.accounts.zones import reads_no_session
from league.core.bounds import whole_number
from league.core.catalogue import game_name, game_spec
from league.core.errors import UserError
from league.tournaments import (
    floor_selectors,
    pages,
    round_selectors,
    seating,
    selectors,
    services,
    snapshots,
)
from league.tournaments.history import load_history
from league.tournaments.models import Round, Tournament
from league.web.drawing import bracket
from league.web.tournaments.common import require_organizer, round_or_404, tournament_or_404
from league.web.tournaments.rounds import round_page_response

PROJECTOR_TOP = 12  # standings rows on the projector unless ?top= says otherwise
PROJECTOR_MAX_TOP = 1000
EMBED_SHOWS = ("all", "standings", "bracket")
PROJECTOR_SHOWS = ("all", "round", "standings")


def _round_context(request: HttpRequest, slug: str, number: int) -> dict:
    tournament = tournament_or_404(request, slug)
    organizer = selectors.is_organizer(request.user, tournament)
    _, _, view = pages.round_state(tournament, number, organizer)
    return {
        "tournament": tournament,
        "game_name": game_name(tournament.game_id),
        "organizer": organizer,
        "round": view,
        "extended": _extended(view),
    }


def _extended(view) -> dict:
    """Table id → its extra time (`floor_selectors.ExtendedTable`) in a published round; empty otherwise."""
    if view is None or view.row.status != Round.Status.PUBLISHED:
        return {}
    return {item.id: item for item in floor_selectors.extended_tables(view.row)}


def round_print(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round's pairings for the wall: by table (seats in order, seat 1 starts) and by name (alphabetical,
    with table and seat). `?list=tables` or `?list=names` prints only one of them."""
    context = _round_context(request, slug, number)
    shown = request.GET.get("list", "both")
    context.update(
        {
            "by_table": shown != "names",
            "by_name": shown != "tables",
            "rows": round_selectors.find_my_table(context["round"]),
            "seat_columns": range(
                1, max((len(table.seats) for table in context["round"].tables), default=0) + 1
            ),
        }
    )
    return render(request, "tournaments/room/pairings.html", context)


def table_qr(address: str) -> SafeString:
    """A slip's QR code of `address` as inline SVG (segno, medium error correction, a 4-module quiet zone),
    sized by its viewBox so that print and screen scale it."""
    svg = segno.make(address, error="m").svg_inline(omitsize=True, border=4, dark="#000", light="#fff")
    return mark_safe(svg)  # noqa: S308 - segno's drawing of modules, no text of the address


def table_address(slug: str, round_number: int, table_number: int) -> str:
    """The absolute address of a table's public page (the site's address, `SITE_URL`): a slip's QR code."""
    return settings.SITE_URL + reverse("tournaments:table", args=[slug, round_number, table_number])


def round_slips(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A score slip per table, each on its own printed page: the table's physical number, its QR code (the
    table's public page: reporting there still takes a private link or an account) and its short code (for
    the keypad entry page)."""
    context = _round_context(request, slug, number)
    context["spec"] = game_spec(context["tournament"].game_id)
    context["slips"] = [
        (
            table,
            table_qr(table_address(slug, number, table.number)),
            seating.short_code(number, table.physical),
        )
        for table in context["round"].tables
    ]
    return render(request, "tournaments/room/slips.html", context)


def _current_round(round_views: list) -> object | None:
    """The round the room is playing: the latest published round, else the latest round (complete)."""
    published = [view for view in round_views if view.row.status == Round.Status.PUBLISHED]
    if published:
        return published[-1]
    return round_views[-1] if round_views else None


def _choice(request: HttpRequest, name: str, choices: tuple[str, ...]) -> str:
    value = request.GET.get(name, choices[0])
    return value if value in choices else choices[0]


def projector(request: HttpRequest, slug: str) -> HttpResponse:
    """The current round and the standings for a screen across the room. `?show=round` or `?show=standings`
    shows one of them (two screens); `?top=N` shows N standings rows (default 12)."""
    tournament = selectors.visible_tournament(slug, None)  # a screen shows what everyone may see
    if tournament is None:
        raise Http404("no such tournament")
    history = load_history(tournament)
    round_views = round_selectors.rounds(history, include_drafts=False)
    top = whole_number(request.GET.get("top", ""))
    top = PROJECTOR_TOP if top is None or not 1 <= top <= PROJECTOR_MAX_TOP else top
    standings = snapshots.standings_list(tournament, history, allow_stale=True)
    current = _current_round(round_views)
    context = {
        "tournament": tournament,
        "short_names": tournament.short_names,  # the screen shows what the public sees
        "game_name": game_name(tournament.game_id),
        "round": current,
        "extended": _extended(current),
        "show": _choice(request, "show", PROJECTOR_SHOWS),
        "standings": standings[:top],
        "stale_seconds": standings.stale_seconds,
        "more": max(0, len(standings) - top),
        "live_seconds": settings.TOURNAMENT_LIVE_SECONDS
        if tournament.status != Tournament.Status.FINISHED
        else None,
    }
    return render(request, "tournaments/room/projector.html", context)


@reads_no_session
@xframe_options_exempt
@csp_replace({"frame-ancestors": "*"})  # type: ignore[arg-type]  # django-csp types views as (request) only
def embed(request: HttpRequest, slug: str) -> HttpResponse:
    """Standings and bracket for another site's page (`?show=standings` or `?show=bracket` for one of them).
    Drawn without the request: the same bytes for everyone, never a control."""
    tournament = selectors.visible_tournament(slug, None)
    if tournament is None:
        raise Http404("no such tournament")
    history = load_history(tournament)
    round_views = round_selectors.rounds(history, include_drafts=False)
    show = _choice(request, "show", EMBED_SHOWS)
    context = {
        "tournament": tournament,
        "short_names": tournament.short_names,  # everyone sees the embed as the public does
        "game_name": game_name(tournament.game_id),
        "show_standings": show != "bracket",
        "show_bracket": show != "standings",
        "standings": snapshots.standings_list(tournament, history, allow_stale=True),
        "tiebreak_columns": [name for name in tournament.tiebreaks if name not in ("points", "seed")],
        "drawings": bracket.bracket(
            history,
            round_views,
            round_url=lambda n: reverse("tournaments:round", args=[tournament.slug, n]),
            short_names=tournament.short_names,
        ),
        "live_seconds": 2 * settings.TOURNAMENT_LIVE_SECONDS
        if tournament.status == Tournament.Status.RUNNING
        else None,
    }
    return HttpResponse(render_to_string("tournaments/room/embed.html", context))


def _minutes(request: HttpRequest) -> int:
    minutes = whole_number(request.POST.get("minutes", "").strip())
    if minutes is None:
        raise UserError("give the minutes as a whole number", field="minutes")
    return minutes


TIMER_ACTIONS: dict[str, tuple[Callable, str]] = {
    "start": (
        lambda request, **kw: services.round_timer_start(minutes=_minutes(request), **kw),
        "Timer started.",
    ),
    "pause": (lambda request, **kw: services.round_timer_pause(**kw), "Timer paused."),
    "resume": (lambda request, **kw: services.round_timer_resume(**kw), "Timer running again."),
    "extend": (
        lambda request, **kw: services.round_timer_extend(minutes=_minutes(request), **kw),
        "Timer extended.",
    ),
    "reset": (lambda request, **kw: services.round_timer_reset(**kw), "Timer reset."),
}


@require_POST
def round_timer(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The round page's timer controls: `action` start, pause, resume, extend or reset; `minutes` for start
    and extend."""
    tournament = tournament_or_404(request, slug)
    denied = require_organizer(request, tournament)
    if denied:
        return denied
    round_row = round_or_404(tournament, number)
    entry = TIMER_ACTIONS.get(request.POST.get("action", ""))
    try:
        if entry is None:
            raise UserError("choose start, pause, resume, extend or reset", field="action")
        handler, message = entry
        handler(request, round_row=round_row, by=request.user)
    except UserError as exc:
        return round_page_response(request, tournament, number, status=exc.status, error=exc.message)
    messages.success(request, message)
    return redirect(round_row.get_absolute_url())
