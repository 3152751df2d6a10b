"""The tournament list, a new tournament, the tournament's page and the actions posted from it (registration,
seeding, the round button, finishing), with their confirmation step."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import cast

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from league.core.bodies import takes_body
from league.core.bounds import ROW_IDS
from league.core.catalogue import game_name, game_specs
from league.core.errors import UserError
from league.core.forms import add_user_error
from league.players.selectors import player_of
from league.seasons.selectors import invitations_of_event, seasons_of_event
from league.tournaments import pages, reach, report_selectors, round_selectors, selectors, services
from league.tournaments.forms import (
    CloneForm,
    CreateSignupForm,
    ParticipantsForm,
    RegisterForm,
    TournamentForm,
    participants_body_limit,
)
from league.tournaments.models import Registration, Round, Tournament
from league.web.drawing import bracket
from league.web.tournaments.common import (
    first_error,
    int_field,
    require_organizer,
    round_url,
    shows_short_names,
    signed_in,
    tournament_or_404,
    warn_past_start,
)
from league.web.tournaments.shared import shared_page

TOURNAMENTS_PER_PAGE = 50


def tournament_index(request: HttpRequest) -> HttpResponse:
    page = Paginator(selectors.tournament_list(user=request.user), TOURNAMENTS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    for tournament in page:
        tournament.game_name = game_name(tournament.game_id)  # type: ignore[attr-defined]  # for the template
    return render(request, "tournaments/list.html", {"page": page})


@staff_member_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    """The create form: typed inputs for every setting (see `TournamentForm`), the event's date and start,
    sign-up (open by default, cap, waitlist, approval) and check-in; stored together or not at all."""
    data = request.POST if request.method == "POST" else None
    form, signup_form = TournamentForm(data), CreateSignupForm(data)
    status = 200
    if request.method == "POST":
        status = 400
        if all([form.is_valid(), signup_form.is_valid()]):  # a list: both show their errors
            try:
                tournament = _create(request, form, signup_form)
            except UserError as exc:
                add_user_error(signup_form if exc.field in signup_form.fields else form, exc)
                status = exc.status
            else:
                messages.success(request, f"{tournament.name} created: open registration when you are ready.")
                warn_past_start(request, tournament)
                return redirect(tournament)
    context = {"form": form, "signup_form": signup_form, "games": game_ranges()}
    return render(request, "tournaments/new.html", context, status=status)


def _create(request: HttpRequest, form: TournamentForm, signup_form: CreateSignupForm) -> Tournament:
    by = signed_in(request)
    with transaction.atomic():
        tournament = services.tournament_create(created_by=by, **form.settings())
        services.signup_configure(tournament=tournament, by=by, **signup_form.signup())
        if signup_form.cleaned_data["checkin_opens_at"]:
            services.tournament_schedule(
                tournament=tournament, by=by, checkin_opens_at=signup_form.cleaned_data["checkin_opens_at"]
            )
    tournament.refresh_from_db()
    return tournament


def game_ranges() -> list[dict]:
    """Each game's player range (with its default options), for the form's script that shows the points
    rows a table size can use."""
    ranges = []
    for spec in game_specs():
        low, high = spec.players_allowed(spec.validate_options({}))
        ranges.append({"id": spec.id, "min": low, "max": high})
    return ranges


def detail_response(
    request: HttpRequest,
    tournament: Tournament,
    *,
    status: int = 200,
    error: str = "",
    register_form: ParticipantsForm | None = None,
    batch=None,
    new_count: int = 0,
    holder: int | None = None,
) -> HttpResponse:
    """The tournament page (`pages.tournament_page`) with its forms, or its live part (`?fragment=live`).
    The reader's own table in the current round comes first: a signed-in player's, or the player's of the
    private link the page is read through (`holder`, a player id)."""
    if request.GET.get("fragment") == "live":  # what live refreshes: standings, bracket and rounds
        live = pages.tournament_live(tournament, request.user, standings_page=request.GET.get("standings"))
        return _marked(
            render(
                request,
                "tournaments/_live.html",
                _live_context(live, shows_short_names(request)),
                status=status,
            ),
            live,
        )
    page = pages.tournament_page(
        tournament,
        request.user,
        standings_page=request.GET.get("standings"),
        players_page=request.GET.get("players"),
    )
    context = {
        **_live_context(page, shows_short_names(request)),
        "may_judge": reach.may_judge(request.user, tournament),
        "next_table": page.next_table,
        "game_name": page.game_name,
        "last_round": page.last_round,
        "planned_rounds": page.planned_rounds,
        "registrations": page.registrations,
        "players_page": page.players_page,
        "waitlist": page.waitlist,
        "pending": page.pending,
        "declined": page.declined,
        "invited": page.invited,
        "places_left": page.places_left,
        "entry": page.entry,
        "check_in_state": page.check_in_state,
        "round_times": page.round_times,
        "register_form": register_form or ParticipantsForm(),
        "batch": batch,
        "confirming": new_count > 0,
        "new_count": new_count,
        "can_register": page.can_register,
        "error": error,
        "table_rule": page.table_rule,
        "bye_rounds": page.byes.rounds,
        "bye_requests": page.byes.requests,
        "bye_players": page.byes.players,
        "bye_own": page.byes.own,
        "my_table": _my_table(request, tournament, holder),
        "cancel_undoable": page.organizer and selectors.undoable(tournament, "tournament.cancelled"),
        "can_delete": page.organizer and selectors.deletable(tournament),
        "clone_form": CloneForm(initial={"name": f"{tournament.name} (copy)", "shift_days": 7}),
        "undo_minutes": services.UNDO_MINUTES,
        "holder": holder is not None,
        "seasons": seasons_of_event(tournament),
        "season_invitations": invitations_of_event(tournament) if page.organizer else [],
        "days": page.days,
    }
    return _marked(render(request, "tournaments/detail.html", context, status=status), page)


def _marked(response: HttpResponse, live: pages.TournamentLive) -> HttpResponse:
    """`response`, marked as no page to share (`shared.shared_page`) when it shows the standings of an earlier
    state while the current ones are computed: the next look shows the current ones, at the same version."""
    if getattr(live.standings.paginator.object_list, "stale_seconds", None) is not None:
        response.no_share = True  # type: ignore[attr-defined]
    return response


def _my_table(
    request: HttpRequest, tournament: Tournament, holder: int | None
) -> round_selectors.MyTable | None:
    if holder is None:
        me = player_of(request.user)
        holder = me.pk if me is not None else None
    if holder is None or tournament.status != Tournament.Status.RUNNING:
        return None
    return round_selectors.my_table(tournament, holder)


def _live_context(live: pages.TournamentLive, short_names: bool) -> dict:
    tournament = live.tournament
    return {
        "flowing": live.flowing,
        "tournament": tournament,
        "organizer": live.organizer,
        "standings": live.standings,
        "tiebreak_columns": live.tiebreak_columns,
        "rounds": live.rounds,
        "drawings": bracket.bracket(
            live.history,
            live.bracket_rounds,
            round_url=lambda n: round_url(tournament, n),
            short_names=short_names,
        )
        if live.bracket_rounds is not None
        else [],
    }


def _live_fragment(request: HttpRequest) -> bool:
    return request.GET.get("fragment") == "live"


@takes_body(participants_body_limit)
@shared_page(members=_live_fragment)  # the live part shows a member what it shows a visitor
def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    if request.GET.get("embed") == "1":  # the embed has its own address: the one page other sites may frame
        query = request.GET.copy()
        del query["embed"]
        url = reverse("tournaments:embed", args=[slug])
        return redirect(f"{url}?{query.urlencode()}" if query else url)
    return detail_response(request, tournament_or_404(request, slug))


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
        return detail_response(request, tournament, status=400, error=message, register_form=form)
    try:
        batch = services.registrations_add_batch(
            tournament=tournament,
            by=request.user,
            entries=form.cleaned_data["batch"],
            confirm_new=form.cleaned_data["confirm_new"],
        )
    except services.BatchRefused as refused:
        return detail_response(
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
        return detail_response(
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
    player_id = int_field(request.POST, "player")
    services.invitation_withdraw(tournament=tournament, by=request.user, player_id=player_id)
    return "The invitation is taken back."


def _generate(request, tournament):
    return services.round_generate(tournament=tournament, by=request.user)


def _auto_next(request, tournament):
    """Turn big days' "start the next round as soon as every table is in" on (`on=yes`) or off."""
    on = request.POST.get("on") == "yes"
    services.tournament_update(tournament=tournament, by=request.user, auto_next_round=on)
    if on:
        return (
            "Each next round now starts as soon as every table is in: it is published by itself when its "
            "draft has no warning and no dispute is open; otherwise it waits as a draft and you are told."
        )
    return "Rounds no longer start by themselves."


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
        player_id=int_field(request.POST, "player"),
        approve=decision == "approve",
    )
    return f"{reg.player.name}: {reg.get_status_display().lower()}."


