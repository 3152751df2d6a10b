"""Tournament pages: thin views that parse input, call one service or selector, and render.

Everyone reads published tournaments; drafts and every control are for the tournament's organizers (and
site staff); a scorekeeper reaches result entry only; a signed-in player joins, leaves and checks in their
own player (`entry_action`). A visitor who is not logged in is sent to the login page; a logged-in user who
may not do something gets 403. A service's `UserError` is shown on the page it came from with its status
(400 bad input, 404 a missing object, 409 wrong state), the same rules and messages as the API.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import cast
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.models import AbstractBaseUser, User
from django.contrib.auth.views import redirect_to_login as login_redirect
from django.core.paginator import Paginator
from django.db.models import Max
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from league.core.bodies import takes_body
from league.core.bounds import ROW_IDS
from league.core.catalogue import game_name, game_spec, game_specs
from league.core.errors import UserError
from league.core.exports import SafeWriter, csv_download
from league.core.forms import add_user_error
from league.matches.models import Match
from league.ratings.selectors import predictions_by_seat
from league.results.entry import result_entry_form
from league.results.forms import ResultForm
from league.results.selectors import counting_advancing
from league.tournaments import clock, seam, selectors, services, snapshots
from league.tournaments.errors import NotOrganizer
from league.tournaments.forms import (
    AdvancingForm,
    CloseForm,
    DisputeForm,
    MoveForm,
    ParticipantsForm,
    RegisterForm,
    RoleForm,
    ScheduleForm,
    SignupForm,
    SwapForm,
    TournamentForm,
    participants_body_limit,
)
from league.tournaments.models import Registration, Round, RoundTime, Table, Tournament

TOURNAMENTS_PER_PAGE = 50
# The tournament page shows the standings and the players this many rows at a time (`?standings=N`,
# `?players=N`): a 10,000-player event is not one page of 20,000 rows.
STANDINGS_PER_PAGE = 100
PLAYERS_PER_PAGE = 100


def _tournament(request: HttpRequest, slug: str) -> Tournament:
    tournament = selectors.visible_tournament(slug, request.user)
    if tournament is None:
        raise Http404("no such tournament")
    return tournament


def _signed_in(request: HttpRequest) -> User:
    """`request.user` where the view has sent anonymous visitors to the login page already
    (`_require_organizer`, `staff_member_required`)."""
    return cast(User, request.user)  # signed in: checked before


def _require_organizer(
    request: HttpRequest, tournament: Tournament, *, scorer: bool = False
) -> HttpResponse | None:
    """A login redirect for anonymous visitors, a 403 page for users who do not organize (with `scorer`: who
    neither organize nor keep score); None when allowed."""
    if not request.user.is_authenticated:
        return login_redirect(request.get_full_path(), reverse("accounts:login"))
    allowed = (selectors.can_score if scorer else selectors.is_organizer)(request.user, tournament)
    if not allowed:
        error = (
            NotOrganizer("only the tournament's organizers and scorekeepers (and site staff) can do this")
            if (scorer)
            else NotOrganizer()
        )
        context = {"tournament": tournament, "message": error.message}
        return render(request, "tournaments/forbidden.html", context, status=403)
    return None


def tournament_index(request: HttpRequest) -> HttpResponse:
    page = Paginator(selectors.tournament_list(user=request.user), TOURNAMENTS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    for tournament in page:
        tournament.game_name = game_name(tournament.game_id)  # type: ignore[attr-defined]  # for the template
    return render(request, "tournaments/list.html", {"page": page})


@staff_member_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    """The create form: typed inputs for every setting (see `TournamentForm`), the event's date and start."""
    form = TournamentForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                tournament = services.tournament_create(created_by=_signed_in(request), **form.settings())
            except UserError as exc:
                add_user_error(form, exc)
                status = exc.status
            else:
                messages.success(request, f"{tournament.name} created: open registration when you are ready.")
                return redirect(tournament)
    context = {"form": form, "zones": sorted(clock.zone_names()), "games": _game_ranges()}
    return render(request, "tournaments/new.html", context, status=status)


def _game_ranges() -> list[dict]:
    """Each game's player range (with its default options), for the form's script that shows the points
    rows a table size can use."""
    ranges = []
    for spec in game_specs():
        low, high = spec.players_allowed(spec.validate_options({}))
        ranges.append({"id": spec.id, "min": low, "max": high})
    return ranges


