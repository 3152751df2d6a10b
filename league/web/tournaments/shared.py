"""An event's public pages rendered once per state and shared by every visitor who is not signed in.

At a 1,000-player event every phone looks at the same few pages (the round, the event with its standings, a
player's path) within the same minute, and the live pages poll. Rendering each look from scratch serves about
40 a second on two cores; rendering each state once serves hundreds (bench/capacity.py, docs/production.md).

`shared_page` wraps such a view. For a visitor who is not signed in (no user, no messages waiting), asking
with no other query parameters than `SHARED_PARAMETERS`:

- the page's version is the tournament's `public_version` (bumped in the same transaction by every write that
  changes what its public pages show: `services.common.PUBLIC_WRITES`), the site-wide names version (bumped by
  every rename: `services.common.names_version`) and `RELEASE` (the code's: a deploy that changes a page
  changes it); its ETag is made of them;
- a request whose `If-None-Match` names that ETag is answered 304 at once, nothing rendered (one query: the
  tournament row, which every page reads to find the event and check that it may be seen);
- otherwise the rendering stored in the cache (Redis in production, shared by every web process and machine)
  under the tournament's id and public version, the release, the path and the query, if it was stored at the
  current names version (which is stored with it), is served; missing, the view renders it and it is stored
  unless it holds anything of one visitor's: a CSRF token (a form), a cookie set, or a view's `no_share` mark
  (the standings of an earlier state, shown while newer ones are computed).

A visitor whose browser sends no session cookie and no message cookie (nearly every phone at an event) is
answered earlier still, by the middleware `SharedPages` placed before the session's: the URL is resolved to
a shared page, the tournament's id, version and status read in one query of three columns, and the names
version and the stored page in one round trip to the cache; the 304 or the stored copy goes out with the same
headers as the view's path gives, without the session, authentication, CSRF, time zone, messages and axes
middleware or the view running (about 0.8 ms instead of 2.5 ms in one process; bench/capacity.py). Anything
it cannot answer (no stored copy of the current state, a draft, another parameter) goes the whole way.

Signed-in visitors (an organizer's controls, a player's own table, the forms with their CSRF token) and link
holders (`private_links`) get their page rendered for them, as before: nothing of theirs is ever stored, and
nothing stored is ever shown to them, with two exceptions for signed-in users who hold no role at the event
(organizer, scorekeeper, judge, staff): the live standings fragment that every open event page polls shows
them exactly what it shows a visitor, so they are served the same copy and its 304s
(`shared_page(members=...)`); and a round's page is the visitor's copy with their own header
(`_user_nav.html`, between the marks `<!--user-nav-->`) and, under self-report, the link to their table
after its card's mark (`shared_page(splice=...)`), without an ETag. Tests render both for them with sharing
off and compare the bytes. Every answer says `Cache-Control: no-cache` (a browser keeps it but asks again,
with its ETag) and `Vary: Cookie`.

Cached pages carry instants, never durations counted at render time: a round timer carries the instant it
ends (`data-ends-at`), and the browser counts down against the offset of its clock from the server's, read
from the `Date` header of each answer (`tournaments/live.js`).
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve
from django.utils.cache import patch_vary_headers

from league.tournaments import selectors
from league.tournaments.models import Tournament
from league.tournaments.services.common import NAMES_VERSION_KEY, names_version
from league.web.tournaments.common import tournament_or_404

# Bumped by hand when a change of the code changes what a shared page shows (a template, a selector); a
# deploy may also set PAGE_RELEASE (e.g. the commit) to change every version at once.
RELEASE = "1"
SHARED_PARAMETERS = frozenset({"page", "standings", "players", "fragment"})  # pagers, the live part
PARAMETER_LENGTH = 6  # a pager's page number; a longer value is nobody's page: rendered, not stored
SHARED_SECONDS = 6 * 3600  # a stored rendering outlives no event day (a new version replaces it anyway)
EARLY_PREFIX = "/tournaments/"  # every shared page is under it: other addresses are not even resolved early
MESSAGES_COOKIE = CookieStorage.cookie_name


def release() -> str:
    return f"{RELEASE}.{getattr(settings, 'PAGE_RELEASE', '')}"


def etag_of(tournament: Tournament) -> str:
    """The ETag of the tournament's public pages in their current state."""
    return _tag(tournament.pk, tournament.public_version, names_version())


def _tag(pk: int, version: int, names: int) -> str:
    return f'"t{pk}.{version}.n{names}.r{release()}"'


def _parameters_shareable(request: HttpRequest) -> bool:
    for name, values in request.GET.lists():
        if name not in SHARED_PARAMETERS or len(values) != 1 or len(values[0]) > PARAMETER_LENGTH:
            return False
    return True


def shareable(request: HttpRequest) -> bool:
    """Whether the request may be answered with the shared rendering: a GET (or HEAD) of a visitor who is not
    signed in, has no message waiting, and asks only for pager parameters."""
    if request.method not in ("GET", "HEAD") or not _parameters_shareable(request):
        return False
    if request.user.is_authenticated:
        return False
    return not len(messages.get_messages(request))


