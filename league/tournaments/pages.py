"""Page selectors: what each tournament page shows, read in one call and returned as a frozen dataclass, so
that the pages (`league.web.tournaments`) and the API (`league.api.tournaments`) read it the same way.

`tournament_live` is what the tournament page's live part refreshes (standings, rounds, the bracket's rounds);
`tournament_page` is the whole page: that, the sign-up (the players a page at a time, the waitlist in its
order, one's own entry), the schedule and the byes. `round_page` is a round's page (a page of its tables),
read through `round_state` (that round's part of the history), which the room's pages and a table's page
share. The forms a page shows stay with the page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.core.paginator import Page, Paginator
from django.db.models import Max, QuerySet
from django.http import Http404

from league.core.catalogue import game_name
from league.matches.models import Match
from league.ratings.selectors import predictions_by_seat
from league.tournaments import (
    draft_warnings,
    report_selectors,
    round_selectors,
    seam,
    selectors,
    services,
    snapshots,
)
from league.tournaments.days import DayView, tournament_days
from league.tournaments.formats import flows, has_bracket, is_swiss_round
from league.tournaments.history import History, load_history
from league.tournaments.models import Registration, Round, RoundTime, Table, Tournament

# The tournament page shows the standings and the players this many rows at a time (`?standings=N`,
# `?players=N`): a 10,000-player event is not one page of 20,000 rows.
STANDINGS_PER_PAGE = 100
PLAYERS_PER_PAGE = 100


@dataclass(frozen=True)
class TournamentLive:
    """The tournament page's live part: the standings (a page of them), the rounds as counts and, where the
    tournament has a bracket, its whole history and the rounds' views the bracket is drawn from."""

    tournament: Tournament
    organizer: bool
    flowing: bool  # a bracket played match by match, its last round under way
    standings: Page
    tiebreak_columns: list[str]
    rounds: list[round_selectors.RoundSummary]
    history: History | None  # with a bracket only
    bracket_rounds: list[round_selectors.RoundView] | None  # with a bracket only


@dataclass(frozen=True)
class TournamentPage(TournamentLive):
    """The whole tournament page (its forms aside)."""

    next_table: tuple[Round, Table] | None
    game_name: str
    last_round: round_selectors.RoundSummary | None
    planned_rounds: int | None
    registrations: QuerySet[Registration]  # everyone listed (not queued), seed order
    players_page: Page
    waitlist: list[Registration]  # in the order they move up
    pending: list[Registration]
    declined: list[Registration]  # organizers only
    invited: list[Registration]  # organizers only
    places_left: int | None
    entry: selectors.MyEntry
    check_in_state: str
    round_times: list[RoundTime]
    can_register: bool
    table_rule: Any
    byes: ByeChoices
    days: list[DayView] = field(default_factory=list)  # a Swiss with a Day 2 (big days)


@dataclass(frozen=True)
class ByeChoices:
    """Byes and breaks on the tournament's page: the Swiss rounds still open for requests, the requests
    (every one for organizers, their own for a registered player) and who an organizer can ask for."""

    rounds: list[int]
    requests: list[Any] = field(default_factory=list)
    players: QuerySet[Registration] | list[Registration] = field(default_factory=list)
    own: Registration | None = None


def tournament_live(
    tournament: Tournament,
    user: User | AnonymousUser | None,
    *,
    standings_page: str | None,
) -> TournamentLive:
    """The live part of the tournament page."""
    organizer = selectors.is_organizer(user, tournament)
    # The whole history only where the page draws a bracket; the standings come from their snapshot
    # (`snapshots`), the rounds as counts (`round_selectors.round_summaries`), the players a page at a time.
    history = load_history(tournament) if has_bracket(tournament) else None
    round_views = round_selectors.round_summaries(tournament, include_drafts=organizer)
    last = round_views[-1] if round_views else None
    flowing = last is not None and last.row.status != Round.Status.DRAFT and flows(tournament, last.number)
    return TournamentLive(
        tournament=tournament,
        organizer=organizer,
        flowing=flowing,
        standings=Paginator(
            snapshots.standings_list(tournament, history, allow_stale=True),
            STANDINGS_PER_PAGE,
        ).get_page(standings_page),
        tiebreak_columns=[name for name in tournament.tiebreaks if name not in ("points", "seed")],
        rounds=round_views,
        history=history,
        bracket_rounds=round_selectors.rounds(history, include_drafts=organizer) if history else None,
    )


QUEUED = (
    Registration.Status.WAITLISTED,
    Registration.Status.PENDING,
    Registration.Status.DECLINED,
    Registration.Status.INVITED,
)


