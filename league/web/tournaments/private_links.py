"""Pages of registrations' private links: the holder's page, and the organizers' page that issues them.

The holder's page (`/p/<token>/`) needs no account and no cookie: the token in the path is the credential,
and its forms post back to the same address. It shows the holder's table in the current round and lets them
report or confirm that table's result through the tournament's self-report rules (`services.table_report`,
`table_confirm`, with the link's player as the holder), leave an email address to be told when their
table is out, and nothing else. Its forms are exempt from CSRF: no cookie authenticates them, so a forged
cross-site post would need the token, which is the secret itself. Attaching the player to an account
(`/p/<token>/attach/`) does use the session, so it keeps Django's CSRF check.

Throttles: each link answers `PRIVATE_LINK_REQUESTS_PER_LINK_HOUR` requests an hour; a client address that
sent `PRIVATE_LINK_FAILURES_PER_CLIENT_HOUR` unknown, revoked or expired tokens this hour gets 429 for every
link, good ones too, so that guessing stops (not at a venue's declared address, where only the limit per
link counts). Every answer carries `Referrer-Policy: no-referrer` and `Cache-Control: no-store`, so the
token leaves in no Referer header and stays in no shared cache.

The organizers' page (`/tournaments/<slug>/private-links/`) lists the registrations with their links'
state, issues, reissues (the old token dies) and revokes them, and declares the venue's address. A token
is shown once, on the personal slip the issue answers with (the link large enough to type, and as a QR code
to scan from the organizer's screen); it is never on score slips, table cards, the projector or any page the
table shares.
"""

from __future__ import annotations

from datetime import date
from typing import cast

import segno
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login as login_redirect
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from league.core.checks import is_int
from league.core.errors import UserError
from league.core.throttling import WINDOW_SECONDS, client_address, declared_venue, take, used_up
from league.players.models import Player
from league.results.forms import ResultForm
from league.tournaments import (
    floor_selectors,
    link_selectors,
    report_selectors,
    round_selectors,
    selectors,
    services,
)
from league.tournaments.formats import table_cut
from league.tournaments.forms import AdvancingForm
from league.tournaments.models import PrivateLink, Registration, Table, Tournament
from league.tournaments.services import floor
from league.web.tournaments.detail import detail_response

NO_LINK = (
    "This private link does not work: it was never issued, or it was reissued or revoked, or its event ended "
    "more than a week ago. Ask an organizer for a new one."
)
DONE = {
    "report": "Result reported: it counts once the others at the table confirm it.",
    "confirm": "Confirmed.",
    "stored": "Confirmed: everyone agreed, the result is stored.",
    "withdraw": "Your report is taken back: report the result again once it is right.",
    "call": "A judge is called: stay at your table, they come as soon as they can.",
    "email": "Saved: we mail you when your next table is out.",
    "email_cleared": "Address removed: we mail you nothing.",
}
LISTED = (
    Registration.Status.ACTIVE,
    Registration.Status.WAITLISTED,
    Registration.Status.PENDING,
    Registration.Status.DROPPED,
    Registration.Status.NO_SHOW,
)


def link_qr(url: str) -> SafeString:
    """The QR code of a private link, as inline SVG (segno: black modules drawn as one path, a 4-module quiet
    zone); medium error correction, enough for a phone's camera off a laptop screen or a printed slip."""
    return mark_safe(segno.make(url, error="m").svg_inline(scale=5, border=4, dark="#000", light="#fff"))  # noqa: S308 - the SVG is segno's drawing of modules, no text of the URL


def _private(response: HttpResponse) -> HttpResponse:
    response["Referrer-Policy"] = "no-referrer"
    response["Cache-Control"] = "no-store"
    response["X-Robots-Tag"] = "noindex"
    return response


