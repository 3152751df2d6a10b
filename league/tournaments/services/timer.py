"""The round timer, write side: an organizer starts a timer for a published round, pauses and resumes it,
extends it, or resets it (removes it). Only organizers and site staff run it; scorekeepers enter results
but do not run the clock. Each write locks the round row, so two clicks at once apply one after the other.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, cast

from django.contrib.auth.models import User
from django.db import transaction

from league.core.bounds import Bounds
from league.tournaments import timers
from league.tournaments.errors import StateConflict
from league.tournaments.models import Round
from league.tournaments.services.common import bump_public_version, check_organizer

TIMER_MINUTES = Bounds(1, 600)  # a round of up to ten hours
EXTEND_MINUTES = Bounds(1, 120)
TIMER_FIELDS = ["timer_duration_seconds", "timer_ends_at", "timer_paused_remaining"]


def _published_round(round_row: Round, by: User) -> Round:
    """The round locked (call inside a transaction), checked to be run by `by` and published."""
    check_organizer(user=by, tournament=round_row.tournament)
    locked = Round.objects.select_for_update().select_related("tournament").get(pk=round_row.pk)
    if locked.status != Round.Status.PUBLISHED:
        state = "a draft" if locked.status == Round.Status.DRAFT else "complete"
        raise StateConflict(f"round {locked.number} is {state}: the timer runs for a published round")
    return locked


def _save(locked: Round, round_row: Round) -> Round:
    locked.save(update_fields=TIMER_FIELDS)
    bump_public_version(locked.tournament_id)
    for name in TIMER_FIELDS:
        setattr(round_row, name, getattr(locked, name))
    return locked


def round_timer_start(*, round_row: Round, by: User, minutes: Any) -> Round:
    """Start a timer of `minutes` (1 to 600) now. 409 while a timer runs or is paused (reset it first);
    a timer that ran out is replaced."""
    minutes = TIMER_MINUTES.check(minutes, "minutes")
    with transaction.atomic():
        locked = _published_round(round_row, by)
        view = timers.timer_view(locked)
        if view is not None and not view.over:
            raise StateConflict(f"the timer is {view.state}: pause, extend or reset it")
        locked.timer_duration_seconds = minutes * 60
        locked.timer_ends_at = timers.now() + timedelta(minutes=minutes)
        locked.timer_paused_remaining = None
        return _save(locked, round_row)


def round_timer_pause(*, round_row: Round, by: User) -> Round:
    """Pause a running timer, keeping the seconds it has left. 409 unless it runs."""
    with transaction.atomic():
        locked = _published_round(round_row, by)
        view = timers.timer_view(locked)
        if view is None or not view.running:
            raise StateConflict(f"the timer is {_state(view)}: only a running timer pauses")
        locked.timer_paused_remaining = view.seconds_left
        locked.timer_ends_at = None
        return _save(locked, round_row)


def round_timer_resume(*, round_row: Round, by: User) -> Round:
    """Run a paused timer on from the seconds it had left. 409 unless it is paused."""
    with transaction.atomic():
        locked = _published_round(round_row, by)
        view = timers.timer_view(locked)
        if view is None or not view.paused:
            raise StateConflict(f"the timer is {_state(view)}: only a paused timer resumes")
        locked.timer_ends_at = timers.now() + timedelta(seconds=view.seconds_left)
        locked.timer_paused_remaining = None
        return _save(locked, round_row)


def round_timer_extend(*, round_row: Round, by: User, minutes: Any) -> Round:
    """Give a timer `minutes` (1 to 120) more: a running or paused one gets them on top of what it has left,
    one that ran out runs again for `minutes` from now. 409 without a timer."""
    minutes = EXTEND_MINUTES.check(minutes, "minutes")
    with transaction.atomic():
        locked = _published_round(round_row, by)
        view = timers.timer_view(locked)
        if view is None:
            raise StateConflict("the round has no timer: start one")
        extra = timedelta(minutes=minutes)
        if view.paused:
            locked.timer_paused_remaining += minutes * 60
        else:
            running = cast(datetime, locked.timer_ends_at)  # a timer that is not paused runs to its end
            locked.timer_ends_at = max(running, timers.now()) + extra
        locked.timer_duration_seconds += minutes * 60
        return _save(locked, round_row)


def round_timer_reset(*, round_row: Round, by: User) -> Round:
    """Remove the round's timer (start a new one afterwards). 409 without a timer."""
    with transaction.atomic():
        locked = _published_round(round_row, by)
        if timers.timer_view(locked) is None:
            raise StateConflict("the round has no timer to reset")
        locked.timer_duration_seconds = locked.timer_ends_at = locked.timer_paused_remaining = None
        return _save(locked, round_row)


def _state(view: timers.TimerView | None) -> str:
    return "not started" if view is None else view.state
