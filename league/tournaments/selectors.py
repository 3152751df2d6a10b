"""Reads for tournaments: who organizes and who keeps score, sign-up (places, the waitlist, one's own
entry), the start's plan under check-in, the list of tournaments, open bye requests, and standings with
every tie-break column. Rounds and their tables are read in `round_selectors.py`, self-report's reports and
disputes in `report_selectors.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import cast

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from league.core.names import fold
from league.players.models import Player
from league.players.selectors import player_of
from league.tournaments import ranking
from league.tournaments.models import AuditEntry, ByeRequest, Registration, Round, Tournament
from league.tournaments.ranking import StandingRow


def is_organizer(user: User | AnonymousUser | None, tournament: Tournament) -> bool:
    """Site staff, the tournament's creator and the organizers its organizers added."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return tournament.organizers.filter(pk=user.pk).exists()


def is_scorekeeper(user: User | AnonymousUser | None, tournament: Tournament) -> bool:
    """A scorekeeper of this tournament (who enters and corrects its results, and nothing else)."""
    if user is None or not user.is_authenticated:
        return False
    return tournament.scorekeepers.filter(pk=user.pk).exists()


def is_judge(user: User | AnonymousUser | None, tournament: Tournament) -> bool:
    """A judge of this tournament (answers calls, gives extensions and penalties, enters results; never
    the settings). `reach.may_judge` is the rule that adds organizers and staff."""
    if user is None or not user.is_authenticated:
        return False
    return tournament.judges.filter(pk=user.pk).exists()


def can_score(user: User | AnonymousUser | None, tournament: Tournament) -> bool:
    """Whether the user enters and corrects the tournament's results: its organizers, staff, scorekeepers
    and judges."""
    return is_organizer(user, tournament) or is_scorekeeper(user, tournament) or is_judge(user, tournament)


def shows_short_names(user: User | AnonymousUser | None, tournament: Tournament) -> bool:
    """Whether `user` sees the tournament's players by first name and initial: the tournament asks for it
    (`short_names`) and the user neither organizes nor keeps score there."""
    return tournament.short_names and not can_score(user, tournament)


@dataclass(frozen=True)
class Role:
    username: str
    role: str  # "organizer", "scorekeeper" or "judge"


def roles(tournament: Tournament) -> list[Role]:
    """The tournament's organizers, then its scorekeepers, then its judges, each by user name."""
    organizers = tournament.organizers.order_by("username").values_list("username", flat=True)
    scorekeepers = tournament.scorekeepers.order_by("username").values_list("username", flat=True)
    judges = tournament.judges.order_by("username").values_list("username", flat=True)
    return (
        [Role(name, "organizer") for name in organizers]
        + [Role(name, "scorekeeper") for name in scorekeepers]
        + [Role(name, "judge") for name in judges]
    )


WAITLIST_ORDER = ("queued_at", "id")
# Statuses listed for everyone on a tournament's page and in the API; declined entries only for organizers.
PUBLIC_STATUSES = tuple(
    status
    for status in Registration.Status.values
    if status not in (Registration.Status.DECLINED, Registration.Status.INVITED)
)


def waitlist(registrations: list[Registration]) -> list[Registration]:
    """The waitlisted registrations in the order they move up: who queued first (then the older row)."""
    queued = [reg for reg in registrations if reg.status == Registration.Status.WAITLISTED]
    return sorted(queued, key=lambda reg: (reg.queued_at or reg.created_at, reg.pk))


def waitlist_positions(registrations: list[Registration]) -> dict[int, int]:
    """Registration id → its place on the waitlist (from 1), in the order `waitlist` gives: the one count
    of positions that the pages and the API show."""
    return {reg.pk: position for position, reg in enumerate(waitlist(registrations), start=1)}


