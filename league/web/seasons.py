"""Club and season pages (namespace `seasons`): a club's events, seasons and players; a season's table with
where each point came from, its CSV; the organizers' forms (a season, its rules, its events, invitations,
the freeze, a club's new event)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login as login_redirect
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone

from league.core.errors import UserError
from league.core.exports import csv_download
from league.core.forms import add_user_error
from league.seasons import calendars, selectors, services
from league.seasons.models import CalendarFeed, Club, Season, SeasonEvent
from league.seasons.points import TIE_BREAKS
from league.tournaments import clock
from league.tournaments import services as tournament_services
from league.tournaments.forms import TournamentForm
from league.tournaments.models import Tournament
from league.tournaments.selectors import visible_tournament
from league.web.tournaments.detail import game_ranges

TIE_BREAK_WORDS = {
    "events": "more events counted",
    "best": "the better best single result",
    "firsts": "more first places",
    "head_to_head": "who placed ahead more often at events both played",
}


def _club(slug: str) -> Club:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise Http404("no such club")
    return club


def _season(slug: str) -> Season:
    season = Season.objects.select_related("club").filter(slug=slug).first()
    if season is None:
        raise Http404("no such season")
    return season


def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    organizer = selectors.is_club_organizer(request.user, club)
    error, status = "", 200
    if request.method == "POST":
        if not request.user.is_authenticated:
            return login_redirect(request.get_full_path(), reverse("accounts:login"))
        by = request.user
        try:
            action = request.POST.get("action")
            if action == "season":
                season = services.season_create(
                    club=club,
                    by=by,
                    name=request.POST.get("name", ""),
                    place_points=request.POST.get("place_points", ""),
                    per_win=request.POST.get("per_win", "0"),
                    participation=request.POST.get("participation", "0"),
                    best_of=request.POST.get("best_of", ""),
                    minimum_events=request.POST.get("minimum_events", ""),
                    scale_by_field=request.POST.get("scale_by_field") == "on",
                    qualify_top=request.POST.get("qualify_top", ""),
                    qualify_points=request.POST.get("qualify_points", ""),
                    tie_breaks=request.POST.getlist("tie_breaks"),
                    rank_by=request.POST.get("rank_by", ""),
                )
                return redirect(season)
            if action == "clone":
                source = Tournament.objects.filter(pk=request.POST.get("tournament") or 0).first()
                if source is None:
                    raise UserError("no such event", field="tournament")
                clone = services.club_event_clone(
                    club=club, by=by, tournament=source, shift_days=int_or(request.POST.get("shift_days"), 7)
                )
                messages.success(request, f"{clone.name} created, a week on from {source.name}.")
                return redirect(clone)
            if action in ("accept", "decline"):
                entry = SeasonEvent.objects.filter(pk=request.POST.get("entry") or 0).first()
                if entry is None:
                    raise UserError("no such invitation", field="entry")
                services.season_event_answer(entry=entry, by=by, accept=action == "accept")
                return redirect(club)
            raise UserError("no such action", field="action")
        except UserError as exc:
            error, status = exc.message, exc.status
    now = timezone.now()
    events = list(selectors.club_events(club, drafts=organizer))
    context = {
        "club": club,
        "organizer": organizer,
        "upcoming": [
            e
            for e in events
            if e.status != Tournament.Status.FINISHED and (not e.starts_at or e.starts_at >= now)
        ],
        "past": [
            e for e in events if e.status == Tournament.Status.FINISHED or (e.starts_at and e.starts_at < now)
        ],
        "seasons": club.seasons.all(),
        "players": selectors.club_players(club)[:200],
        "invitations": selectors.pending_invitations(club) if organizer else [],
        "tie_breaks": [(name, TIE_BREAK_WORDS[name]) for name in TIE_BREAKS],
        "error": error,
    }
    return render(request, "seasons/club.html", context, status=status)


def int_or(value: str | None, default: int) -> int:
    try:
        return int(value or "")
    except ValueError:
        return default


def club_event_new(request: HttpRequest, slug: str) -> HttpResponse:
    """The create form of an event, made the club's event (the club's organizers)."""
    club = _club(slug)
    if not request.user.is_authenticated:
        return login_redirect(request.get_full_path(), reverse("accounts:login"))
    if not selectors.is_club_organizer(request.user, club):
        raise Http404("no such club")
    by = request.user
    form = TournamentForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                tournament = tournament_services.tournament_create(created_by=by, **form.settings())
                services.club_event_attach(club=club, by=by, tournament=tournament)
            except UserError as exc:
                add_user_error(form, exc)
                status = exc.status
            else:
                messages.success(request, f"{tournament.name} created for {club.name}.")
                return redirect(tournament)
    context = {"form": form, "zones": sorted(clock.zone_names()), "games": game_ranges(), "club": club}
    return render(request, "tournaments/new.html", context, status=status)


def _rules_in_words(season: Season) -> list[str]:
    words = []
    if season.place_points:
        listed = ", ".join(f"{place}: {points}" for place, points in enumerate(season.place_points, start=1))
        words.append(f"Points per final place: {listed}; later places score 0.")
    if season.scale_by_field:
        words.append(
            f"Place points are scaled by the field: × players who played at least one match ÷ "
            f"{season.reference_size}, rounded to 0.01."
        )
    if season.per_win:
        words.append(f"{season.per_win} points per match won (a first place shared by k counts 1/k).")
    if season.participation:
        words.append(f"{season.participation} points for taking part (at least one match played).")
    words.append("Each event's points are multiplied by its tier multiplier.")
    if season.best_of:
        words.append(
            f"A player's best {season.best_of} results count; the rest are dropped "
            "(the later of equal results)."
        )
    if season.minimum_events:
        words.append(f"Qualifying needs at least {season.minimum_events} events attended.")
    if season.qualify_top:
        words.append(f"The first {season.qualify_top} eligible players qualify.")
    if season.qualify_points is not None:
        words.append(f"Eligible players with at least {season.qualify_points} points qualify.")
    if season.tie_breaks:
        words.append("Ties: " + "; then ".join(TIE_BREAK_WORDS[name] for name in season.tie_breaks) + ".")
    if season.rank_by == Season.RankBy.SETTLED:
        words.append(
            "The table is ranked by settled ratings, not points: every table of the season's events fitted "
            "at once (a whole-history fit, refitted each night); points are shown beside them."
        )
    return words


def season_page(request: HttpRequest, slug: str) -> HttpResponse:
    season = _season(slug)
    organizer = selectors.is_club_organizer(request.user, season.club)
    error, status = "", 200
    if request.method == "POST":
        if not request.user.is_authenticated:
            return login_redirect(request.get_full_path(), reverse("accounts:login"))
        by = request.user
        try:
            action = request.POST.get("action")
            if action == "add":
                # a draft is seen by its own organizers only: another's draft reads as no event
                tournament = visible_tournament(request.POST.get("tournament", "").strip(), by)
                if tournament is None:
                    raise UserError(
                        "no event has that address name (the end of its page's address)", field="tournament"
                    )
                services.season_event_add(
                    season=season,
                    by=by,
                    tournament=tournament,
                    multiplier=request.POST.get("multiplier", "1"),
                )
            elif action == "freeze":
                services.season_freeze(season=season, by=by)
            elif action == "rank_by":
                services.season_rank_by_set(season=season, by=by, rank_by=request.POST.get("rank_by"))
            else:
                raise UserError("no such action", field="action")
            return redirect(season)
        except UserError as exc:
            error, status = exc.message, exc.status
    table = selectors.season_table(season)
    entries = list(
        season.entries.select_related("tournament").order_by("tournament__starts_at", "tournament_id")
    )
    context = {
        "season": season,
        "table": table,
        "entries": entries,
        "rules": _rules_in_words(season),
        "organizer": organizer,
        "error": error,
        "print": request.GET.get("view") == "print",
        "settled": season.rank_by == Season.RankBy.SETTLED,
        "fitted_at": selectors.fitted_at(season),
    }
    return render(request, "seasons/season.html", context, status=status)


PROJECTOR_TOP = 16


def season_projector(request: HttpRequest, slug: str) -> HttpResponse:
    """The season's table for a screen across the room: the first `?top=N` lines (16 by default, at most
    100), refreshed every minute; what any visitor may see."""
    season = _season(slug)
    table = selectors.season_table(season)
    top = int_or(request.GET.get("top"), PROJECTOR_TOP)
    top = top if 1 <= top <= 100 else PROJECTOR_TOP
    context = {
        "season": season,
        "table": table,
        "lines": table.lines[:top],
        "more": max(0, len(table.lines) - top),
        "events": season.entries.filter(accepted_at__isnull=False).count(),
        "settled": season.rank_by == Season.RankBy.SETTLED,
    }
    return render(request, "seasons/projector.html", context)


def invitation_answer(request: HttpRequest, pk: int) -> HttpResponse:
    """An invited event's organizers accept or decline a season's invitation (POST, from the event's page)."""
    if request.method != "POST":
        return HttpResponse("Answer an invitation with the buttons on the event's page.", status=405)
    if not request.user.is_authenticated:
        return login_redirect(request.get_full_path(), reverse("accounts:login"))
    entry = SeasonEvent.objects.select_related("season", "tournament").filter(pk=pk).first()
    if entry is None:
        raise Http404("no such invitation")
    answer = request.POST.get("answer")
    if answer not in ("accept", "decline"):
        return HttpResponse(status=400, content=b"Answer the invitation with accept or decline.")
    try:
        services.season_event_answer(entry=entry, by=request.user, accept=answer == "accept")
    except UserError as exc:
        if exc.status == 403:
            return render(request, "403.html", status=403)
        messages.error(request, exc.message)
        return redirect(entry.tournament)
    if answer == "accept":
        messages.success(request, f"{entry.tournament.name} now counts in {entry.season.name}.")
    else:
        messages.success(request, f"The invitation of {entry.season.name} was declined.")
    return redirect(entry.tournament)


def season_csv(request: HttpRequest, slug: str) -> HttpResponse:
    season = _season(slug)
    response, writer = csv_download(f"{season.slug}.csv")
    settled = season.rank_by == Season.RankBy.SETTLED
    rated = ["settled rating"] if settled else []
    writer.writerow(["rank", "player", *rated, "total", "events attended", "qualifies", "counted", "dropped"])
    for line in selectors.season_table(season).lines:
        rating = ["" if line.rating is None else line.rating] if settled else []
        writer.writerow(
            [
                line.rank,
                line.name,
                *rating,
                line.total,
                line.attended,
                "yes" if line.qualifies else "no",
                "; ".join(f"{e['event_name']}: {e['points']}" for e in line.counted),
                "; ".join(f"{e['event_name']}: {e['points']}" for e in line.dropped),
            ]
        )
    return response


def _ics(body: bytes, filename: str, *, private: bool) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    if private:
        response["Cache-Control"] = "no-store"
        response["Referrer-Policy"] = "no-referrer"
        response["X-Robots-Tag"] = "noindex"
    return response


def club_calendar(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's schedule as an iCalendar feed (public)."""
    return _ics(calendars.club_calendar(_club(slug)), "club.ics", private=False)


def my_calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """A user's own events (a private address: 404 for any address that does not open a live feed)."""
    user = calendars.feed_user(token)
    if user is None:
        raise Http404("no such calendar")
    return _ics(calendars.player_calendar(user), "my-events.ics", private=True)


def my_calendar_page(request: HttpRequest) -> HttpResponse:
    """Where a signed-in user makes (or remakes) and stops the private address of their events' feed."""
    if not request.user.is_authenticated:
        return login_redirect(request.get_full_path(), reverse("accounts:login"))
    user = request.user
    address = ""
    if request.method == "POST":
        if request.POST.get("action") == "issue":
            token = calendars.feed_issue(user)
            address = request.build_absolute_uri(reverse("seasons:my-calendar-feed", args=[token]))
        elif request.POST.get("action") == "revoke":
            calendars.feed_revoke(user)
            return redirect("seasons:my-calendar")
    has_feed = CalendarFeed.objects.filter(user=user).exists()
    response = render(request, "seasons/my_calendar.html", {"address": address, "has_feed": has_feed})
    response["Cache-Control"] = "no-store"
    return response


app_name = "seasons"
urlpatterns = [
    path("clubs/<name_slug:slug>/", club_page, name="club"),
    path("clubs/<name_slug:slug>/new-event/", club_event_new, name="club-event-new"),
    path("seasons/<name_slug:slug>/", season_page, name="season"),
    path("seasons/<name_slug:slug>/csv/", season_csv, name="season-csv"),
    path("seasons/<name_slug:slug>/projector/", season_projector, name="season-projector"),
    path("seasons/invitations/<int:pk>/", invitation_answer, name="invitation-answer"),
    path("clubs/<name_slug:slug>/calendar.ics", club_calendar, name="club-calendar"),
    path("me/calendar/", my_calendar_page, name="my-calendar"),
    path("calendar/<str:token>.ics", my_calendar_feed, name="my-calendar-feed"),
]