def _detail(
    request: HttpRequest,
    tournament: Tournament,
    *,
    status: int = 200,
    error: str = "",
    register_form: ParticipantsForm | None = None,
    batch=None,
    new_count: int = 0,
) -> HttpResponse:
    organizer = selectors.is_organizer(request.user, tournament)
    # The whole history only where the page draws a bracket; the standings come from their snapshot
    # (`snapshots`), the rounds as counts (`selectors.round_summaries`), the players a page at a time.
    full = seam.has_bracket(tournament)
    fragment = request.GET.get("fragment") == "live"
    history: (
        seam.History[Table, Registration] | seam.History[seam.TableFacts, seam.RegistrationFacts] | None
    ) = None
    if full:
        history = seam.load_history(tournament)
    elif not fragment:  # registrations' statuses only where the number of rounds depends on the field
        history = seam.load_outline(
            tournament, registrations=tournament.format == Tournament.Format.ROUND_ROBIN
        )
    round_views = selectors.round_summaries(tournament, include_drafts=organizer)
    last = round_views[-1] if round_views else None
    flowing = (
        last is not None and last.row.status != Round.Status.DRAFT and seam.flows(tournament, last.number)
    )
    context = {
        "flowing": flowing,
        "tournament": tournament,
        "organizer": organizer,
        "standings": Paginator(
            snapshots.standings_list(tournament, history if full else None, allow_stale=True),
            STANDINGS_PER_PAGE,
        ).get_page(request.GET.get("standings")),
        "tiebreak_columns": [name for name in tournament.tiebreaks if name not in ("points", "seed")],
        "rounds": round_views,
        "drawings": selectors.bracket(
            history,
            selectors.rounds(history, include_drafts=organizer),
            round_url=lambda n: _round_url(tournament, n),
        )
        if full
        else [],
    }
    if fragment:  # what live refreshes: standings, bracket and rounds
        return render(request, "tournaments/_live.html", context, status=status)
    queued = (
        Registration.Status.WAITLISTED,
        Registration.Status.PENDING,
        Registration.Status.DECLINED,
        Registration.Status.INVITED,
    )
    rows = tournament.registrations.select_related("player").order_by("seed", "id")
    listed = rows.exclude(status__in=queued)
    waiting = selectors.waitlist(list(rows.filter(status=Registration.Status.WAITLISTED)))
    # player_of also takes anonymous users (it checks is_authenticated; its annotation names only users)
    player = selectors.player_of(cast(AbstractBaseUser | None, request.user))
    own = rows.filter(player=player).first() if player is not None else None
    context.update(
        {
            "next_table": selectors.next_bracket_table(tournament) if flowing else None,
            "game_name": game_name(tournament.game_id),
            "last_round": last,
            "planned_rounds": seam.planned_rounds(cast(seam.History, history)),  # loaded unless a fragment
            "registrations": listed,  # read only by an organizer's form before the start
            "players_page": Paginator(listed, PLAYERS_PER_PAGE).get_page(request.GET.get("players")),
            "waitlist": waiting,
            "pending": list(rows.filter(status=Registration.Status.PENDING)),
            "declined": list(rows.filter(status=Registration.Status.DECLINED)) if organizer else [],
            "invited": list(rows.filter(status=Registration.Status.INVITED)) if organizer else [],
            "places_left": None
            if tournament.capacity is None
            else max(0, tournament.capacity - rows.filter(status=Registration.Status.ACTIVE).count()),
            "entry": selectors.my_entry(
                tournament,
                request.user,
                [*([own] if own is not None and own not in waiting else []), *waiting],
            ),
            "check_in_state": selectors.check_in_state(tournament),
            "round_times": list(tournament.round_times.all()),
            "register_form": register_form or ParticipantsForm(),
            "batch": batch,
            "confirming": new_count > 0,
            "new_count": new_count,
            "can_register": organizer and services.registration_open(tournament),
            "error": error,
            "table_rule": seam.table_spec(tournament),
            **_bye_context(tournament, organizer, history, own),
        }
    )
    return render(request, "tournaments/detail.html", context, status=status)


def _bye_context(tournament: Tournament, organizer: bool, history, own: Registration | None) -> dict:
    """Byes and breaks on the tournament's page: the Swiss rounds still open for requests, the requests
    (every one for organizers, their own for a registered player) and who an organizer can ask for."""
    if tournament.status == Tournament.Status.FINISHED or not seam.is_swiss_round(tournament, 1):
        return {"bye_rounds": []}
    generated = history.round_rows[-1].number if history.round_rows else 0
    last = tournament.rounds or 0
    rounds = [number for number in range(generated + 1, last + 1) if seam.is_swiss_round(tournament, number)]
    own = own if own is not None and own.status == Registration.Status.ACTIVE else None
    if not rounds or not (organizer or own):
        return {"bye_rounds": []}
    active = tournament.registrations.select_related("player").filter(status=Registration.Status.ACTIVE)
    return {
        "bye_rounds": rounds,
        "bye_requests": selectors.open_bye_requests(
            tournament, None if organizer else cast(Registration, own).player_id
        ),
        "bye_players": active.order_by("seed", "id") if organizer else [],
        "bye_own": own,
    }


def _round_url(tournament: Tournament, number: int) -> str:
    return reverse("tournaments:round", kwargs={"slug": tournament.slug, "number": number})


@takes_body(participants_body_limit)
def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    if request.GET.get("embed") == "1":  # the embed has its own address: the one page other sites may frame
        query = request.GET.copy()
        del query["embed"]
        url = reverse("tournaments:embed", args=[slug])
        return redirect(f"{url}?{query.urlencode()}" if query else url)
    return _detail(request, _tournament(request, slug))


def _names(data) -> list[str]:
    form = RegisterForm(data)
    if not form.is_valid():
        raise UserError(cast(str, form.errors["names"][0]), field="names")  # an ErrorList gives messages
    return form.cleaned_data["names"]


def _register(request, tournament):
    """A batch of players, all or nothing: bad lines come back each with its message; new names come back
    marked new (with look-alike existing names) for a confirmation before anyone is created."""
    form = ParticipantsForm(request.POST, request.FILES)
    if not form.is_valid():
        message = next(iter(form.errors.values()))[0]
        return _detail(request, tournament, status=400, error=message, register_form=form)
    try:
        batch = services.registrations_add_batch(
            tournament=tournament,
            by=request.user,
            entries=form.cleaned_data["batch"],
            confirm_new=form.cleaned_data["confirm_new"],
        )
    except services.BatchRefused as refused:
        return _detail(
            request, tournament, status=400, error=refused.message, register_form=form, batch=refused.lines
        )
    if not batch.saved:
        entries = json.dumps(
            [{"name": line.name, "seed": line.seed, "line": line.line} for line in batch.lines]
        )
        confirm = ParticipantsForm(
            initial={
                "entries": entries,
                "confirm_new": True,
                "names": "\n".join(line.name for line in batch.lines),
            }
        )
        return _detail(
            request, tournament, register_form=confirm, batch=batch.lines, new_count=len(batch.new)
        )
    count, new = len(batch.lines), len(batch.new)
    return f"Registered {count} player{'s' if count != 1 else ''}" + (f" ({new} new)." if new else ".")


def _leave(request, tournament):
    status = request.POST.get("status", "")
    try:
        player_id = int(request.POST.get("player", ""))
    except ValueError:
        raise UserError("name the player by id", field="player") from None
    reg = services.registration_leave(
        tournament=tournament, by=request.user, player_id=player_id, status=status
    )
    return f"{reg.player.name}: {reg.get_status_display().lower()}."


