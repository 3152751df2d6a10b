"""The tournaments' background work: refreshing a large event's standings snapshot (`snapshots`), and
starting the next round by itself once every table is in (`services.big_days`)."""

from __future__ import annotations

from celery import shared_task

from league.tournaments import snapshots
from league.tournaments.services.big_days import round_advance


@shared_task(ignore_result=True)
def standings_refresh_task(tournament_id: int) -> None:
    """Compute and store the standings of the tournament's state now (a no-op if they are stored)."""
    snapshots.warm(tournament_id)


@shared_task(ignore_result=True)
def round_advance_task(round_id: int) -> str:
    """Complete the round and start the next one (`big_days.round_advance`; a second run does nothing)."""
    return round_advance(round_id=round_id)