def places_left(tournament: Tournament, registrations: list[Registration]) -> int | None:
    """Free places under the cap (never below 0); None without a cap."""
    if tournament.capacity is None:
        return None
    active = sum(1 for reg in registrations if reg.status == Registration.Status.ACTIVE)
    return max(0, tournament.capacity - active)


def check_in_state(tournament: Tournament, now: datetime | None = None) -> str:
    """ "off" (no check-in), "not_yet" (the window opens later), "open", or "closed" (the tournament
    started)."""
    if not tournament.check_in:
        return "off"
    if tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
        return "closed"
    if (now or timezone.now()) < cast(datetime, tournament.checkin_opens_at):  # check-in on: it opens then
        return "not_yet"
    return "open"


@dataclass(frozen=True)
class MyEntry:
    """The signed-in player's view of a tournament's sign-up."""

    player: Player | None
    registration: Registration | None
    waitlist_position: int | None  # from 1, when waitlisted
    can_join: bool
    can_leave: bool
    can_check_in: bool


def my_entry(
    tournament: Tournament, user: User | AnonymousUser | None, registrations: list[Registration]
) -> MyEntry:
    """What the user may do with their own entry now (the services check the same rules on each write)."""
    # player_of also takes anonymous users (it checks is_authenticated; its annotation names only users)
    player = player_of(cast(AbstractBaseUser | None, user))
    reg = next((reg for reg in registrations if player is not None and reg.player_id == player.pk), None)
    before_start = tournament.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)
    status = reg.status if reg is not None else None
    entered = status in (
        Registration.Status.ACTIVE,
        Registration.Status.WAITLISTED,
        Registration.Status.PENDING,
    )
    position = None
    if status == Registration.Status.WAITLISTED:
        position = waitlist_positions(registrations)[cast(Registration, reg).pk]  # the status is reg's
    can_join = (
        player is not None
        and tournament.self_signup
        and tournament.status == Tournament.Status.REGISTRATION
        and status in (None, Registration.Status.WITHDRAWN)
    )
    can_check_in = (
        status in (Registration.Status.ACTIVE, Registration.Status.WAITLISTED)
        and check_in_state(tournament) == "open"
    )
    return MyEntry(player, reg, position, can_join, entered and before_start, can_check_in)


@dataclass(frozen=True)
class StartPlan:
    """What starting the tournament does now. Without check-in, everyone registered starts and nobody moves.

    With check-in: registered players who did not check in are dropped as no-shows (`dropped`); waitlisted
    players who checked in move up in waitlist order while places remain under the cap (`promoted`); the
    other waitlisted players stay on the waitlist (`staying`); `starting` is who plays.
    """

    check_in: bool
    dropped: list[Registration]
    promoted: list[Registration]
    staying: list[Registration]
    starting: list[Registration]


def start_plan(tournament: Tournament, registrations: list[Registration] | None = None) -> StartPlan:
    """The plan of `tournament_start` for the registrations as they are (read them inside the lock to act)."""
    if registrations is None:
        registrations = list(tournament.registrations.select_related("player").order_by("seed", "id"))
    active = [reg for reg in registrations if reg.status == Registration.Status.ACTIVE]
    queue = waitlist(registrations)
    if not tournament.check_in:
        return StartPlan(False, [], [], queue, active)
    present = [reg for reg in active if reg.checked_in_at is not None]
    dropped = [reg for reg in active if reg.checked_in_at is None]
    ready = [reg for reg in queue if reg.checked_in_at is not None]
    free = len(ready) if tournament.capacity is None else max(0, tournament.capacity - len(present))
    promoted = ready[:free]
    staying = [reg for reg in queue if reg not in promoted]
    return StartPlan(True, dropped, promoted, staying, present + promoted)


