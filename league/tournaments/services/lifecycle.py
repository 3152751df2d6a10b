"""A tournament's lifecycle: open registration, seed, start (under check-in: no-shows out, checked-in
waitlisted players up), finish; and the ends other than a finish: deleting a tournament that never
published a round, cancelling one (undone for `UNDO_MINUTES`), and cloning any into a new draft."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, cast

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone

from league.core import events
from league.core.bounds import Bounds
from league.core.checks import is_int
from league.core.errors import UserError
from league.core.names import check_text
from league.matches.models import Match
from league.players.models import Player
from league.ratings.models import Rating
from league.results.services import result_reopen, result_void
from league.tournaments import seam
from league.tournaments.errors import NotOrganizer, StateConflict
from league.tournaments.models import AuditEntry, Registration, Round, RoundTime, Table, Tournament
from league.tournaments.selectors import UNDO_MINUTES, is_organizer, start_plan
from league.tournaments.services.audit import Action, audit
from league.tournaments.services.checks import check_cut_fits
from league.tournaments.services.common import check_organizer, last_round, tournament_locked
from league.tournaments.services.settings import SETTINGS, tournament_create
from league.tournaments.services.signup import SIGNUP_SETTINGS


def _move_status(
    tournament: Tournament, by: User, allowed: Sequence[str], target: str, action: str
) -> Tournament:
    check_organizer(user=by, tournament=tournament)
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        if tournament.status not in allowed:
            raise StateConflict(
                f"a tournament in {tournament.get_status_display().lower()} cannot move to "
                f"{Tournament.Status(target).label.lower()}",
                field="status",
            )
        tournament.status = target
        tournament.save(update_fields=["status"])
        audit(tournament, by, action)
    return tournament


def tournament_open_registration(*, tournament: Tournament, by: User) -> Tournament:
    return _move_status(
        tournament, by, [Tournament.Status.DRAFT], Tournament.Status.REGISTRATION, Action.REGISTRATION_OPENED
    )


def tournament_start(
    *,
    tournament: Tournament,
    by: User,
    confirm: Any = False,
    dropped: Sequence[int] | None = None,
    promoted: Sequence[int] | None = None,
) -> Tournament:
    """Close registration and start: players without a seed are seeded by rating after the seeded ones.

    With check-in, starting carries out the start's plan (`selectors.start_plan`): registered players who
    did not check in become no-shows, checked-in waitlisted players move up in waitlist order up to the
    cap. It asks for `confirm`; `dropped` and `promoted` (player ids) are what the organizer was shown, and
    a plan that changed since (someone checked in meanwhile) is refused, to be looked at again. Seeds close
    up over the no-shows' (1, 2, 4 → 1, 2, 3), keeping their order. Without check-in, neither applies."""
    check_organizer(user=by, tournament=tournament)
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
            raise StateConflict("the tournament has already started", field="status")
        plan = start_plan(tournament)
        if plan.check_in:
            if confirm is not True:
                raise UserError(
                    f"check-in is on: starting drops {len(plan.dropped)} no-show(s) and moves "
                    f"{len(plan.promoted)} up from the waitlist; look at the start preview and confirm",
                    field="confirm",
                )
            for shown, planned in ((dropped, plan.dropped), (promoted, plan.promoted)):
                if shown is not None and sorted(shown) != sorted(reg.player_id for reg in planned):
                    raise StateConflict(
                        "check-ins changed since the preview: look at the start preview again"
                    )
        minimum = max(2, seam.table_spec(tournament).minimum)
        if len(plan.starting) < minimum:
            raise StateConflict(f"a tournament needs at least {minimum} registered players to start")
        if tournament.format == Tournament.Format.STAGES and tournament.cut_size is not None:
            check_cut_fits(
                tournament,
                tournament.cut_size,
                players=len(plan.starting),
                advance=tournament.advance,
                who="starting",
            )
        if plan.check_in:
            for reg in plan.dropped:
                reg.status, reg.seed, reg.left_after_round = Registration.Status.NO_SHOW, None, 0
            for reg in plan.promoted:
                reg.status = Registration.Status.ACTIVE
            Registration.objects.bulk_update(
                plan.dropped + plan.promoted, ["status", "seed", "left_after_round"]
            )
            _close_seeds(tournament)
        _fill_seeds(tournament)
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
        audit(
            tournament,
            by,
            Action.STARTED,
            players=len(plan.starting),
            no_shows=[reg.player.name for reg in plan.dropped],
            moved_up=[reg.player.name for reg in plan.promoted],
        )
    return tournament


