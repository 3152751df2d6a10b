"""The tournament list, a new tournament, the tournament's page and the actions posted from it (registration,
seeding, the round button, finishing), with their confirmation step."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import cast

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.models import AbstractBaseUser
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from league.core.bodies import takes_body
from league.core.bounds import ROW_IDS
from league.core.catalogue import game_name, game_specs
from league.core.errors import UserError
from league.core.forms import add_user_error
from league.tournaments import clock, seam, selectors, services, snapshots
from league.tournaments.forms import (
    ParticipantsForm,
    RegisterForm,
    TournamentForm,
    participants_body_limit,
)
from league.tournaments.models import Registration, Round, Table, Tournament
from league.web.tournaments.common import (
    int_field,
    require_organizer,
    round_url,
    signed_in,
    tournament_or_404,
)

TOURNAMENTS_PER_PAGE = 50


# The tournament page shows the standings and the players this many rows at a time (`?standings=N`,
# `?players=N`): a 10,000-player event is not one page of 20,000 rows.
STANDINGS_PER_PAGE = 100


PLAYERS_PER_PAGE = 100


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
                tournament = services.tournament_create(created_by=signed_in(request), **form.settings())
            except UserError as exc:
                add_user_error(form, exc)
                status = exc.status
            else:
                messages.success(request, f"{tournament.name} created: open registration when you are ready.")
                return redirect(tournament)
    context = {"form": form, "zones": sorted(clock.zone_names()), "games": game_ranges()}
    return render(request, "tournaments/new.html", context, status=status)


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
            round_url=lambda n: round_url(tournament, n),
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


@takes_body(participants_body_limit)
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