def tournament_page(
    tournament: Tournament,
    user: User | AnonymousUser | None,
    *,
    standings_page: str | None,
    players_page: str | None,
) -> TournamentPage:
    """The whole tournament page for `user` (its forms aside)."""
    live = tournament_live(tournament, user, standings_page=standings_page)
    organizer = live.organizer
    rows = tournament.registrations.select_related("player").order_by("seed", "id")
    listed = rows.exclude(status__in=QUEUED)
    waiting = selectors.waitlist(list(rows.filter(status=Registration.Status.WAITLISTED)))
    # player_of also takes anonymous users (it checks is_authenticated; its annotation names only users)
    player = selectors.player_of(cast(AbstractBaseUser | None, user))
    own = rows.filter(player=player).first() if player is not None else None
    last = live.rounds[-1] if live.rounds else None
    return TournamentPage(
        **{name: getattr(live, name) for name in TournamentLive.__dataclass_fields__},
        next_table=round_selectors.next_bracket_table(tournament) if live.flowing else None,
        game_name=game_name(tournament.game_id),
        last_round=last,
        planned_rounds=seam.planned_rounds(tournament, live.history),
        registrations=listed,  # read only by an organizer's form before the start
        players_page=Paginator(listed, PLAYERS_PER_PAGE).get_page(players_page),
        waitlist=waiting,
        pending=list(rows.filter(status=Registration.Status.PENDING)),
        declined=list(rows.filter(status=Registration.Status.DECLINED)) if organizer else [],
        invited=list(rows.filter(status=Registration.Status.INVITED)) if organizer else [],
        places_left=None
        if tournament.capacity is None
        else max(0, tournament.capacity - rows.filter(status=Registration.Status.ACTIVE).count()),
        entry=selectors.my_entry(
            tournament, user, [*([own] if own is not None and own not in waiting else []), *waiting]
        ),
        check_in_state=selectors.check_in_state(tournament),
        round_times=list(tournament.round_times.all()),
        can_register=organizer and services.registration_open(tournament),
        table_rule=seam.table_spec(tournament),
        byes=bye_choices(tournament, organizer, live.history, own),
        days=tournament_days(tournament, live.history),
    )


def bye_choices(
    tournament: Tournament, organizer: bool, history: History | None, own: Registration | None
) -> ByeChoices:
    """The byes and breaks part of the tournament page, for an organizer or for `own` registration (the
    rounds generated read from `history` when the page loaded it)."""
    if tournament.status == Tournament.Status.FINISHED or not is_swiss_round(tournament, 1):
        return ByeChoices(rounds=[])
    if history is not None:
        generated = history.round_rows[-1].number if history.round_rows else 0
    else:
        generated = tournament.round_set.aggregate(last=Max("number"))["last"] or 0
    last = tournament.rounds or 0
    rounds = [number for number in range(generated + 1, last + 1) if is_swiss_round(tournament, number)]
    own = own if own is not None and own.status == Registration.Status.ACTIVE else None
    if not rounds or not (organizer or own):
        return ByeChoices(rounds=[])
    active = tournament.registrations.select_related("player").filter(status=Registration.Status.ACTIVE)
    return ByeChoices(
        rounds=rounds,
        requests=selectors.open_bye_requests(
            tournament, None if organizer else cast(Registration, own).player_id
        ),
        players=active.order_by("seed", "id") if organizer else [],
        own=own,
    )


def round_state(
    tournament: Tournament, number: int, organizer: bool, tables: tuple[int, int] | None = None
) -> tuple:
    """The round's history (only that round's tables, within table numbers `tables` when given:
    `load_history(round_number=...)`), every round's view and this round's; 404 for a round not shown."""
    history = load_history(tournament, round_number=number, tables=tables)
    views = round_selectors.rounds(history, include_drafts=organizer)
    view = next((view for view in views if view.number == number), None)
    if view is None:
        raise Http404("no such round")
    return history, views, view


@dataclass(frozen=True)
class RoundPage:
    """A round's page: the round's view (a page of its tables, every table of a draft) with the tables'
    forecasts, the rounds, the first table still waiting, its reports and what the user may do."""

    tournament: Tournament
    game_name: str
    organizer: bool
    draft: bool
    round: round_selectors.RoundView
    rounds: list[round_selectors.RoundView]
    table_pages: dict[str, int] | None  # with more than one page of tables
    quality: Any
    next_waiting: Any
    can_score: bool
    planned_start: Any
    flowing: bool
    reports: report_selectors.RoundReports | None  # published rounds only
    self_report: bool
    my_player_id: int | None
    can_generate_next: bool
    warnings: list[draft_warnings.DraftWarning] = field(default_factory=list)  # an organizer's draft only


def _attach_draft_marks(view, round_row: Round) -> list[draft_warnings.DraftWarning]:
    """A draft's warnings; each seat gets its points before the round (`seat.before`) and whether it met
    someone of its table before (`seat.repeat`). Reads the whole history (the warnings look back)."""
    history = load_history(round_row.tournament)
    draft = draft_warnings.draft_of(round_row, history)
    marks = draft_warnings.seat_marks(draft)
    for table in view.tables:
        for seat in table.seats:
            mark = marks.get(seat.player_id)
            if mark is not None:
                seat.before, seat.repeat = mark.points, mark.repeat
    return draft_warnings.draft_warnings(round_row, history)