def _open(request, tournament):
    services.tournament_open_registration(tournament=tournament, by=request.user)
    return "Registration is open."


def _finish(request, tournament):
    services.tournament_finish(tournament=tournament, by=request.user)
    return "Tournament finished."


def _cancel(request, tournament):
    services.tournament_cancel(tournament=tournament, by=request.user, reason=request.POST.get("reason", ""))
    return f"{tournament.name} is cancelled. You can undo it for {services.UNDO_MINUTES} minutes."


def _cancel_undo(request, tournament):
    services.tournament_cancel_undo(tournament=tournament, by=request.user)
    return "The cancel is undone."


def _clone(request, tournament):
    form = CloneForm(request.POST)
    if not form.is_valid():
        raise UserError(first_error(form))
    clone = services.tournament_clone(tournament=tournament, by=request.user, **form.cleaned_data)
    messages.success(request, f"{clone.name} is a new draft with the settings of {tournament.name}.")
    return redirect(clone)


def _delete(request, tournament):
    gone = services.tournament_delete(tournament=tournament, by=request.user)
    with_players = f", with {len(gone)} player{'' if len(gone) == 1 else 's'} made for it" if gone else ""
    messages.success(request, f"{tournament.name} is deleted{with_players}.")
    return redirect("tournaments:list")


