"""A tournament's lifecycle: open registration, seed, start (under check-in: no-shows out, checked-in
waitlisted players up), finish."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from league.core import events
from league.core.checks import is_int
from league.core.errors import UserError
from league.ratings.models import Rating
from league.tournaments import seam
from league.tournaments.errors import StateConflict
from league.tournaments.models import Registration, Round, Tournament
from league.tournaments.selectors import start_plan
from league.tournaments.services.audit import Action, audit
from league.tournaments.services.checks import check_cut_fits
from league.tournaments.services.common import check_organizer, last_round, tournament_locked


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