def _matches(request: HttpRequest, tag: str) -> bool:
    sent = request.META.get("HTTP_IF_NONE_MATCH", "")
    return any(part.strip().removeprefix("W/") == tag for part in sent.split(","))


def _storable(request: HttpRequest, response: HttpResponse) -> bool:
    """Nothing of this visitor's is in `response`: no CSRF token asked for, no cookie, no view's mark."""
    return (
        response.status_code == 200
        and not response.streaming
        and not response.cookies
        and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
        and not getattr(response, "no_share", False)
        and b"csrfmiddlewaretoken" not in response.content
    )


def _headers(response: HttpResponse, tag: str | None) -> HttpResponse:
    if tag is not None:
        response["ETag"] = tag
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("Cookie",))
    return response


def cache_key(pk: int, version: int, request: HttpRequest) -> str:
    """Where the rendering of `request`'s page at the tournament's public version `version` is stored. The
    names version is not part of the key but of the stored value (`_stored`), so that one round trip to the
    cache reads both the current names version and the page (`SharedPages`)."""
    query = "&".join(f"{name}={request.GET[name]}" for name in sorted(request.GET))
    digest = hashlib.sha256(f"t{pk}.{version}.r{release()}|{request.path}|{query}".encode()).hexdigest()[:32]
    return f"shared-page:{digest}"


def _stored(found: dict, key: str, names: int) -> tuple[str, bytes] | None:
    """The stored rendering under `key` in `found` (a `get_many`'s answer), if it is of names version
    `names`: (content type, body)."""
    stored = found.get(key)
    if stored is None or stored[0] != names:
        return None
    return stored[1], stored[2]


# One rendering of a page and state at a time, on every web process and machine: the first look takes
# `<key>:rendering` (cache.add) and renders; a look that finds it taken waits for that copy, asking the cache
# every RENDER_POLL_SECONDS, up to RENDER_WAIT_SECONDS (then, or if the mark says ALONE: the page is not one
# to store, or the rendering failed and removed the mark, it renders its own). Without it, the moment after a
# result, each of the web's processes rendered the same pages and computed the same standings at once.
RENDERING, ALONE = "rendering", "alone"
RENDER_WAIT_SECONDS = 3.0
RENDER_POLL_SECONDS = 0.01


def _rendered_elsewhere(key: str, rendering: str, names: int) -> tuple[str, bytes] | None:
    """The copy another process is rendering under `key`, once stored; None when it will not come (the mark
    says ALONE or is gone without a copy) or is not stored within RENDER_WAIT_SECONDS."""
    deadline = time.monotonic() + RENDER_WAIT_SECONDS
    while True:
        found = cache.get_many([key, rendering])
        stored = _stored(found, key, names)
        if stored is not None or found.get(rendering) != RENDERING or time.monotonic() >= deadline:
            return stored
        time.sleep(RENDER_POLL_SECONDS)


def _for_members(request: HttpRequest, slug: str) -> bool:
    """Whether a signed-in user, with no message waiting, holds no role at the event (organizer,
    scorekeeper, judge or site staff: `selectors.can_score`), which alone changes what its pages show
    them besides their own header and table (drafts, full names, controls)."""
    if len(messages.get_messages(request)):
        return False
    return not selectors.can_score(request.user, tournament_or_404(request, slug))


USER_NAV = re.compile(r"<!--user-nav-->.*?<!--/user-nav-->", re.DOTALL)


def with_own_header(request: HttpRequest, body: str) -> str:
    """`body` (a page rendered for a visitor) with the signed-in user's own header (`_user_nav.html`: their
    name, inbox count and the log-out form with its CSRF token) in place of the visitor's."""
    nav = render_to_string("_user_nav.html", request=request)
    return USER_NAV.sub(lambda _: f"<!--user-nav-->{nav}<!--/user-nav-->", body, count=1)


Splice = Callable[[HttpRequest, Tournament, str], str]


