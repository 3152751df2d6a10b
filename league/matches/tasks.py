"""Celery adapters for matches: ids in, a service call, idempotent (safe with acks_late and retries)."""

from celery import shared_task
from django.db import OperationalError

from league.matches.services import VERIFY_TASK, matches_unverified, matches_verify

BATCH = 200


@shared_task(name=VERIFY_TASK, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def verify_matches_task(match_ids: list[int]) -> int:
    """Strictly verify stored matches' records and store the verdicts; how many were stored."""
    return matches_verify(match_ids=match_ids)


@shared_task
def verify_unverified_task() -> int:
    """Queue verification of every stored record without a verdict (a safety net for lost messages, and the
    matches stored before verification existed); run by beat. How many matches were queued."""
    ids = matches_unverified(limit=10_000)
    for start in range(0, len(ids), BATCH):
        verify_matches_task.delay(ids[start : start + BATCH])
    return len(ids)