def _invite(request, tournament):
    """Invite a player by their user name: they accept or decline on their page."""
    username = request.POST.get("username")
    reg = services.registration_invite(tournament=tournament, by=request.user, username=username)
    return f"{reg.player.name} is invited: they accept or decline on their page."


def _uninvite(request, tournament):
    """Take back an invitation not answered yet."""
    player_id = _int(request.POST, "player")
    services.invitation_withdraw(tournament=tournament, by=request.user, player_id=player_id)
    return "The invitation is taken back."


def _generate(request, tournament):
    return services.round_generate(tournament=tournament, by=request.user)


def _seed(request, tournament):
    """Seed by rating, or by hand from the names listed top seed first."""
    if request.POST.get("method") != "hand":
        services.tournament_seed(tournament=tournament, by=request.user, method="rating")
        return "Seeded by rating."
    ids = dict(
        (reg.player.name.casefold(), reg.player_id)
        for reg in tournament.registrations.select_related("player").filter(status=Registration.Status.ACTIVE)
    )
    names = _names(request.POST)
    unknown = [name for name in names if name.casefold() not in ids]
    if unknown:
        raise UserError(f"not registered: {', '.join(unknown)}", field="names")
    services.tournament_seed(
        tournament=tournament, by=request.user, method="hand", order=[ids[name.casefold()] for name in names]
    )
    return "Seeded by hand."


def _decide(request, tournament):
    """Approve or decline a pending entry."""
    decision = request.POST.get("decision")
    if decision not in ("approve", "decline"):
        raise UserError("approve or decline the entry", field="decision")
    reg = services.registration_decide(
        tournament=tournament,
        by=request.user,
        player_id=_int(request.POST, "player"),
        approve=decision == "approve",
    )
    return f"{reg.player.name}: {reg.get_status_display().lower()}."


def _open(request, tournament):
    services.tournament_open_registration(tournament=tournament, by=request.user)
    return "Registration is open."


def _finish(request, tournament):
    services.tournament_finish(tournament=tournament, by=request.user)
    return "Tournament finished."


TOURNAMENT_ACTIONS: dict[str, Callable] = {
    "open": _open,
    "finish": _finish,
    "register": _register,
    "invite": _invite,
    "uninvite": _uninvite,
    "leave": _leave,
    "decide": _decide,
    "seed": _seed,
    "generate": _generate,
}


LEAVING = {
    "withdrawn": (
        "Withdraw {name} from {tournament}?",
        "They lose their seed and can register again before the start.",
        "Yes, withdraw {name}",
    ),
    "dropped": (
        "Drop {name} from {tournament}?",
        "They are paired no more; their results stay. Their tables still "
        "waiting for a result close as forfeits, and so does every later table of theirs in a fixed field "
        "(round robin, elimination).",
        "Yes, drop {name}",
    ),
    "no_show": (
        "Mark {name} as a no-show in {tournament}?",
        "They are paired no more; their tables still waiting for a result close as forfeits.",
        "Yes, mark {name} as a no-show",
    ),
}


def _confirmation(request: HttpRequest, tournament: Tournament, action: str) -> HttpResponse | None:
    """The confirmation step of an action that cannot be undone (finish, withdraw, drop, no-show): a page
    asking to confirm, whose form posts the same fields with `confirm=yes`; None once confirmed, or when
    the input is bad (the service then says what is wrong)."""
    if action not in ("finish", "leave") or request.POST.get("confirm") == "yes":
        return None
    if action == "finish":
        question = f"Finish {tournament.name} now?"
        detail = "No more rounds can be generated and the standings become final."
        button = "Yes, finish the tournament"
    else:
        wording = LEAVING.get(request.POST.get("status", ""))
        reg = None
        player = request.POST.get("player", "")
        if wording is not None and player.isdigit() and ROW_IDS.contains(int(player)):
            reg = tournament.registrations.select_related("player").filter(player_id=int(player)).first()
        if reg is None:
            return None
        names = {"name": reg.player.name, "tournament": tournament.name}
        question, detail, button = (text.format(**names) for text in cast(tuple[str, str, str], wording))
    fields = [
        (key, value) for key, value in request.POST.items() if key not in ("csrfmiddlewaretoken", "confirm")
    ]
    context = {
        "tournament": tournament,
        "question": question,
        "detail": detail,
        "button": button,
        "fields": fields,
        "action": request.path,
    }
    return render(request, "tournaments/confirm.html", context)


