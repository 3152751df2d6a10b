"""Celery adapters for bot leagues: ids in, a service call. Each is idempotent, so `acks_late` is safe.

This module imports the services; they queue these tasks by their registered names (see
`league.bots.services.leagues`), so the services never import it.
"""

import logging
import os
import socket

from celery import shared_task
from celery.signals import worker_init
from django.db import DatabaseError, OperationalError, connections
from django.db.backends.signals import connection_created

from games import registry
from league.bots.services.leagues import league_tick
from league.bots.services.leases import leases_reap, relax_session_commits
from league.bots.services.work import work_shared
from league.bots.uploads import bot_check, upload_check_waiting, uploads_recheck
from league.programs import sandboxing
from league.programs.checking import CheckUnavailable
from league.programs.services import worker_probe_record

logger = logging.getLogger(__name__)


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


@worker_init.connect
def probe_sandbox(sender=None, **kwargs) -> None:
    """Prove the sandbox before taking any work: the probe tries every escape (`league.programs.probe`); what
    it proved goes into this worker's `WorkerProbe` row (the bot pages and /health/ show it), with the
    runtimes its sandbox runs (python, node, c), and the pool's processes inherit the verdict. A worker that
    proved less takes no external program's seat, nor one of a runtime its probe did not find."""
    result = sandboxing.reprobe()
    node = getattr(sender, "hostname", None) or worker_name()
    failed = sorted(name for name, held in result.proven.items() if not held)
    if failed:
        logger.warning(
            "%s: sandbox not proven (%s): no external program's seat here", node, ", ".join(failed)
        )
    else:
        logger.info(
            "%s: sandbox proven; runtimes: %s",
            node,
            ", ".join(f"{name} ({version})" for name, version in (result.runtimes or {}).items()) or "none",
        )
    try:
        worker_probe_record(worker=node, hostname=socket.gethostname(), result=result)
    except DatabaseError:
        logger.warning("%s: could not store the sandbox probe", node, exc_info=True)
    finally:
        connections.close_all()  # the pool's processes open their own


# A task claims no new batch after this long and hands on to a fresh task; a batch itself may be slow (search
# bots), so the task's own time limit is generous and a stuck batch is left to the lease and the reaper.
TASK_WORK_SECONDS = 60
TASK_TIME_LIMIT_SECONDS = 6 * 3600


@shared_task(
    bind=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
    time_limit=TASK_TIME_LIMIT_SECONDS,
    soft_time_limit=TASK_TIME_LIMIT_SECONDS - 60,
)
def league_play_task(self, league_id: int) -> int:
    """Queued when a league's round is drawn: play open work for about a minute, slice by slice, each slice
    to the least-served kind (`work_shared`: this league's fixtures among the rest); matches and records
    done."""
    return _work_shared(self)


def _work_shared(task) -> int:
    done = work_shared(
        worker=worker_name(),
        max_seconds=TASK_WORK_SECONDS,
        node=task.request.hostname or None,
        between_slices=upload_check_waiting,
    )
    return sum(done.values())


@shared_task
def reap_leases_task() -> int:
    """Hand back matches whose worker died (lease expired) and queue work for running leagues; run by beat."""
    return leases_reap()


@shared_task
def league_tick_task(league_id: int) -> bool:
    """A scheduled league's periodic step: draw its next round if the last one is done and rated."""
    return league_tick(league_id=league_id)


@shared_task(
    bind=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
    time_limit=TASK_TIME_LIMIT_SECONDS,
    soft_time_limit=TASK_TIME_LIMIT_SECONDS - 60,
)
def challenge_play_task(self) -> int:
    """Play open work for about a minute, slice by slice, each slice to the least-served kind (`work_shared`:
    challenges, ladders, leagues, verification); matches and records done."""
    return _work_shared(self)


@shared_task(
    autoretry_for=(OperationalError, CheckUnavailable),
    retry_backoff=True,
    retry_backoff_max=10 * 60,
    max_retries=8,
)
def bot_check_task(bot_id: int) -> str:
    """Compile an uploaded version's modules in a bounded child process (`league.bots.uploads.bot_check`);
    its state after. On the default queue, which every worker (`make run`'s too) consumes."""
    return bot_check(bot_id=bot_id)


@shared_task
def uploads_recheck_task() -> int:
    """Queue again the checks of uploads still checking after a while (a lost task); run by beat."""
    return len(uploads_recheck())
