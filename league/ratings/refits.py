"""Whole-history fits as work of the bot workers' fair share (`docs/ratings.md`, "Settled ratings").

A fit is queued as a `RefitDue` row (`refit_queue`): by the nightly beat task for every due target, and at
once where an organizer asks for one (a season ranked by settled ratings). The workers' `work_shared` sees the
kind `ratings` while a row is queued and, when its share comes, takes one row (`refit_next`): the row is
deleted as it is taken (under `SKIP LOCKED`, so two workers never fit one target at once) and the target is
fitted and stored. A worker lost during a fit loses that fit only; the next night queues it again, and a fit
is a pure function of the stored results, so nothing is left half-written (each store is one transaction).

Targets are registered by kind in `REFITTERS`: `pool` here; `season` by the seasons app (in its `ready`).
Each kind gives its fit (target id → matches covered) and which targets are due each night.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction

from league.ratings.models import RefitDue
from league.ratings.settled import pools_due, settled_refit

logger = logging.getLogger(__name__)

KIND = "ratings"  # the kind's name in the workers' fair share


@dataclass(frozen=True)
class Refitter:
    fit: Callable[[int], int]  # target id → matches the fit covers
    due: Callable[[], list[int]]  # the targets to refit tonight


REFITTERS: dict[str, Refitter] = {
    "pool": Refitter(fit=lambda pool_id: settled_refit(pool_id=pool_id).matches, due=pools_due),
}

# Called after a commit that queued fits, to wake a worker (the bots app registers its play task here).
WAKE_HOOKS: list[Callable[[], None]] = []


def _wake() -> None:
    for hook in WAKE_HOOKS:
        hook()


def refit_queue(kind: str, target_id: int) -> None:
    """Queue a fit of one target (once: a target already queued stays queued) and wake a worker after the
    commit."""
    if kind not in REFITTERS:
        raise ValueError(f"unknown refit kind {kind!r}")
    RefitDue.objects.get_or_create(kind=kind, target_id=target_id)
    transaction.on_commit(_wake)


def refits_queue_nightly() -> int:
    """Queue every registered kind's due targets; how many were queued."""
    queued = 0
    with transaction.atomic():
        for kind, refitter in REFITTERS.items():
            for target_id in refitter.due():
                RefitDue.objects.get_or_create(kind=kind, target_id=target_id)
                queued += 1
        if queued:
            transaction.on_commit(_wake)
    return queued


def refits_pending() -> bool:
    return RefitDue.objects.exists()


def refit_next() -> int:
    """Take the oldest queued fit no other worker holds and run it: 1 if one was fitted, else 0."""
    with transaction.atomic():
        row = RefitDue.objects.select_for_update(skip_locked=True).order_by("queued_at", "id").first()
        if row is None:
            return 0
        kind, target_id = row.kind, row.target_id
        row.delete()
    refitter = REFITTERS.get(kind)
    if refitter is None:
        logger.error("refit of %s %s dropped: no such kind is registered", kind, target_id)
        return 0
    refitter.fit(target_id)
    return 1