def shared_page(
    view: Callable[..., HttpResponse] | None = None,
    *,
    members: Callable[[HttpRequest], bool] | None = None,
    splice: Splice | None = None,
) -> Any:
    """Serve `view` (whose first argument after the request is the tournament's slug) from the shared
    rendering of the tournament's current state where the request allows it (see the module). For signed-in
    users without a role at the event (`_for_members`):

    - `members`, a predicate of the request: where it holds, they are served the very same copy, with its
      ETag (the live standings fragment);
    - `splice`: they are served the visitor's copy with their own header put in (`with_own_header`) and then
      `splice(request, tournament, body)` adding their own parts (a round page: the link to their table).
      Their answer has no ETag (their header changes with their inbox). No visitor's copy stored yet: their
      page is rendered for them, and not stored.

    tests/league/tournaments/test_shared_pages.py renders both for them with sharing off and compares."""
    if view is None:
        return lambda view: shared_page(view, members=members, splice=splice)

    def mode_of(request: HttpRequest, slug: str) -> str | None:
        if not request.user.is_authenticated:
            return "public" if shareable(request) else None
        if request.method not in ("GET", "HEAD") or not _parameters_shareable(request):
            return None
        if members is not None and members(request) and _for_members(request, slug):
            return "public"
        if splice is not None and _for_members(request, slug):
            return "splice"
        return None

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
        mode = mode_of(request, slug)
        if mode is None:
            return _headers(view(request, slug, *args, **kwargs), None)
        tournament = tournament_or_404(request, slug)
        names = names_version()
        tag = _tag(tournament.pk, tournament.public_version, names)
        key = cache_key(tournament.pk, tournament.public_version, request)
        if mode == "splice" and splice is not None:
            stored = _stored({key: cache.get(key)}, key, names)
            if stored is None:
                return _headers(view(request, slug, *args, **kwargs), None)
            content_type, body = stored
            own = splice(request, tournament, with_own_header(request, body.decode()))
            return _headers(HttpResponse(own, content_type=content_type), None)
        if _matches(request, tag):
            return _headers(HttpResponseNotModified(), tag)
        stored = _stored({key: cache.get(key)}, key, names)
        rendering = f"{key}:rendering"
        held = stored is None and cache.add(rendering, RENDERING, RENDER_WAIT_SECONDS)
        if stored is None and not held:
            stored = _rendered_elsewhere(key, rendering, names)
        if stored is not None:
            content_type, body = stored
            return _headers(HttpResponse(body, content_type=content_type), tag)
        try:
            response = view(request, slug, *args, **kwargs)
        except BaseException:
            if held:
                cache.delete(rendering)  # the others render it themselves
            raise
        if _storable(request, response):
            cache.set(key, (names, response["Content-Type"], response.content), SHARED_SECONDS)
            if held:
                cache.delete(rendering)
            return _headers(response, tag)
        cache.set(rendering, ALONE, SHARED_SECONDS)  # nothing to wait for: each renders its own
        return _headers(response, None)

    wrapper.shared_page = True  # type: ignore[attr-defined]  # what SharedPages answers early
    return wrapper


# --- The early answer: before the session, authentication, CSRF and the URL's view ----------------------


def _public_state(slug: str) -> tuple[int, int] | None:
    """(id, public version) of the tournament `slug` if anybody may see it (not a draft); one query of three
    columns, no model built."""
    table, status = Tournament._meta.db_table, Tournament.Status.DRAFT
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id, public_version, status FROM {table} WHERE slug = %s",  # noqa: S608 (names of ours)
            [slug],
        )
        row = cursor.fetchone()
    if row is None or row[2] == status:
        return None
    return row[0], row[1]


def early_answer(request: HttpRequest) -> HttpResponse | None:
    """The answer to a look at a shared page by a visitor who sends no session and no message cookie, from
    the tournament's row and the cache alone (one query, one round trip to the cache): a 304 when their
    copy is current, the stored rendering when there is one of the current state; None otherwise (the
    request goes on through the middleware to its view, which renders and stores it)."""
    if request.method != "GET" or not request.path_info.startswith(EARLY_PREFIX):
        return None
    if settings.SESSION_COOKIE_NAME in request.COOKIES or MESSAGES_COOKIE in request.COOKIES:
        return None
    if not _parameters_shareable(request):
        return None
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    if not getattr(match.func, "shared_page", False) or "slug" not in match.kwargs:
        return None
    state = _public_state(match.kwargs["slug"])
    if state is None:
        return None
    pk, version = state
    key = cache_key(pk, version, request)
    if request.META.get("HTTP_IF_NONE_MATCH"):
        names = names_version()
        tag = _tag(pk, version, names)
        if _matches(request, tag):
            return _early_headers(HttpResponseNotModified(), tag)
        found = {key: cache.get(key)}
    else:
        found = cache.get_many([NAMES_VERSION_KEY, key])
        if NAMES_VERSION_KEY not in found:
            return None
        names = int(found[NAMES_VERSION_KEY])
        tag = _tag(pk, version, names)
    stored = _stored(found, key, names)
    if stored is None:
        return None
    content_type, body = stored
    return _early_headers(HttpResponse(body, content_type=content_type), tag)


def _early_headers(response: HttpResponse, tag: str) -> HttpResponse:
    """What the middleware after `SharedPages` would have added to the answer (X-Frame-Options; the answer
    sets no cookie), and the shared answer's own headers: the same headers as the view's path gives
    (tests/league/tournaments/test_shared_pages.py compares them)."""
    response["X-Frame-Options"] = getattr(settings, "X_FRAME_OPTIONS", "DENY").upper()
    response["Content-Length"] = str(len(response.content))  # as CommonMiddleware sets it (0 on a 304)
    return _headers(response, tag)


class SharedPages:
    """Middleware, placed before the session's: answers a look at a shared page by a visitor without a
    session from the cache (`early_answer`), before the session, authentication, CSRF, time zone, messages
    and axes middleware and the URL's view run. Everything else goes on unchanged."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        answer = early_answer(request)
        return answer if answer is not None else self.get_response(request)
