"""Celery adapters for bot leagues: ids in, a service call. Each is idempotent, so `acks_late` is safe.

This module imports the services; they queue these tasks by their registered names (see
`league.bots.leagues`), so the services never import it.
"""

import os
import socket

from celery import shared_task
from celery.signals import worker_init
from django.db import OperationalError
from django.db.backends.signals import connection_created

from games import registry
from league.bots.leagues import league_tick
from league.bots.worker import league_work, leases_reap, relax_session_commits


def worker_name() -> str:
    """This process, as written into the leases it takes (host and pid)."""
    return f"{socket.gethostname()}:{os.getpid()}"


@worker_init.connect
def load_engines(**kwargs) -> None:
    """Import every game engine and bot before the pool forks, so no child pays for it in its first match."""
    registry.game_ids()


@worker_init.connect
def relax_commits(**kwargs) -> None:
    """A worker's database sessions commit without waiting for the disk (see `_relax_commit`)."""
    connection_created.connect(relax_session_commits, dispatch_uid="relax_session_commits")


# A task claims no new batch after this long and hands on to a fresh task; a batch itself may be slow (search
# bots), so the task's own time limit is generous and a stuck batch is left to the lease and the reaper.
TASK_WORK_SECONDS = 60
TASK_TIME_LIMIT_SECONDS = 6 * 3600


@shared_task(
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
    time_limit=TASK_TIME_LIMIT_SECONDS,
    soft_time_limit=TASK_TIME_LIMIT_SECONDS - 60,
)
def league_play_task(league_id: int) -> int:
    """Claim, play and store batches of a league's open matches for about a minute; matches stored."""
    return league_work(league_id=league_id, worker=worker_name(), max_seconds=TASK_WORK_SECONDS)


@shared_task
def reap_leases_task() -> int:
    """Hand back matches whose worker died (lease expired) and queue work for running leagues; run by beat."""
    return leases_reap()


@shared_task
def league_tick_task(league_id: int) -> bool:
    """A scheduled league's periodic step: draw its next round if the last one is done and rated."""
    return league_tick(league_id=league_id)