def _close_seeds(tournament: Tournament) -> None:
    """Number the active players' seeds 1, 2, ... in their order (after no-shows left gaps)."""
    seeded = list(
        tournament.registrations.filter(status=Registration.Status.ACTIVE, seed__isnull=False).order_by(
            "seed"
        )
    )
    if all(reg.seed == number for number, reg in enumerate(seeded, start=1)):
        return
    tournament.registrations.filter(pk__in=[reg.pk for reg in seeded]).update(seed=None)
    for number, reg in enumerate(seeded, start=1):
        reg.seed = number
    Registration.objects.bulk_update(seeded, ["seed"])


def tournament_finish(*, tournament: Tournament, by: User) -> Tournament:
    """End a running tournament early (it also ends by itself when its last round completes)."""
    check_organizer(user=by, tournament=tournament)
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        if tournament.status != Tournament.Status.RUNNING:
            raise StateConflict("only a running tournament can be finished", field="status")
        last = last_round(tournament)
        if last is not None and last.status != Round.Status.COMPLETE:
            raise StateConflict(f"round {last.number} is not complete: complete or discard it first")
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        audit(tournament, by, Action.FINISHED, after_round=last.number if last else 0, early=True)
        events.emit(events.tournament_finished, tournament_id=tournament.pk)
    return tournament


def _rating_order(tournament: Tournament, registrations: list[Registration]) -> list[Registration]:
    """Registrations by conservative rating in the game's people pool (best first); unrated players after,
    in the order they registered."""
    ratings = dict(
        Rating.objects.filter(
            pool__kind="people",
            pool__game_id=tournament.game_id,
            player_id__in=[reg.player_id for reg in registrations],
        ).values_list("player_id", "conservative")
    )
    return sorted(
        registrations,
        key=lambda reg: (
            reg.player_id not in ratings,
            -ratings.get(reg.player_id, 0.0),
            reg.created_at,
            reg.pk,
        ),
    )


def _fill_seeds(tournament: Tournament) -> None:
    active = list(tournament.registrations.filter(status=Registration.Status.ACTIVE))
    unseeded = [reg for reg in active if reg.seed is None]
    if not unseeded:
        return
    next_seed = 1 + max((reg.seed for reg in active if reg.seed is not None), default=0)
    for offset, reg in enumerate(_rating_order(tournament, unseeded)):
        reg.seed = next_seed + offset
    Registration.objects.bulk_update(unseeded, ["seed"])


def tournament_seed(
    *, tournament: Tournament, by: User, method: str, order: Sequence[int] | None = None
) -> list[Registration]:
    """Seed every active player, by rating ("rating") or in the given order of player ids ("hand").
    Only before round 1 is generated."""
    check_organizer(user=by, tournament=tournament)
    if method not in ("rating", "hand"):
        raise UserError("seed by 'rating' or by 'hand'", field="method")
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        if tournament.status == Tournament.Status.FINISHED or tournament.round_set.exists():
            raise StateConflict("seeds are fixed once round 1 is generated", field="status")
        active = list(tournament.registrations.filter(status=Registration.Status.ACTIVE))
        if method == "rating":
            ordered = _rating_order(tournament, active)
        else:
            by_player = {reg.player_id: reg for reg in active}
            if (
                not isinstance(order, list | tuple)
                or not all(is_int(pid) for pid in order)
                or sorted(order) != sorted(by_player)
            ):
                raise UserError("list every registered player's id once, top seed first", field="order")
            ordered = [by_player[pid] for pid in order]
        tournament.registrations.update(seed=None)
        for seed, reg in enumerate(ordered, start=1):
            reg.seed = seed
        Registration.objects.bulk_update(ordered, ["seed"])
        audit(tournament, by, Action.SEEDED, method=method, players=len(ordered))
    return ordered