def tournament_list(*, user: User | AnonymousUser | None = None) -> QuerySet[Tournament]:
    """Tournaments, newest first, with their number of active players; drafts only for their organizers."""
    tournaments = Tournament.objects.annotate(
        player_count=Count(
            "registrations", filter=Q(registrations__status=Registration.Status.ACTIVE), distinct=True
        )
    ).order_by("-created_at", "-id")
    if user is None or not user.is_authenticated:
        return tournaments.exclude(status=Tournament.Status.DRAFT)
    if user.is_staff:
        return tournaments
    return tournaments.filter(~Q(status=Tournament.Status.DRAFT) | Q(organizers=user)).distinct()


def visible_tournament(slug: str, user: User | AnonymousUser | None) -> Tournament | None:
    """The tournament if this user may see it (drafts are for organizers only)."""
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        return None
    if tournament.status == Tournament.Status.DRAFT and not is_organizer(user, tournament):
        return None
    return tournament


def open_bye_requests(tournament: Tournament, player_id: int | None = None) -> list[ByeRequest]:
    """Requests to miss a round not generated yet (with their players), by round, then seed; one player's
    with `player_id`."""
    generated = tournament.round_set.order_by("-number").values_list("number", flat=True).first() or 0
    rows = tournament.bye_requests.select_related("player").filter(round_number__gt=generated)
    if player_id is not None:
        rows = rows.filter(player_id=player_id)
    seeds = dict(tournament.registrations.values_list("player_id", "seed"))
    return sorted(rows, key=lambda row: (row.round_number, seeds.get(row.player_id) or 0, row.player.name))


NEW_TIEBREAK_COLUMNS = (
    "opponents_points_average",
    "buchholz_cut1",
    "buchholz_median",
    "sonneborn_berger",
    "opponents_match_win_percentage",
    "cumulative",
    "requested_byes",
)


def standing_rows_of(history) -> list[StandingRow]:
    """The standings: every player who took part, with every tie-break column, in the tournament's order
    (an elimination's by its bracket, each row naming the rule of its group)."""
    return standing_rows(ranking.standings_of(history), {reg.player_id: reg for reg in history.registrations})


def standing_rows(ordered, registrations) -> list[StandingRow]:
    """`ordered` (pairing's standings) as rows with each player's name, page and status; `registrations`
    (with their players) by player id."""
    rows = []
    for standing in ordered:
        reg = registrations[standing.id]
        rows.append(
            StandingRow.of(
                standing, name=reg.player.name, slug=reg.player.slug, status=reg.get_status_display()
            )
        )
    return rows


def desk_search(registrations: list[Registration], query: str) -> list[Registration]:
    """The registrations (their players loaded) whose player's name or user name holds `query`, both folded
    (`league.core.names.fold`: "tomas" finds Tomás, "obrien" O’Brien); none for a query that folds to
    nothing (punctuation alone)."""
    needle = fold(query)
    if not needle:
        return []
    return [reg for reg in registrations if needle in reg.player.search_key]


def players_matching(tournament: Tournament, query: str) -> set[int]:
    """The ids of the players entered in `tournament` whose name or user name holds `query`, both folded;
    none for a query that folds to nothing."""
    needle = fold(query)
    if not needle:
        return set()
    return set(
        Player.objects.filter(registrations__tournament=tournament, search_key__contains=needle).values_list(
            "pk", flat=True
        )
    )


UNDO_MINUTES = 10  # how long a cancel or a table's closing can be undone (`services.lifecycle`)


def undoable(tournament: Tournament, action: str, **details: object) -> bool:
    """Whether the latest `action` of the tournament's log (with `details`) is recent enough to undo."""
    latest = (
        AuditEntry.objects.filter(
            tournament=tournament, action=action, **{f"details__{k}": v for k, v in details.items()}
        )
        .order_by("-at", "-id")
        .values_list("at", flat=True)
        .first()
    )
    return latest is not None and timezone.now() - latest <= timedelta(minutes=UNDO_MINUTES)


def deletable(tournament: Tournament) -> bool:
    """Whether the tournament can be deleted: no round of it was published."""
    return not tournament.round_set.exclude(status=Round.Status.DRAFT).exists()