TOURNAMENT_ACTIONS: dict[str, Callable] = {
    "open": _open,
    "finish": _finish,
    "cancel": _cancel,
    "cancel-undo": _cancel_undo,
    "clone": _clone,
    "delete": _delete,
    "register": _register,
    "invite": _invite,
    "uninvite": _uninvite,
    "leave": _leave,
    "decide": _decide,
    "seed": _seed,
    "generate": _generate,
    "auto-next": _auto_next,
}


LEAVING = {
    "withdrawn": (
        "Withdraw {name} from {tournament}?",
        "They lose their seed and can register again before the start.",
        "Yes, withdraw {name}",
    ),
    "dropped": (
        "Drop {name} from {tournament}?",
        "They are paired no more; their results stay. At a table of 3 or more still waiting for a result "
        "where two or more play on, they are placed last and the others' places are entered as usual; their "
        "other tables still waiting close as forfeits, and so does every later table of theirs in a fixed "
        "field (round robin, elimination).",
        "Yes, drop {name}",
    ),
    "no_show": (
        "Mark {name} as a no-show in {tournament}?",
        "They are paired no more; their tables still waiting for a result close as forfeits.",
        "Yes, mark {name} as a no-show",
    ),
}


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _confirmation(request: HttpRequest, tournament: Tournament, action: str) -> HttpResponse | None:
    """The confirmation step of an action that cannot be undone (finish, withdraw, drop, no-show, delete, a
    round drawn while a result is disputed): a page asking to confirm, whose form posts the same fields with
    `confirm=yes`; None once confirmed, or when the input is bad (the service then says what is wrong)."""
    if action not in ("finish", "leave", "delete", "generate") or request.POST.get("confirm") == "yes":
        return None
    if action == "generate":
        disputes = report_selectors.open_disputes(tournament)
        if not disputes:
            return None
        where = "; ".join(
            f"round {row.round_number}, table {row.table_number} ({row.player} disputes it)"
            for row in disputes
        )
        count = _count(len(disputes), "open dispute")
        question = f"Draw the next round of {tournament.name} with {count}?"
        detail = (
            f"Not settled yet: {where}. Settle {'it' if len(disputes) == 1 else 'them'} first from the "
            "table's result page, so that the pairing and any cut read the right results; or draw anyway, "
            "and a later correction updates the standings but not the tables already drawn."
        )
        button = "Draw the round anyway"
    elif action == "finish":
        question = f"Finish {tournament.name} now?"
        detail = "No more rounds can be generated and the standings become final."
        button = "Yes, finish the tournament"
    elif action == "delete":
        question = f"Delete {tournament.name}?"
        detail = (
            "Its registrations, draft rounds and log go with it, and so do the players made for it who "
            "have no account, no other event and no match. This cannot be undone."
        )
        button = "Yes, delete it"
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
    """An organizer's control on the tournament page. Finishing the tournament, deleting it and a player
    leaving (withdraw, drop, no-show) need `confirm=yes`; without it the answer is a page asking to
    confirm. Cancelling takes a reason and is undone (`cancel-undo`) within `services.UNDO_MINUTES`."""
    tournament = tournament_or_404(request, slug)
    handler = TOURNAMENT_ACTIONS.get(action)
    if handler is None:
        raise Http404("no such action")
    denied = require_organizer(request, tournament)
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
        return detail_response(request, tournament, status=exc.status, error=exc.message, register_form=form)
    if isinstance(outcome, HttpResponse):  # a page of its own (a batch to fix or to confirm)
        return outcome
    if isinstance(outcome, Round):
        messages.success(request, f"Round {outcome.number} generated as a draft: check it, then publish it.")
        return redirect(outcome)
    messages.success(request, outcome)
    return redirect(tournament)