CANCEL_REASON_MAX_LENGTH = 500
SHIFT_DAYS = Bounds(-3660, 3660)
SHIFT_HOURS = Bounds(-23, 23)


def _check_reach(by: User | AnonymousUser | None, tournament: Tournament) -> None:
    """The organizer check without the cancelled check: the undo and the deletion act on a cancelled one."""
    if not is_organizer(by, tournament):
        raise NotOrganizer()


def walk_ins(tournament: Tournament) -> list[int]:
    """The ids of the players made for `tournament`: people without an account, created since it was, with
    no registration elsewhere and no seat at any match."""
    return list(
        Player.objects.filter(
            registrations__tournament=tournament,
            kind=Player.Kind.PERSON,
            user__isnull=True,
            created_at__gte=tournament.created_at,
        )
        .exclude(registrations__tournament__in=Tournament.objects.exclude(pk=tournament.pk))
        .exclude(seats__isnull=False)
        .values_list("pk", flat=True)
    )


def tournament_delete(*, tournament: Tournament, by: User | AnonymousUser | None) -> list[str]:
    """Delete a tournament no round of which was published (a draft, a test), with its registrations, its
    log and the walk-ins made for it (`walk_ins`). Its organizers and site staff do this; a tournament that
    published a round is cancelled instead (409). Returns the names of the walk-ins deleted."""
    _check_reach(by, tournament)
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        published = tournament.round_set.exclude(status=Round.Status.DRAFT).order_by("number").first()
        if published is not None:
            raise StateConflict(
                f"round {published.number} was published: a tournament that played cannot be deleted; "
                "cancel it instead (its results and ratings stay)",
                field="status",
            )
        gone = walk_ins(tournament)
        names = list(Player.objects.filter(pk__in=gone).order_by("name").values_list("name", flat=True))
        tournament.delete()
        Player.objects.filter(pk__in=gone).delete()
    return names


def tournament_cancel(*, tournament: Tournament, by: User, reason: Any) -> Tournament:
    """Cancel an event that is not finished, saying why: stored results and their ratings stay, the
    published tables still waiting are voided, the players are told, and its webhooks send nothing more.
    Nothing changes in it afterwards but an undo (`tournament_cancel_undo`, for `UNDO_MINUTES`) or its
    deletion while no round was published; it can be cloned."""
    check_organizer(user=by, tournament=tournament)
    reason = check_text(reason, field="reason", max_length=CANCEL_REASON_MAX_LENGTH, what="the reason")
    if not reason:
        raise UserError("say why the event is cancelled: the players read it", field="reason")
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        if tournament.status == Tournament.Status.FINISHED:
            raise StateConflict("the tournament is finished: it cannot be cancelled", field="status")
        waiting = list(
            Table.objects.filter(round__tournament=tournament, match__status=Match.Status.SCHEDULED)
            .exclude(closed_as=Table.Closed.RESET)
            .order_by("round__number", "number")
            .values_list("pk", "match_id")
        )
        voided = []
        for table_id, match_id in waiting:
            match = result_void(
                match_id=match_id, entered_by=by, reason=f"cancelled: {reason}", owner=Match.Owner.TABLE
            )
            voided.append([table_id, match.result_version])
        before = tournament.status
        tournament.status = Tournament.Status.CANCELLED
        tournament.cancel_reason = reason
        tournament.save(update_fields=["status", "cancel_reason"])
        audit(tournament, by, Action.CANCELLED, reason=reason, before=before, voided=voided)
        events.emit(events.tournament_cancelled, tournament_id=tournament.pk)
    return tournament


