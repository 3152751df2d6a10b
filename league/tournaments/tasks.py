"""The tournaments' background work: refreshing a large event's standings snapshot (`snapshots`)."""

from __future__ import annotations

from celery import shared_task

from league.tournaments import snapshots


@shared_task(ignore_result=True)
def standings_refresh_task(tournament_id: int) -> None:
    """Compute and store the standings of the tournament's state now (a no-op if they are stored)."""
    snapshots.warm(tournament_id)