@require_POST
def tournament_action(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    """An organizer's control on the tournament page. Finishing the tournament and a player leaving (withdraw,
    drop, no-show) need `confirm=yes`; without it the answer is a page asking to confirm."""
    tournament = _tournament(request, slug)
    handler = TOURNAMENT_ACTIONS.get(action)
    if handler is None:
        raise Http404("no such action")
    denied = _require_organizer(request, tournament)
    if denied:
        return denied
    confirm = _confirmation(request, tournament, action)
    if confirm is not None:
        return confirm
    try:
        outcome = handler(request, tournament)
    except UserError as exc:
        tournament.refresh_from_db()
        form = ParticipantsForm(request.POST) if action == "register" else None
        return _detail(request, tournament, status=exc.status, error=exc.message, register_form=form)
    if isinstance(outcome, HttpResponse):  # a page of its own (a batch to fix or to confirm)
        return outcome
    if isinstance(outcome, Round):
        messages.success(request, f"Round {outcome.number} generated as a draft: check it, then publish it.")
        return redirect(outcome)
    messages.success(request, outcome)
    return redirect(tournament)


def _round(
    tournament: Tournament, number: int, organizer: bool, tables: tuple[int, int] | None = None
) -> tuple:
    """The round's history (only that round's tables, within table numbers `tables` when given:
    `seam.load_round_part`), every round's view and this round's; 404 for a round not shown."""
    history = seam.load_round_part(tournament, number, tables)
    views = selectors.rounds(history, include_drafts=organizer)
    view = next((view for view in views if view.number == number), None)
    if view is None:
        raise Http404("no such round")
    return history, views, view


def _attach_forecasts(view) -> None:
    """Each seat of a published table gets its stored pre-match chances as `seat.forecast` (one query)."""
    forecasts = predictions_by_seat([table.match_id for table in view.tables if table.match_id])
    by_match: dict[int, dict[int, object]] = {}
    for (match_id, _), forecast in forecasts.items():
        by_match.setdefault(match_id, {})[forecast.player_id] = forecast
    for table in view.tables:
        for seat in table.seats:
            seat.forecast = by_match.get(table.match_id, {}).get(seat.player_id)


def _move_form(view) -> MoveForm:
    """The draft's "move a player" form: every seated player and every bye, by name."""
    players = [(seat.player_id, seat.name) for table in view.tables for seat in table.seats] + view.byes
    return MoveForm(players=sorted(players, key=lambda item: item[1].casefold()))


def _round_page(request, tournament, number, *, status=200, error="", swap_form=None):
    organizer = selectors.is_organizer(request.user, tournament)
    planned = RoundTime.objects.filter(tournament=tournament, number=number).first()
    round_row = tournament.round_set.filter(number=number).first()
    # A draft shows every table (the organizer moves any player to any table); a published round a page of
    # tables by number (`selectors.table_page`), the first table still waiting found by one query.
    draft = round_row is not None and round_row.status == Round.Status.DRAFT
    page = selectors.page_number(request.GET.get("page"))
    history, views, view = _round(
        tournament, number, organizer, None if draft else selectors.table_range(page)
    )
    top = (round_row.tables.aggregate(top=Max("number"))["top"] or 0) if round_row is not None else 0
    pages = 1 if draft else selectors.table_page(top)
    if draft:
        next_waiting = next((table for table in view.tables if not table.has_result), None)
    else:
        done = (Match.Status.FINISHED, Match.Status.VOID)
        next_waiting = (
            round_row.tables.filter(match__isnull=False)
            .exclude(match__status__in=done)
            .order_by("number")
            .first()
        )
    _attach_forecasts(view)
    first, last = selectors.table_range(page)
    context = {
        "table_pages": {"number": page, "count": pages, "first": first, "last": min(top, last), "top": top}
        if pages > 1
        else None,
        "tournament": tournament,
        "game_name": game_name(tournament.game_id),
        "organizer": organizer,
        "round": view,
        "rounds": views,
        "quality": round_row.quality if round_row is not None else view.row.quality,
        "error": error,
        "swap_form": swap_form or SwapForm(),
        "move_form": _move_form(view) if organizer and draft else None,  # shown to organizers on a draft
        "next_waiting": next_waiting,
        "can_score": organizer or selectors.is_scorekeeper(request.user, tournament),
        "planned_start": planned.starts_at if planned else None,
        "flowing": seam.flows(tournament, number),
        "reports": selectors.round_reports(view.tables) if not draft else None,
        "self_report": tournament.result_reporting == Tournament.Reporting.SELF_REPORT,
        "my_player_id": getattr(selectors.player_of(request.user), "pk", None),
        "can_generate_next": tournament.status == Tournament.Status.RUNNING
        and view.row.status == Round.Status.COMPLETE
        and view.number == views[-1].number
        and not seam.flows(tournament, number),
    }
    return render(request, "tournaments/round.html", context, status=status)


def round_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _round_page(request, _tournament(request, slug), number)


def find_my_table(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _tournament(request, slug)
    organizer = selectors.is_organizer(request.user, tournament)
    _, _, view = _round(tournament, number, organizer)
    context = {"tournament": tournament, "round": view, "rows": selectors.find_my_table(view)}
    return render(request, "tournaments/find.html", context)


def _round_row(tournament: Tournament, number: int) -> Round:
    round_row = tournament.round_set.filter(number=number).first()
    if round_row is None:
        raise Http404("no such round")
    return round_row


def _int(data, name: str) -> int:
    try:
        return int(data.get(name, ""))
    except ValueError:
        raise UserError(f"{name.replace('_', ' ')} must be a whole number", field=name) from None


@require_POST
def round_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    tournament = _tournament(request, slug)
    denied = _require_organizer(request, tournament)
    if denied:
        return denied
    round_row = _round_row(tournament, number)
    swap_form = None
    try:
        if action == "publish":
            services.round_publish(round_row=round_row, by=_signed_in(request))
            message = f"Round {number} published: the tables are out."
        elif action == "complete":
            services.round_complete(round_row=round_row, by=_signed_in(request))
            tournament.refresh_from_db()
            message = f"Round {number} complete." + (
                " The tournament is finished." if tournament.status == Tournament.Status.FINISHED else ""
            )
        elif action == "discard":
            services.round_discard(round_row=round_row, by=_signed_in(request))
            messages.success(request, f"Draft of round {number} discarded.")
            return redirect(tournament)
        elif action == "swap":
            swap_form = SwapForm(request.POST)
            if not swap_form.is_valid():
                raise UserError("give both tables and seats as whole numbers from 1")
            services.round_swap(round_row=round_row, by=_signed_in(request), **swap_form.cleaned_data)
            message = "Seats swapped."
        elif action == "move":
            services.round_move(
                round_row=round_row,
                by=_signed_in(request),
                player_id=_int(request.POST, "player"),
                to_table=_int(request.POST, "to_table"),
            )
            message = "Player moved."
        else:
            raise Http404("no such action")
    except UserError as exc:
        return _round_page(
            request, tournament, number, status=exc.status, error=exc.message, swap_form=swap_form
        )
    messages.success(request, message)
    return redirect(_round_url(tournament, number))


def _table(tournament: Tournament, number: int, table_number: int) -> Table:
    table = (
        Table.objects.select_related("round__tournament", "match")
        .filter(round__tournament=tournament, round__number=number, number=table_number)
        .first()
    )
    if table is None or table.match is None:
        raise Http404("no such published table")
    return table


def table_result(request: HttpRequest, slug: str, number: int, table_number: int) -> HttpResponse:
    """Result entry for one table; saving goes straight to the next table still waiting (in table order,
    then back to the first one still waiting), so Enter is the one keystroke from table to table."""
    tournament = _tournament(request, slug)
    denied = _require_organizer(request, tournament, scorer=True)
    if denied:
        return denied
    table = _table(tournament, number, table_number)
    match = table.published_match
    seats = list(match.seats.select_related("player").order_by("seat"))
    cut = seam.table_cut(tournament, number, table.label)
    advancing_form = None
    if cut is not None:
        initial = {"advancing": counting_advancing(match)}
        advancing_form = AdvancingForm(request.POST or None, seats=seats, initial=initial)

    reset_asked: list[str] = []

    def submit(**result):
        advancing = None
        if advancing_form is not None and advancing_form.is_bound:
            if not advancing_form.is_valid():
                raise UserError("advancing lists players of this table", field="advancing")
            advancing = advancing_form.cleaned_data["advancing"] or None
        try:
            return services.table_result(
                table=table,
                by=request.user,
                advancing=advancing,
                reset=request.POST.get("reset") == "yes",
                **result,
            )
        except UserError as exc:
            if exc.field == "reset":
                reset_asked.append(exc.message)
            raise

    entry = result_entry_form(request.POST or None, match=match, seats=seats, submit=submit)
    if entry.saved:
        messages.success(request, f"Table {table.number}: result saved.")
        waiting = list(
            Table.objects.filter(round=table.round)
            .exclude(match__status__in=["finished", "void"])
            .order_by("number")
            .values_list("number", flat=True)
        )
        following = next(
            (number for number in waiting if number > table.number), waiting[0] if waiting else None
        )
        if following is not None:
            return redirect("tournaments:result", slug=slug, number=number, table_number=following)
        return redirect(_round_url(tournament, number))
    entry.form.fields["place_0"].widget.attrs["autofocus"] = True
    tables = list(table.round.tables.order_by("number").values_list("number", flat=True))
    position = tables.index(table.number)
    context = {
        "tournament": tournament,
        "table": table,
        "match": match,
        "form": entry.form,
        "spec": game_spec(tournament.game_id),
        "previous": tables[position - 1] if position else None,
        "next": tables[position + 1] if position + 1 < len(tables) else None,
        "close_form": CloseForm(seats=seats),
        "organizer": selectors.is_organizer(request.user, tournament),
        "advancing_form": advancing_form,
        "cut": cut,
        "reset_asked": bool(reset_asked),
    }
    return render(request, "tournaments/result.html", context, status=entry.status)


@require_POST
def table_close(request: HttpRequest, slug: str, number: int, table_number: int) -> HttpResponse:
    tournament = _tournament(request, slug)
    denied = _require_organizer(request, tournament)
    if denied:
        return denied
    table = _table(tournament, number, table_number)
    seats = list(table.published_match.seats.select_related("player").order_by("seat"))
    form = CloseForm(request.POST, seats=seats)
    try:
        if not form.is_valid():
            raise UserError("tick the absent players and choose no-show or forfeit")
        closed = services.table_close(
            table=table,
            by=_signed_in(request),
            absent=form.cleaned_data["absent"],
            kind=form.cleaned_data["kind"],
            advancing=form.cleaned_data["advancing"] or None,
        )
    except UserError as exc:
        return _round_page(request, tournament, number, status=exc.status, error=exc.message)
    messages.success(
        request, f"Table {table.number} closed as {Table.Closed(closed.closed_as).label.lower()}."
    )
    return redirect(_round_url(tournament, number))


def _seat_views(tournament: Tournament, table: Table) -> list:
    _, _, view = _round(tournament, table.round.number, False, (table.number, table.number))
    return next(item for item in view.tables if item.id == table.pk).seats


def _table_page(
    request,
    tournament,
    table,
    *,
    status=200,
    error="",
    report_form=None,
    claim_form=None,
    dispute_form=None,
    advancing_form=None,
):
    """A table's page: its seats and result, and for its players the self-report controls (report, confirm,
    dispute) with the state of the report."""
    seats = list(table.match.seats.select_related("player").order_by("seat"))
    seat_views = _seat_views(tournament, table)
    reporting = selectors.table_reporting(table, request.user, seat_views)
    cut = seam.table_cut(tournament, table.round.number, table.label)
    if advancing_form is None and cut is not None:
        advancing_form = AdvancingForm(seats=seats)
    open_id = reporting.open.id if reporting.open else (reporting.stored.id if reporting.stored else None)
    context = {
        "tournament": tournament,
        "table": table,
        "match": table.match,
        "seats": seat_views,
        "reporting": reporting,
        "report_form": report_form
        or ResultForm(seats=seats, initial={"expected_version": table.match.result_version}),
        "claim_form": claim_form or ResultForm(seats=seats, prefix="claim", initial={"expected_version": 0}),
        "dispute_form": dispute_form or DisputeForm(initial={"report": open_id}),
        "advancing_form": advancing_form,
        "cut": cut,
        "error": error,
        "can_score": selectors.can_score(request.user, tournament),
        "self_report": tournament.result_reporting == Tournament.Reporting.SELF_REPORT,
    }
    return render(request, "tournaments/table.html", context, status=status)


def table_page(request: HttpRequest, slug: str, number: int, table_number: int) -> HttpResponse:
    tournament = _tournament(request, slug)
    return _table_page(request, tournament, _table(tournament, number, table_number))


REPORT_DONE = {
    "report": "Result reported: it counts once the others at the table confirm it.",
    "confirm": "Confirmed.",
    "dispute": "Dispute sent: the organizers settle it.",
    "stored": "Confirmed: everyone agreed, the result is stored.",
}


@require_POST
def table_report_action(
    request: HttpRequest, slug: str, number: int, table_number: int, action: str
) -> HttpResponse:
    """A player's report, confirmation or dispute of their table's result (plain forms; the services check
    who may)."""
    if action not in ("report", "confirm", "dispute"):
        raise Http404("no such action")
    tournament = _tournament(request, slug)
    table = _table(tournament, number, table_number)
    if not request.user.is_authenticated:
        return login_redirect(
            reverse("tournaments:table", args=[slug, number, table_number]), reverse("accounts:login")
        )
    seats = list(table.published_match.seats.select_related("player").order_by("seat"))
    forms_used: dict = {}
    try:
        if action == "report":
            form = forms_used["report_form"] = ResultForm(request.POST, seats=seats)
            advancing = None
            if seam.table_cut(tournament, number, table.label) is not None:
                chosen = forms_used["advancing_form"] = AdvancingForm(request.POST, seats=seats)
                if not chosen.is_valid():
                    raise UserError("advancing lists players of this table", field="advancing")
                advancing = chosen.cleaned_data["advancing"] or None
            if not form.is_valid():
                raise UserError(_first_error(form))
            report = services.table_report(
                table=table,
                by=request.user,
                expected_version=form.cleaned_data["expected_version"],
                places=form.cleaned_data["places"],
                scores=form.cleaned_data["scores"],
                advancing=advancing,
            )
        elif action == "confirm":
            report = services.table_confirm(
                table=table, by=request.user, report_id=_int(request.POST, "report")
            )
            if report.status == "stored":
                action = "stored"
        else:
            claim = forms_used["claim_form"] = ResultForm(request.POST, seats=seats, prefix="claim")
            note = forms_used["dispute_form"] = DisputeForm(request.POST)
            if not claim.is_valid():
                raise UserError(_first_error(claim))
            if not note.is_valid():
                raise UserError(_first_error(note))
            report = None
            services.table_dispute(
                table=table,
                by=request.user,
                report_id=note.cleaned_data["report"],
                places=claim.cleaned_data["places"],
                scores=claim.cleaned_data["scores"],
                note=note.cleaned_data["note"],
            )
    except UserError as exc:
        return _table_page(request, tournament, table, status=exc.status, error=exc.message, **forms_used)
    names = {seat.player_id: seat.player.name for seat in seats}
    through = selectors.through_text([names[pid] for pid in (report.advancing if report else None) or []])
    messages.success(request, REPORT_DONE[action] + (f" {through}." if through else ""))
    return redirect("tournaments:table", slug=slug, number=number, table_number=table_number)


def _first_error(form) -> str:
    errors = form.errors.get("__all__") or next(iter(form.errors.values()), ["check the form"])
    return str(errors[0])


def player_path(request: HttpRequest, slug: str, player_slug: str) -> HttpResponse:
    tournament = _tournament(request, slug)
    history = seam.load_history(tournament)
    reg = next((reg for reg in history.registrations if reg.player.slug == player_slug), None)
    if reg is None or reg.status in (Registration.Status.WITHDRAWN, Registration.Status.INVITED):
        raise Http404("this player is not in the tournament")
    views = selectors.rounds(history, include_drafts=False)
    ordered = snapshots.standings(tournament, history)
    standing = next(
        (
            selectors.standing_rows([row], {reg.player_id: reg})[0]
            for row in ordered
            if row.id == reg.player_id
        ),
        None,
    )
    context = {
        "tournament": tournament,
        "player": reg.player,
        "registration": reg,
        "standing": standing,
        "steps": selectors.player_path(history, views, reg.player_id),
    }
    return render(request, "tournaments/path.html", context)


def _csv(filename: str) -> tuple[HttpResponse, SafeWriter]:
    """A CSV download (`league.core.exports`: UTF-8 with a BOM, formula-looking text cells prefixed
    with ')."""
    return csv_download(filename)


def _number(value: float) -> str:
    return f"{value:g}"


def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings with every tie-break column, one row per player, and the bracket's group
    (elimination)."""
    tournament = _tournament(request, slug)
    response, writer = _csv(f"{tournament.slug}-standings.csv")
    writer.writerow(
        [
            "rank",
            "player",
            "seed",
            "status",
            "points",
            "opponents_points",
            "wins",
            "head_to_head",
            "played",
            "byes",
            *selectors.NEW_TIEBREAK_COLUMNS,
            "group",
        ]
    )
    for row in snapshots.standings_list(tournament):
        writer.writerow(
            [
                row.rank,
                row.name,
                row.seed,
                row.status,
                _number(row.points),
                _number(row.opponents_points),
                row.wins,
                row.head_to_head,
                row.played,
                row.byes,
                *(_number(getattr(row, name)) for name in selectors.NEW_TIEBREAK_COLUMNS),
                row.group,
            ]
        )
    return response


def results_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """Every seat of every published table: round, table, bracket label, seat, player, place, score,
    points."""
    tournament = _tournament(request, slug)
    response, writer = _csv(f"{tournament.slug}-results.csv")
    writer.writerow(["round", "table", "label", "seat", "player", "place", "score", "points", "closed_as"])
    history = seam.load_history(tournament)
    for view in selectors.rounds(history, include_drafts=False):
        for table in view.tables:
            for seat in table.seats:
                writer.writerow(
                    [
                        view.number,
                        table.number,
                        table.label,
                        seat.seat + 1,
                        seat.name,
                        seat.place if seat.place is not None else "",
                        seat.score if seat.score is not None else "",
                        _number(seat.points) if seat.points is not None else "",
                        table.closed_as,
                    ]
                )
        for _, name in view.byes:
            writer.writerow(
                [view.number, "", "bye", "", name, "", "", _number(seam.bye_points(tournament)), ""]
            )
        for _, name, score in view.requested_byes:
            points = _number(seam.requested_bye_points(tournament, score))
            writer.writerow([view.number, "", "bye asked for", "", name, "", "", points, ""])
    return response


ENTRY_DONE = {
    "join": lambda reg: {
        Registration.Status.ACTIVE: "You are registered.",
        Registration.Status.WAITLISTED: "The tournament is full: you are on the waitlist.",
        Registration.Status.PENDING: "Your entry waits for the organizers' approval.",
    }[reg.status],
    "leave": lambda reg: "You have left the tournament.",
    "check-in": lambda reg: "You are checked in.",
    "undo-check-in": lambda reg: "Your check-in is undone.",
    "accept": lambda reg: "You accepted the invitation: you are registered.",
    "decline": lambda reg: "You declined the invitation.",
}


@require_POST
def entry_action(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    """The signed-in player's own entry: join, leave, check in (or undo it), answer an invitation."""
    tournament = _tournament(request, slug)
    if action not in ENTRY_DONE:
        raise Http404("no such action")
    if not request.user.is_authenticated:
        return login_redirect(tournament.get_absolute_url())  # the players' login (settings.LOGIN_URL)
    reg: Registration | None  # None: an invitation declined
    try:
        if action == "join":
            reg = services.registration_join(tournament=tournament, by=request.user)
        elif action == "leave":
            reg = services.registration_withdraw(tournament=tournament, by=request.user)
        elif action in ("accept", "decline"):
            accept = action == "accept"
            reg = services.invitation_answer(tournament=tournament, by=request.user, accept=accept)
        else:
            reg = services.registration_check_in(
                tournament=tournament, by=request.user, checked_in=action == "check-in"
            )
    except UserError as exc:
        tournament.refresh_from_db()
        return _detail(request, tournament, status=exc.status, error=exc.message)
    messages.success(request, ENTRY_DONE[action](reg))
    return redirect(tournament)


BYE_DONE = {
    "bye": "{name} has a bye in round {round}.",
    "sit_out": "{name} sits out round {round}.",
}


@require_POST
def bye_action(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    """Ask for a bye or a sit-out in a future Swiss round (`request`), or take it back (`cancel`): the
    signed-in player for themselves, an organizer for anyone (`player`). The service checks who may."""
    tournament = _tournament(request, slug)
    if action not in ("request", "cancel"):
        raise Http404("no such action")
    if not request.user.is_authenticated:
        return login_redirect(tournament.get_absolute_url(), reverse("accounts:login"))
    data = request.POST
    player_id = _int(data, "player") if data.get("player") else None
    try:
        number = _int(data, "round")
        if action == "request":
            row = services.bye_request(
                tournament=tournament,
                by=request.user,
                round_number=number,
                kind=data.get("kind", "bye"),
                player_id=player_id,
            )
            done = BYE_DONE[row.kind].format(name=row.player.name, round=number)
        else:
            services.bye_cancel(
                tournament=tournament, by=request.user, round_number=number, player_id=player_id
            )
            done = f"The request for round {number} is taken back."
    except UserError as exc:
        tournament.refresh_from_db()
        return _detail(request, tournament, status=exc.status, error=exc.message)
    messages.success(request, done)
    return redirect(tournament)


def _settings_page(
    request, tournament, *, status=200, error="", signup_form=None, schedule_form=None, settings_form=None
):
    round_times = list(tournament.round_times.all())
    started = tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)
    settings_form = settings_form or TournamentForm.of(tournament)
    cut_open = started and services.cut_settings_open(tournament)
    if started:
        settings_form.disable(keep=services.CUT_SETTINGS if cut_open else ())
    context = {
        "tournament": tournament,
        "form": settings_form,
        "games": _game_ranges(),
        "signup_form": signup_form or SignupForm.of(tournament),
        "schedule_form": schedule_form or ScheduleForm.of(tournament, round_times),
        "zones": sorted(clock.zone_names()),
        "round_times": round_times,
        "started": started,
        "cut_open": cut_open,
        "error": error,
    }
    return render(request, "tournaments/settings.html", context, status=status)


def settings_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's settings (as on the create form; read-only once it has started), sign-up (cap,
    waitlist, approval) and the event's clock (zone, start, check-in, round times)."""
    tournament = _tournament(request, slug)
    denied = _require_organizer(request, tournament)
    if denied:
        return denied
    return _settings_page(request, tournament)


def _settings_save(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The tournament's settings: refused once it has started (whatever the form holds), else checked by
    the form, then by the service."""
    form = TournamentForm.of(tournament, request.POST)
    started = tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)
    if started:
        form.disable(keep=services.CUT_SETTINGS)
    try:
        if not services.cut_settings_open(tournament):
            services.check_settings_open(tournament)
        if not form.is_valid():
            return _settings_page(request, tournament, status=400, settings_form=form)
        tournament = services.tournament_update(
            tournament=tournament, by=_signed_in(request), **form.settings()
        )
    except UserError as exc:
        on_field = exc.field in form.fields
        if on_field:
            add_user_error(form, exc)
        tournament.refresh_from_db()
        return _settings_page(
            request, tournament, status=exc.status, error="" if on_field else exc.message, settings_form=form
        )
    messages.success(request, "Settings saved.")
    return redirect("tournaments:settings", slug=tournament.slug)


@require_POST
def settings_save(request: HttpRequest, slug: str, part: str) -> HttpResponse:
    tournament = _tournament(request, slug)
    if part not in ("tournament", "signup", "schedule"):
        raise Http404("no such settings")
    denied = _require_organizer(request, tournament)
    if denied:
        return denied
    if part == "tournament":
        return _settings_save(request, tournament)
    form = (SignupForm if part == "signup" else ScheduleForm)(request.POST)
    forms = {"signup_form" if part == "signup" else "schedule_form": form}
    if not form.is_valid():
        return _settings_page(request, tournament, status=400, **forms)
    try:
        if part == "signup":
            services.signup_configure(tournament=tournament, by=_signed_in(request), **form.cleaned_data)
        else:
            services.tournament_schedule(
                tournament=tournament, by=_signed_in(request), **cast(ScheduleForm, form).schedule()
            )
    except UserError as exc:
        add_user_error(form, exc)
        tournament.refresh_from_db()
        return _settings_page(request, tournament, status=exc.status, **forms)
    messages.success(request, "Sign-up saved." if part == "signup" else "Schedule saved.")
    return redirect("tournaments:settings", slug=tournament.slug)


def _check_in_rows(tournament: Tournament) -> list[Registration]:
    rows = tournament.registrations.select_related("player").filter(
        status__in=[Registration.Status.ACTIVE, Registration.Status.WAITLISTED]
    )
    return sorted(rows, key=lambda reg: (reg.player.name.casefold(), reg.player.name))


def _check_in_counts(rows: list[Registration]) -> dict[str, int]:
    active = [reg for reg in rows if reg.status == Registration.Status.ACTIVE]
    queued = [reg for reg in rows if reg.status == Registration.Status.WAITLISTED]
    return {
        "registered": len(active),
        "registered_checked_in": sum(1 for reg in active if reg.checked_in_at),
        "waitlisted": len(queued),
        "waitlisted_checked_in": sum(1 for reg in queued if reg.checked_in_at),
    }


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def check_in_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The organizers' check-in desk: every registered and waitlisted player by name, one button each.

    A POST checks one player in (or undoes it): answered with JSON for the page's script (`Accept:
    application/json`), else with a redirect back to the list (keeping its search)."""
    tournament = _tournament(request, slug)
    denied = _require_organizer(request, tournament)
    if denied:
        return denied
    error, status = "", 200
    if request.method == "POST":
        try:
            reg = services.registration_check_in(
                tournament=tournament,
                by=_signed_in(request),
                player_id=_int(request.POST, "player"),
                checked_in=request.POST.get("checked_in") != "0",
            )
        except UserError as exc:
            if _wants_json(request):
                return JsonResponse(exc.as_dict(), status=exc.status)
            error, status = exc.message, exc.status
            tournament.refresh_from_db()
        else:
            if _wants_json(request):
                return JsonResponse(
                    {
                        "player": reg.player_id,
                        "name": reg.player.name,
                        "checked_in": reg.checked_in_at is not None,
                        "counts": _check_in_counts(_check_in_rows(tournament)),
                    }
                )
            done = "checked in" if reg.checked_in_at else "no longer checked in"
            messages.success(request, f"{reg.player.name}: {done}.")
            query = request.POST.get("q", "")
            url = reverse("tournaments:check-in", kwargs={"slug": slug})
            return redirect(url + (f"?{urlencode({'q': query})}" if query else ""))
    rows = _check_in_rows(tournament)
    query = request.GET.get("q", "").strip()[:80]
    shown = [reg for reg in rows if query.casefold() in reg.player.name.casefold()] if query else rows
    context = {
        "tournament": tournament,
        "rows": shown,
        "counts": _check_in_counts(rows),
        "query": query,
        "state": selectors.check_in_state(tournament),
        "error": error,
    }
    return render(request, "tournaments/check_in.html", context, status=status)


def _ids(data, name: str) -> list[int] | None:
    if name not in data:
        return None
    try:
        return [int(value) for value in data.getlist(name) if value != ""]
    except ValueError:
        raise UserError(f"{name} lists player ids", field=name) from None


def start_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Start the tournament. Under check-in, a confirmation page first: who is dropped as a no-show, who moves
    up from the waitlist, who stays waiting; its form starts with exactly those lists (a plan that changed
    meanwhile is refused and shown again). Without check-in a POST starts at once, as from the button."""
    tournament = _tournament(request, slug)
    denied = _require_organizer(request, tournament)
    if denied:
        return denied
    error, status = "", 200
    if request.method == "POST":
        try:
            services.tournament_start(
                tournament=tournament,
                by=_signed_in(request),
                confirm=request.POST.get("confirm") == "1",
                dropped=_ids(request.POST, "dropped"),
                promoted=_ids(request.POST, "promoted"),
            )
        except UserError as exc:
            tournament.refresh_from_db()
            if not tournament.check_in or tournament.status != Tournament.Status.REGISTRATION:
                return _detail(request, tournament, status=exc.status, error=exc.message)
            error, status = exc.message, exc.status
        else:
            messages.success(request, "The tournament has started: generate round 1.")
            return redirect(tournament)
    if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        return redirect(tournament)
    plan = selectors.start_plan(tournament)
    queue = [reg.pk for reg in selectors.waitlist(list(tournament.registrations.all()))]
    context = {
        "tournament": tournament,
        "plan": plan,
        "positions": {pk: position for position, pk in enumerate(queue, start=1)},
        "minimum": max(2, seam.table_spec(tournament).minimum),
        "error": error,
    }
    return render(request, "tournaments/start.html", context, status=status)


def _roles_page(request, tournament, *, status=200, form=None):
    context = {"tournament": tournament, "roles": selectors.roles(tournament), "form": form or RoleForm()}
    return render(request, "tournaments/roles.html", context, status=status)


def roles_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Organizers and scorekeepers: the list, and a form adding one by user name (POST).

    The right to add is checked first (`_require_organizer`, then the service again), so a user who may not
    add gets the same 403 whether or not the name exists."""
    tournament = _tournament(request, slug)
    denied = _require_organizer(request, tournament)
    if denied:
        return denied
    if request.method != "POST":
        return _roles_page(request, tournament)
    data = request.POST.copy()
    data.setdefault("role", "organizer")
    form = RoleForm(data)
    try:
        if not form.is_valid():
            raise UserError("name the user to add", field="username")
        user = services.role_add(tournament=tournament, by=_signed_in(request), **form.cleaned_data)
    except UserError as exc:
        add_user_error(form, exc)
        return _roles_page(request, tournament, status=exc.status, form=form)
    role = form.cleaned_data["role"]
    messages.success(
        request,
        f"{user.get_username()} now {'organizes' if role == 'organizer' else 'keeps score at'} "
        "this tournament.",
    )
    return redirect("tournaments:organizers", slug=tournament.slug)


@require_POST
def role_remove(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(request, slug)
    denied = _require_organizer(request, tournament)
    if denied:
        return denied
    username = request.POST.get("username", "")
    try:
        services.role_remove(
            tournament=tournament, by=_signed_in(request), username=username, role=request.POST.get("role")
        )
    except UserError as exc:
        form = RoleForm()
        form.add_error(None, exc.message)
        return _roles_page(request, tournament, status=exc.status, form=form)
    messages.success(request, f"{username} no longer has that role here.")
    return redirect("tournaments:organizers", slug=tournament.slug)