def undo_entry(tournament: Tournament, action: str, what: str, **details: Any) -> AuditEntry:
    """The audit entry of the `action` to undo (the latest, whose details hold `details`), or a 409 when there
    is none or it is older than `UNDO_MINUTES` (`what` names it in the message)."""
    entry = (
        tournament.audit_entries.filter(action=action, **{f"details__{k}": v for k, v in details.items()})
        .order_by("-at", "-id")
        .first()
    )
    if entry is None:
        raise StateConflict(f"there is no {what} to undo", field="status")
    if timezone.now() - entry.at > timedelta(minutes=UNDO_MINUTES):
        raise StateConflict(
            f"the {what} was more than {UNDO_MINUTES} minutes ago: it can no longer be undone", field="status"
        )
    return entry


def tournament_cancel_undo(*, tournament: Tournament, by: User) -> Tournament:
    """Undo a cancel within `UNDO_MINUTES`: the event is back where it was, the tables the cancel voided
    wait for their results again (those still as the cancel left them)."""
    _check_reach(by, tournament)
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        if tournament.status != Tournament.Status.CANCELLED:
            raise StateConflict("the tournament is not cancelled", field="status")
        entry = undo_entry(tournament, Action.CANCELLED, "cancel")
        reopened = []
        tables = Table.objects.in_bulk([table_id for table_id, _ in entry.details.get("voided", [])])
        for table_id, version in entry.details.get("voided", []):
            table = tables.get(table_id)
            if table is None or table.match_id is None:
                continue
            try:
                result_reopen(
                    match_id=table.match_id,
                    expected_version=version,
                    entered_by=by,
                    reason="the cancel was undone",
                    owner=Match.Owner.TABLE,
                )
            except UserError:  # changed since: it stays as it is
                continue
            reopened.append(table_id)
        tournament.status = entry.details.get("before", Tournament.Status.RUNNING)
        tournament.cancel_reason = ""
        tournament.save(update_fields=["status", "cancel_reason"])
        audit(tournament, by, Action.CANCEL_UNDONE, before=tournament.status, reopened=len(reopened))
    return tournament


def tournament_clone(
    *,
    tournament: Tournament,
    by: User,
    name: Any = None,
    shift_days: Any = 0,
    shift_hours: Any = 0,
) -> Tournament:
    """A new draft with `tournament`'s settings, its sign-up settings and its clock (start, check-in and
    round times) moved by `shift_days` days and `shift_hours` hours, named `name` (default: the name with
    " (copy)"). Its organizers (of a cancelled one too) and site staff clone, and only staff create
    tournaments; the clone has no players, and its creator is its organizer."""
    _check_reach(by, tournament)
    SHIFT_DAYS.check(shift_days, "shift_days")
    SHIFT_HOURS.check(shift_hours, "shift_hours")
    shift = timedelta(days=shift_days, hours=shift_hours)
    if name in (None, ""):
        name = f"{tournament.name} (copy)"[: cast(int, Tournament._meta.get_field("name").max_length)]
    settings = {field: getattr(tournament, field) for field in SETTINGS if field != "name"}

    def moved(instant: datetime | None) -> datetime | None:
        return instant + shift if instant is not None else None

    with transaction.atomic():
        clone = tournament_create(
            created_by=by,
            name=name,
            time_zone=tournament.time_zone,
            starts_at=moved(tournament.starts_at),
            **settings,
        )
        clone.checkin_opens_at = moved(tournament.checkin_opens_at)
        for field in SIGNUP_SETTINGS:
            setattr(clone, field, getattr(tournament, field))
        clone.save(update_fields=["checkin_opens_at", *SIGNUP_SETTINGS])
        RoundTime.objects.bulk_create(
            RoundTime(tournament=clone, number=row.number, starts_at=row.starts_at + shift)
            for row in tournament.round_times.order_by("number")
        )
        audit(
            clone,
            by,
            Action.CLONED,
            source=tournament.name,
            source_slug=tournament.slug,
            shift_days=shift_days,
            shift_hours=shift_hours,
        )
    return clone