def _attach_forecasts(view) -> None:
    """Each seat of a published table gets its stored pre-match chances as `seat.forecast` (one query)."""
    forecasts = predictions_by_seat([table.match_id for table in view.tables if table.match_id])
    by_match: dict[int, dict[int, object]] = {}
    for (match_id, _), forecast in forecasts.items():
        by_match.setdefault(match_id, {})[forecast.player_id] = forecast
    for table in view.tables:
        for seat in table.seats:
            seat.forecast = by_match.get(table.match_id, {}).get(seat.player_id)


def round_page(
    tournament: Tournament, user: User | AnonymousUser | None, number: int, *, table_page: str | None
) -> RoundPage:
    """Round `number`'s page for `user`, at page `table_page` of its tables; 404 for a round not shown."""
    organizer = selectors.is_organizer(user, tournament)
    planned = RoundTime.objects.filter(tournament=tournament, number=number).first()
    round_row = tournament.round_set.filter(number=number).first()
    # A draft shows every table (the organizer moves any player to any table); a published round a page of
    # tables by number (`round_selectors.table_page`), the first table still waiting found by one query.
    draft = round_row is not None and round_row.status == Round.Status.DRAFT
    page = round_selectors.page_number(table_page)
    _, views, view = round_state(
        tournament, number, organizer, None if draft else round_selectors.table_range(page)
    )
    top = (round_row.tables.aggregate(top=Max("number"))["top"] or 0) if round_row is not None else 0
    pages = 1 if draft else round_selectors.table_page(top)
    if draft:
        next_waiting = next((table for table in view.tables if not table.has_result), None)
    else:
        done = (Match.Status.FINISHED, Match.Status.VOID)
        next_waiting = (
            cast(Round, round_row)  # a round shown that is not a draft has its row
            .tables.filter(match__isnull=False)
            .exclude(match__status__in=done)
            .order_by("number")
            .first()
        )
    _attach_forecasts(view)
    warnings = _attach_draft_marks(view, cast(Round, round_row)) if draft and organizer else []
    first, last = round_selectors.table_range(page)
    return RoundPage(
        tournament=tournament,
        game_name=game_name(tournament.game_id),
        organizer=organizer,
        draft=draft,
        round=view,
        rounds=views,
        table_pages={"number": page, "count": pages, "first": first, "last": min(top, last), "top": top}
        if pages > 1
        else None,
        quality=round_row.quality if round_row is not None else view.row.quality,
        next_waiting=next_waiting,
        can_score=organizer or selectors.can_score(user, tournament),
        planned_start=planned.starts_at if planned else None,
        flowing=flows(tournament, number),
        reports=report_selectors.round_reports(view.tables) if not draft else None,
        self_report=tournament.result_reporting == Tournament.Reporting.SELF_REPORT,
        my_player_id=getattr(selectors.player_of(cast(AbstractBaseUser | None, user)), "pk", None),
        can_generate_next=tournament.status == Tournament.Status.RUNNING
        and view.row.status == Round.Status.COMPLETE
        and view.number == views[-1].number
        and not flows(tournament, number),
        warnings=warnings,
    )


@dataclass(frozen=True)
class PathInputs:
    """What every player's path page of one state of a tournament reads: the history, its published rounds'
    views and the standings (`path_inputs`)."""

    history: History
    views: list[round_selectors.RoundView]
    standings: list[Any]


# One state per tournament, in this process: a tournament's players look at their paths in the same minutes
# (1,000 of them after a round's publication), and each path reads the whole history and standings.
_PATHS: dict[int, tuple[tuple[int, int], PathInputs]] = {}
_PATHS_KEPT = 8  # tournaments whose inputs this process keeps


def path_inputs(tournament: Tournament, names_version: int) -> PathInputs:
    """The inputs of the tournament's path pages in its state now: read once per state (its public version
    and the site-wide names version, which every write that changes a path bumps) and kept in this process.
    A state that moved on while they were read is kept under the earlier version: newer, never older."""
    state = (tournament.public_version, names_version)
    kept = _PATHS.get(tournament.pk)
    if kept is not None and kept[0] == state:
        return kept[1]
    history = load_history(tournament)
    inputs = PathInputs(
        history,
        round_selectors.rounds(history, include_drafts=False),
        snapshots.current_standings(tournament, history),
    )
    _PATHS.pop(tournament.pk, None)
    while len(_PATHS) >= _PATHS_KEPT:
        _PATHS.pop(next(iter(_PATHS)))
    _PATHS[tournament.pk] = (state, inputs)
    return inputs
