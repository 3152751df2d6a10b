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
  under that version, the path and the query is served; missing, the view renders it and it is stored unless
  it holds anything of one visitor's: a CSRF token (a form), a cookie set, or a view's `no_share` mark (the
  standings of an earlier state, shown while newer ones are computed).

Signed-in visitors (an organizer's controls, a player's own table, the forms with their CSRF token) and link
holders (`private_links`) get their page rendered for them, as before: nothing of theirs is ever stored, and
nothing stored is ever shown to them. Every answer says `Cache-Control: no-cache` (a browser keeps it but asks
again, with its ETag) and `Vary: Cookie`.

Cached pages carry instants, never durations counted at render time: a round timer carries the instant it
ends (`data-ends-at`), and the browser counts down against the offset of its clock from the server's, read
from the `Date` header of each answer (`tournaments/live.js`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers

from league.tournaments.models import Tournament
from league.tournaments.services.common import names_version
from league.web.tournaments.common import tournament_or_404

# Bumped by hand when a change of the code changes what a shared page shows (a template, a selector); a
# deploy may also set PAGE_RELEASE (e.g. the commit) to change every version at once.
RELEASE = "1"
SHARED_PARAMETERS = frozenset({"page", "standings", "players", "fragment"})  # pagers, the live part
PARAMETER_LENGTH = 6  # a pager's page number; a longer value is nobody's page: rendered, not stored
SHARED_SECONDS = 6 * 3600  # a stored rendering outlives no event day (a new version replaces it anyway)


def release() -> str:
    return f"{RELEASE}.{getattr(settings, 'PAGE_RELEASE', '')}"


def etag_of(tournament: Tournament) -> str:
    """The ETag of the tournament's public pages in their current state."""
    return f'"t{tournament.pk}.{tournament.public_version}.n{names_version()}.r{release()}"'


def shareable(request: HttpRequest) -> bool:
    """Whether the request may be answered with the shared rendering: a GET (or HEAD) of a visitor who is not
    signed in, has no message waiting, and asks only for pager parameters."""
    if request.method not in ("GET", "HEAD"):
        return False
    for name, values in request.GET.lists():
        if name not in SHARED_PARAMETERS or len(values) != 1 or len(values[0]) > PARAMETER_LENGTH:
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


def cache_key(tag: str, request: HttpRequest) -> str:
    query = "&".join(f"{name}={request.GET[name]}" for name in sorted(request.GET))
    digest = hashlib.sha256(f"{tag}|{request.path}|{query}".encode()).hexdigest()[:32]
    return f"shared-page:{digest}"


def shared_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Serve `view` (whose first argument after the request is the tournament's slug) from the shared
    rendering of the tournament's current state where the request allows it (see the module)."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
        if not shareable(request):
            return _headers(view(request, slug, *args, **kwargs), None)
        tournament = tournament_or_404(request, slug)
        tag = etag_of(tournament)
        if _matches(request, tag):
            return _headers(HttpResponseNotModified(), tag)
        key = cache_key(tag, request)
        stored = cache.get(key)
        if stored is not None:
            content_type, body = stored
            return _headers(HttpResponse(body, content_type=content_type), tag)
        response = view(request, slug, *args, **kwargs)
        if _storable(request, response):
            cache.set(key, (response["Content-Type"], response.content), SHARED_SECONDS)
            return _headers(response, tag)
        return _headers(response, None)

    return wrapper
