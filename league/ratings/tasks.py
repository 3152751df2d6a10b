"""Celery adapters for ratings: ids in, a service call, idempotent (safe with acks_late and retries)."""

from celery import shared_task
from django.db import OperationalError

from league.ratings.models import PendingRatingUpdate
from league.ratings.refits import refits_queue_nightly
from league.ratings.services import calibration_refresh, pool_rate


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def pool_update_task(pool_id: int) -> int:
    """Replay a pool from its earliest pending match; returns the number of matches applied."""
    return pool_rate(pool_id=pool_id, now=True)


@shared_task
def sweep_pending_ratings() -> int:
    """Queue an update for every pool with pending matches (a safety net for lost messages); run by beat."""
    pool_ids = sorted(set(PendingRatingUpdate.objects.values_list("pool_id", flat=True)))
    for pool_id in pool_ids:
        pool_update_task.delay(pool_id)
    return len(pool_ids)


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def calibration_refresh_task(pool_id: int) -> int:
    """Recompute a pool's calibration; returns the number of matches it covers."""
    return calibration_refresh(pool_id=pool_id)["matches"]


@shared_task
def settled_nightly() -> int:
    """Queue the whole-history fits due tonight (every people's pool with a rated match; every season ranked
    by settled ratings) as work of the workers' fair share (`league.ratings.refits`); run by beat at night."""
    return refits_queue_nightly()