def _too_many(request: HttpRequest) -> HttpResponse:
    context = {"minutes": WINDOW_SECONDS // 60}
    response = render(request, "tournaments/private_link_throttled.html", context, status=429)
    response["Retry-After"] = str(WINDOW_SECONDS)
    return _private(response)


def _holder(request: HttpRequest, token: str) -> PrivateLink | HttpResponse:
    """The live link of `token`, counted against its limit; or the 404 or 429 answer (see the module)."""
    client = client_address(request)
    per_client = client is not None and not declared_venue(client)
    failures = settings.PRIVATE_LINK_FAILURES_PER_CLIENT_HOUR
    if per_client and used_up("private-link-failure", cast(str, client), failures):
        return _too_many(request)
    link = link_selectors.live_link(token)
    if link is None:
        if per_client:
            take("private-link-failure", cast(str, client), failures)
        response = render(request, "tournaments/private_link_gone.html", {"message": NO_LINK}, status=404)
        return _private(response)
    if not take("private-link", str(link.pk), settings.PRIVATE_LINK_REQUESTS_PER_LINK_HOUR):
        return _too_many(request)
    return link


def _int(value: str | None) -> int | None:
    try:
        number = int(value or "")
    except ValueError:
        return None
    return number if is_int(number) and 0 < number < 2**62 else None


def _first_error(form) -> str:
    errors = form.errors.get("__all__") or next(iter(form.errors.values()), ["check the form"])
    return str(errors[0])


def _post(request: HttpRequest, link: PrivateLink, table: Table | None) -> str:
    """Carry out the page's form (report, confirm, take a report back, email); the message of what was done
    (UserError if refused)."""
    action = request.POST.get("action")
    holder = link.registration.player
    if action == "email":
        services.private_link_email(link=link, email=request.POST.get("email", ""))
        return "email" if link.email else "email_cleared"
    if action not in ("report", "confirm", "withdraw", "call"):
        raise UserError("no such action", field="action")
    if table is None:
        raise UserError("you have no table in the current round")
    if action == "call":
        floor.judge_call_open(table=table, by=None, holder=holder)
        return "call"
    if action == "withdraw":
        services.table_report_withdraw(
            table=table, by=None, report_id=_int(request.POST.get("report")), holder=holder
        )
        return "withdraw"
    if action == "confirm":
        report = services.table_confirm(
            table=table, by=None, report_id=_int(request.POST.get("report")), holder=holder
        )
        return "stored" if report.status == "stored" else "confirm"
    seats = list(table.published_match.seats.select_related("player").order_by("seat"))
    form = ResultForm(request.POST, seats=seats)
    advancing = None
    if table_cut(table.round.tournament, table.round.number, table.label) is not None:
        chosen = AdvancingForm(request.POST, seats=seats)
        if not chosen.is_valid():
            raise UserError("advancing lists players of this table", field="advancing")
        advancing = chosen.cleaned_data["advancing"] or None
    if not form.is_valid():
        raise UserError(_first_error(form))
    services.table_report(
        table=table,
        by=None,
        expected_version=form.cleaned_data["expected_version"],
        places=form.cleaned_data["places"],
        scores=form.cleaned_data["scores"],
        advancing=advancing,
        holder=holder,
    )
    return "report"


def _page(
    request: HttpRequest,
    link: PrivateLink,
    table: Table | None,
    *,
    status: int = 200,
    error: str = "",
    done: str = "",
    report_form: ResultForm | None = None,
) -> HttpResponse:
    registration = link.registration
    tournament = registration.tournament
    context: dict = {
        "tournament": tournament,
        "player": registration.player,
        "link": link,
        "table": table,
        "error": error,
        "done": DONE.get(done, ""),
        "until": link_selectors.links_work_until(tournament),
        "attached": registration.player.user_id is not None,
        "holder_email": link.email,  # the holder's own address, on the holder's own page
        "my_penalties": floor_selectors.penalties_of(tournament, registration.player_id),
    }
    if table is None:
        context["no_table"] = link_selectors.no_table_reason(link)
    else:
        seats = list(table.published_match.seats.select_related("player").order_by("seat"))
        views = [
            round_selectors.SeatView(
                seat=seat.seat,
                player_id=seat.player_id,
                name=seat.player.name,
                slug=seat.player.slug,
                place=seat.place,
                score=seat.score,
            )
            for seat in seats
        ]
        reporting = report_selectors.table_reporting(table, None, views, holder=registration.player)
        cut = table_cut(tournament, table.round.number, table.label)
        context |= {
            "judge_call": floor_selectors.table_call(table),
            "seats": views,
            "match": table.match,
            "reporting": reporting,
            "cut": cut,
            "advancing_form": AdvancingForm(seats=seats) if cut is not None else None,
            "report_form": report_form
            or ResultForm(seats=seats, initial={"expected_version": table.published_match.result_version}),
        }
    response = render(request, "tournaments/private_link.html", context, status=status)
    return _private(response)


@csrf_exempt  # the token in the path is the credential; no cookie authenticates these forms (see the module)
@require_http_methods(["GET", "POST"])
def link_page(request: HttpRequest, token: str) -> HttpResponse:
    """The holder's page: their table, its result, the report or confirm form, the email address."""
    found = _holder(request, token)
    if isinstance(found, HttpResponse):
        return found
    link = found
    table = link_selectors.holder_table(link)
    if request.method == "POST":
        try:
            done = _post(request, link, table)
        except UserError as exc:
            return _page(request, link, table, status=exc.status, error=exc.message)
        # The same address with a note of what was done (no cookie carries a message).
        return _private(redirect(f"{request.path}?done={done}"))
    return _page(request, link, table, done=request.GET.get("done", ""))


@require_http_methods(["GET"])
def link_event(request: HttpRequest, token: str) -> HttpResponse:
    """The event page read through a private link: the holder's own table first (`detail_response`),
    counted against the link's limit like its own page."""
    found = _holder(request, token)
    if isinstance(found, HttpResponse):
        return found
    registration = found.registration
    if registration.tournament.status == Tournament.Status.DRAFT:  # a draft's page is its organizers' only
        raise Http404("the event's page is not public yet")
    return _private(detail_response(request, registration.tournament, holder=registration.player_id))


@require_POST
def link_attach(request: HttpRequest, token: str) -> HttpResponse:
    """Attach the link's player to the signed-in account (the claim rules); a session form, CSRF-checked."""
    found = _holder(request, token)
    if isinstance(found, HttpResponse):
        return found
    link = found
    page = reverse("private-link", args=[token])
    if not request.user.is_authenticated:
        return _private(login_redirect(page, reverse("accounts:login")))
    try:
        services.private_link_attach(link=link, user=request.user)
    except UserError as exc:
        return _page(request, link, link_selectors.holder_table(link), status=exc.status, error=exc.message)
    return _private(redirect(reverse("accounts:me")))


def _organizer_page(request: HttpRequest, slug: str) -> tuple[Tournament, HttpResponse | None]:
    tournament = selectors.visible_tournament(slug, request.user)
    if tournament is None:
        raise Http404("no such tournament")
    if not request.user.is_authenticated:
        return tournament, login_redirect(request.get_full_path(), reverse("accounts:login"))
    if not selectors.is_organizer(request.user, tournament):
        context = {"tournament": tournament, "message": "only the tournament's organizers can do this"}
        return tournament, render(request, "tournaments/forbidden.html", context, status=403)
    return tournament, None


def _links_page(request: HttpRequest, tournament: Tournament, *, status: int = 200, error: str = ""):
    registrations = list(
        tournament.registrations.filter(status__in=LISTED, player__kind=Player.Kind.PERSON)
        .select_related("player")
        .order_by("player__name", "pk")
    )
    links = link_selectors.links_of(tournament)
    rows = [(registration, links.get(registration.pk)) for registration in registrations]
    context = {
        "tournament": tournament,
        "rows": rows,
        "error": error,
        "until": link_selectors.links_work_until(tournament),
        "client": client_address(request),
    }
    return render(request, "tournaments/private_links.html", context, status=status)


def _parse_day(value: str) -> date | str:
    try:
        return date.fromisoformat(value) if value else ""
    except ValueError:
        raise UserError("give the event day as a date, e.g. 2026-12-06", field="venue_day") from None


@require_http_methods(["GET", "POST"])
def links_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The organizers' page: every registration's private link (issue, reissue, revoke) and the venue's
    address. Issuing answers with the holder's personal slip, the one place the token is shown."""
    tournament, denied = _organizer_page(request, slug)
    if denied is not None:
        return denied
    if request.method == "GET":
        return _links_page(request, tournament)
    by = cast(User, request.user)
    action = request.POST.get("action")
    try:
        if action == "issue":
            issued = services.private_link_issue(
                tournament=tournament, player_id=_int(request.POST.get("player")), by=by
            )
            url = request.build_absolute_uri(reverse("private-link", args=[issued.token]))
            context = {
                "tournament": tournament,
                "player": issued.link.registration.player,
                "url": url,
                "qr": link_qr(url),
            }
            context |= {"reissued": issued.reissued, "until": link_selectors.links_work_until(tournament)}
            return _private(render(request, "tournaments/private_link_slip.html", context))
        if action == "revoke":
            services.private_link_revoke(
                tournament=tournament, player_id=_int(request.POST.get("player")), by=by
            )
        elif action == "venue":
            services.venue_address_set(
                tournament=tournament,
                by=by,
                address=request.POST.get("venue_address", "").strip(),
                day=_parse_day(request.POST.get("venue_day", "").strip()),
                client=client_address(request),
            )
        else:
            raise UserError("no such action", field="action")
    except UserError as exc:
        tournament.refresh_from_db()
        return _links_page(request, tournament, status=exc.status, error=exc.message)
    return redirect("tournaments:private-links", slug=tournament.slug)
