"""The leased-work pipeline: the one claim, renewal, store and reap of every match a worker plays.

Work comes in kinds (`Kind`): a league's fixtures, a ladder's fixtures (both `Fixture` rows, owned by a
`BotLeague` of that kind), challenge matches (`ChallengeMatch`, owned by a `Challenge`), the matches of a
new version's validation (`ValidationMatch`, owned by the `BotDefinition` it validates) and the strict
re-verification of played matches' records (`VerificationWork`, made when a match is stored). Their rows share
the lease columns (`league.bots.models.LeasedWork`); `KINDS`, the registry, says per kind which rows, in which
order, and what else a store writes. Every step takes the kind, so that how much of the workers each kind
gets can be set per kind without another pipeline.

- `leases_claim(kind, ...)` leases open rows to a worker's batch (`token`) under row locks (`SKIP LOCKED`),
  writing the token, the expiry and the attempt, and marks their matches running.
- `leases_renew` extends a batch's lease while it plays; `leases_release` hands it back at once.
- `leases_store(kind, ...)` stores played matches whose lease the batch still holds, in one transaction
  (`league.results.services.results_record_played` writes the results, the matches' outcomes and the rating
  pool's marker; the result's (match, version) uniqueness makes a second store of a match fail: a match
  counts once), marks the rows done and runs the kind's own step (a challenge with nothing left finishes).
- `verifications_store` stores the verdicts of a batch's verification rows whose lease it still holds.
- `leases_reap` (periodic) hands back rows whose lease expired, voids a match at the `LEASES_LOST_LIMIT`th
  expiry (and tells its external seats' authors and staff; a verification's match is not voided, its verdict
  says the verification was lost), and queues work for what is left open.

A kind registered later (`validation`, reserved) needs one `KINDS` entry: the claim, renewal, release, reap
and the workers' fair share (`league.bots.services.work`) take every kind in `KINDS`.

An upload's check (`league.bots.uploads.bot_check`) is not leased: it is an idempotent task of its own, queued
again by a periodic sweep while the upload is still checking. Its validation, next, is (kind "validation").
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, NamedTuple

from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from league.bots.models import (
    BotLeague,
    ChallengeMatch,
    Fixture,
    LeasedWork,
    ValidationMatch,
    VerificationWork,
)
from league.bots.sandbox_selectors import external_seat, runtime_lacking
from league.bots.services.challenges import challenges_finish, queue_challenge_work
from league.bots.services.ladders import entries_count_forfeits
from league.bots.services.leagues import queue_work
from league.bots.services.validations import validations_judge
from league.core import bulk, events
from league.matches.models import Match, Verification
from league.matches.selectors import match_list
from league.matches.services import (
    matches_hand_back,
    matches_set_running,
)
from league.matches.services import (
    verifications_store as verdicts_store,
)
from league.programs.external import SeatLog
from league.programs.models import ProgramLog
from league.programs.services import program_logs_add
from league.results.services import PlayedMatch, result_void, results_record_played

logger = logging.getLogger(__name__)

LEASES_LOST_LIMIT = 3
LOST_REASON = f"the worker was lost {LEASES_LOST_LIMIT} times"


def _relax_commit() -> None:
    """Let this transaction's commit return before its WAL reaches the disk (PostgreSQL).

    Safe for a worker's writes: a commit lost in a database crash is lost whole (the row stays open, or its
    rating stays pending), and the match is played again from the same seed, to the same record. A worker
    process sets it once for its whole session (`relax_session_commits`); elsewhere (the shell command) it is
    set for the transaction.
    """
    if connection.vendor == "postgresql" and not getattr(connection, "relaxed_commits", False):
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")


def relax_session_commits(sender: Any = None, connection: Any = None, **kwargs: Any) -> None:
    """`connection_created` receiver for worker processes: every commit of the session is relaxed (see
    `_relax_commit`); every task of a worker is idempotent and redone from its seeds or markers if lost."""
    if connection is not None and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET synchronous_commit TO OFF")
        connection.relaxed_commits = True


class Kind(StrEnum):
    LEAGUE = "league"
    LADDER = "ladder"
    CHALLENGE = "challenge"
    VERIFICATION = "verification"
    VALIDATION = "validation"


@dataclass(frozen=True)
class WorkKind:
    """How the pipeline treats one kind of work: its rows (`model`), the column naming their owner, the order
    in which they are claimed and stored, the columns a claim reads (`Claimed`'s, in its order), which
    owners have work (`owners`: a filter on the rows), and what a store writes besides (`stored`, given the
    owners' ids)."""

    kind: Kind
    model: type[LeasedWork]
    owner: str
    order: tuple[str, ...]
    columns: tuple[str, ...]
    owners: Q = field(default_factory=Q)
    stored: Callable[[Collection[int]], object] | None = None
    # What the reaper does with rows whose lease expired the last time allowed (ids, their matches' ids), in
    # its transaction; by default their matches are voided (`_void_lost`).
    lost: Callable[[list[int], list[int]], object] | None = None
    # Whether a claim marks the rows' matches running and a hand-back marks them scheduled again (a match to
    # play); False for work on played matches (verification).
    plays: bool = True


_FIXTURE_COLUMNS = ("id", "match_id", "seed", "position")
KINDS: Mapping[Kind, WorkKind] = {
    Kind.LEAGUE: WorkKind(
        Kind.LEAGUE,
        Fixture,
        "league_id",
        ("position",),
        _FIXTURE_COLUMNS,
        Q(league__status=BotLeague.Status.RUNNING, league__kind=BotLeague.Kind.LEAGUE),
    ),
    Kind.LADDER: WorkKind(
        Kind.LADDER,
        Fixture,
        "league_id",
        ("position",),
        _FIXTURE_COLUMNS,
        Q(league__status=BotLeague.Status.RUNNING, league__kind=BotLeague.Kind.LADDER),
    ),
    Kind.CHALLENGE: WorkKind(
        Kind.CHALLENGE,
        ChallengeMatch,
        "challenge_id",
        ("challenge_id", "index"),
        ("id", "match_id", "seed", "index", "challenge__game_id", "challenge__options"),
        stored=challenges_finish,
    ),
    Kind.VALIDATION: WorkKind(
        Kind.VALIDATION,
        ValidationMatch,
        "bot_id",
        ("bot_id", "index"),
        ("id", "match_id", "seed", "index", "match__game_id", "match__options"),
        stored=validations_judge,
    ),
    Kind.VERIFICATION: WorkKind(
        Kind.VERIFICATION,
        VerificationWork,
        "match_id",
        ("id",),
        ("id", "match_id", "seed", "id"),
        lost=lambda ids, match_ids: _verification_lost(ids, match_ids),
        plays=False,
    ),
}


def _plays(model: type[LeasedWork]) -> bool:
    """Whether `model`'s rows are matches to play (their matches' status follows the lease)."""
    return any(work.plays for work in KINDS.values() if work.model is model)


def leased_models() -> list[type[LeasedWork]]:
    """The models of every kind's rows, once each, in `KINDS` order (renewal, release and the reaper go
    through each)."""
    models: list[type[LeasedWork]] = []
    for work in KINDS.values():
        if work.model not in models:
            models.append(work.model)
    return models


def league_kind(league: BotLeague) -> Kind:
    """The kind of a league's fixtures."""
    return Kind.LADDER if league.is_ladder else Kind.LEAGUE


class Claimed(NamedTuple):
    """A leased row: its id, its match, the match's seed, its place in its owner's order (a fixture's
    schedule position, a challenge match's index), and, where the row's owner says it, the game."""

    id: int
    match_id: int
    seed: int
    position: int
    game_id: str = ""
    options: dict | None = None


def leases_claim(
    kind: Kind,
    *,
    token: str,
    seconds: int,
    limit: int,
    least: int | None = None,
    owner_id: int | None = None,
    external: bool = True,
    runtimes: Collection[str] | None = None,
) -> list[Claimed]:
    """Lease open rows of `kind` (of one owner, with `owner_id`) to `token` for `seconds`, in kind order.

    Takes `limit` rows; with `least`, no more than half of those still unclaimed (and at least `least`), so
    that the end of a league's round is shared between the workers instead of left to the last one to claim.
    Without `external` (a worker whose sandbox is not proven), rows with an external program's seat are left
    for another worker; with `runtimes` (those the worker's probe found), so are rows with an uploaded
    program of another runtime.
    """
    work = KINDS[kind]
    now = timezone.now()
    with transaction.atomic():
        _relax_commit()
        open_rows = work.model.objects.select_for_update(skip_locked=True, of=("self",)).filter(
            done=False, lease_token=""
        )
        if owner_id is not None:
            open_rows = open_rows.filter(**{work.owner: owner_id})
        if not external:
            open_rows = open_rows.filter(~external_seat())
        if runtimes is not None:
            open_rows = open_rows.filter(~runtime_lacking(runtimes))
        share = least is not None and least < limit
        available = list(
            open_rows.order_by(*work.order).values_list(*work.columns)[: 2 * limit if share else limit]
        )
        if share:
            available = available[: min(limit, max(least or 1, -(-len(available) // 2)))]
        claimed = [Claimed(*row) for row in available]
        if not claimed:
            return []
        work.model.objects.filter(pk__in=[row.id for row in claimed]).update(
            lease_token=token, lease_expires_at=now + timedelta(seconds=seconds), attempts=F("attempts") + 1
        )
        if work.plays:
            matches_set_running(match_ids=[row.match_id for row in claimed])
    return claimed


def open_owner(
    kinds: Sequence[Kind], *, external: bool = True, runtimes: Collection[str] | None = None
) -> int | None:
    """The lowest owner id among `kinds` (all of one model) with an open, unclaimed row this worker can play,
    among running leagues for fixtures."""
    works = [KINDS[kind] for kind in kinds]
    either = works[0].owners
    for work in works[1:]:
        either |= work.owners
    rows = works[0].model.objects.filter(either, done=False, lease_token="")
    if not external:
        rows = rows.filter(~external_seat())
    if runtimes is not None:
        rows = rows.filter(~runtime_lacking(runtimes))
    return rows.order_by(works[0].owner).values_list(works[0].owner, flat=True).first()


def leases_renew(*, token: str, seconds: int) -> int:
    """Extend the lease of `token`'s open rows to `seconds` from now; how many it still holds."""
    with transaction.atomic():
        _relax_commit()
        expires = timezone.now() + timedelta(seconds=seconds)
        for model in leased_models():
            held = model.objects.filter(lease_token=token, done=False).update(lease_expires_at=expires)
            if held:
                return held
    return 0


def leases_release(*, token: str) -> int:
    """Hand back `token`'s open rows at once (the worker cannot play them); how many."""
    released = 0
    with transaction.atomic():
        _relax_commit()
        for model in leased_models():
            held = list(model.objects.filter(lease_token=token, done=False).values_list("pk", "match_id"))
            if held:
                model.objects.filter(pk__in=[row[0] for row in held]).update(
                    lease_token="", lease_expires_at=None
                )
                if _plays(model):
                    matches_hand_back(match_ids=[row[1] for row in held])
            released += len(held)
    return released


@dataclass(frozen=True)
class Played:
    """A played leased row: its id, its match, the record, the time it took, its seats' logs (for staff)."""

    id: int
    match_id: int
    record: dict
    seconds: float
    logs: Sequence[SeatLog] = ()
    bot_ids: Sequence[int] = ()  # the bot definition of each seat


def _program_logs(items: Sequence[Played]) -> list[ProgramLog]:
    """The unsaved log rows of the played matches' external seats (`program_logs_add` stores them)."""
    rows: list[ProgramLog] = []
    for item in items:
        events = {forfeit["seat"]: forfeit["event"] for forfeit in item.record["end"]["forfeits"]}
        rows.extend(
            ProgramLog(
                match_id=item.match_id,
                seat=log.seat,
                bot_id=item.bot_ids[log.seat] if log.seat < len(item.bot_ids) else None,
                forfeit=log.forfeit,
                detail=log.detail,
                forfeit_event=events.get(log.seat),
                output=log.output,
                output_bytes=log.output_bytes,
                bank=log.bank,
            )
            for log in item.logs
        )
    return rows


def _rated_seats(owners: Mapping[int, int], items: Sequence[Played]) -> list[tuple[int, int, int, bool]]:
    """(league id, match id, bot id, forfeited) of each seat of the stored fixtures, in their order."""
    seats = []
    for item in items:
        forfeited = {forfeit["seat"] for forfeit in item.record["end"]["forfeits"]}
        for seat, bot_id in enumerate(item.bot_ids):
            seats.append((owners[item.id], item.match_id, bot_id, seat in forfeited))
    return seats


def leases_store(kind: Kind, *, token: str, played: Sequence[Played], pool_id: int | None = None) -> int:
    """Store played matches of `kind` whose lease `token` still holds: their system results (record, result
    version 1, seats' places, through `league.results`), their programs' logs, the rows done, and a
    `VerificationWork` row per match (its record's strict verification, leased work of its own).

    One transaction; rows another worker took over (after the reaper) are skipped. Returns how many were
    stored. With `pool_id` (a league's or ladder's pool) the pool is marked for an update from the earliest
    stored match, and each seat's forfeits in a row are counted (`entries_count_forfeits`: a ladder
    withdraws a bot that forfeits too many); a challenge's matches are unrated.
    """
    if not played:
        return 0
    work = KINDS[kind]
    by_id = {item.id: item for item in played}
    with transaction.atomic():
        _relax_commit()
        held = list(
            work.model.objects.select_for_update()
            .filter(pk__in=by_id, lease_token=token, done=False)
            .order_by(*work.order)
            .values_list("id", work.owner)
        )
        if not held:
            return 0
        items = [by_id[row_id] for row_id, _ in held]
        results_record_played(
            played=[PlayedMatch(item.match_id, pool_id, item.record) for item in items], verify=False
        )
        VerificationWork.objects.bulk_create(
            [VerificationWork(match_id=item.match_id, seed=0) for item in items]
        )
        program_logs_add(logs=_program_logs(items))
        if pool_id is not None:  # rated: a league's or ladder's fixtures, owned by the league
            entries_count_forfeits(seats=_rated_seats(dict(held), items))
        bulk.update(
            work.model,
            ("seconds",),
            [(item.id, item.seconds) for item in items],
            done=True,
            lease_token="",
            lease_expires_at=None,
            played_by=token,
        )
        if work.stored is not None:
            work.stored({owner_id for _, owner_id in held})
    return len(items)


def leases_reap(*, now: datetime | None = None) -> int:
    """Hand back every kind's rows whose lease expired (a worker died) and queue work for every running
    league and open challenge; returns how many were handed back. Their matches are played again from the
    same seeds, so a match that kills its worker (an answer that stalls it past its lease) would kill every
    worker that takes it: the `LEASES_LOST_LIMIT`th expiry voids the match instead (`LOST_REASON`), marks it
    done, and tells its external seats' authors and staff (`events.bot_match_voided`).
    """
    now = now or timezone.now()
    handed_back = 0
    with transaction.atomic():
        for model in leased_models():
            what = f"{model._meta.verbose_name} rows"
            expired = list(
                model.objects.select_for_update(skip_locked=True)
                .filter(done=False, lease_expires_at__lt=now)
                .values_list("pk", "match_id", "leases_lost")
            )
            lost = [row for row in expired if row[2] + 1 >= LEASES_LOST_LIMIT]
            again = [row for row in expired if row[2] + 1 < LEASES_LOST_LIMIT]
            if again:
                model.objects.filter(pk__in=[row[0] for row in again]).update(
                    lease_token="", lease_expires_at=None, leases_lost=F("leases_lost") + 1
                )
                if _plays(model):
                    matches_hand_back(match_ids=[row[1] for row in again])
                logger.warning("handed back %d %s whose lease expired", len(again), what)
            if lost:
                end = next((w.lost for w in KINDS.values() if w.model is model and w.lost is not None), None)
                if end is not None:
                    end([row[0] for row in lost], [row[1] for row in lost])
                    logger.error("gave up %d %s: %s", len(lost), what, LOST_REASON)
                else:
                    _void_lost(model, [row[0] for row in lost], [row[1] for row in lost])
                    logger.error("voided %d %s: %s", len(lost), what, LOST_REASON)
            handed_back += len(again)
        for league_id in BotLeague.objects.filter(status=BotLeague.Status.RUNNING).values_list(
            "id", flat=True
        ):
            queue_work(league_id, 1)
        if any(
            model.objects.filter(done=False, lease_token="").exists()
            for model in leased_models()
            if model is not Fixture
        ):
            queue_challenge_work(1)
    return handed_back


def _void_lost(model: type[LeasedWork], ids: list[int], match_ids: list[int]) -> None:
    """Void the matches of these rows (their lease expired the last time allowed): done, not played again;
    a challenge with nothing left to play is finished. In the reaper's transaction. A match staff voided
    meanwhile keeps its void (and nobody is told again)."""
    void = set(match_list(status=Match.Status.VOID).filter(pk__in=match_ids).values_list("pk", flat=True))
    for match_id in match_ids:
        if match_id not in void:
            result_void(match_id=match_id, reason=LOST_REASON)
            events.emit(events.bot_match_voided, match_id=match_id)
    model.objects.filter(pk__in=ids).update(
        done=True, lease_token="", lease_expires_at=None, leases_lost=F("leases_lost") + 1
    )
    for work in KINDS.values():
        if work.model is model and work.stored is not None:
            work.stored(set(model.objects.filter(pk__in=ids).values_list(work.owner, flat=True)))
            break


VERIFICATION_LOST = f"its verification was lost with its worker {LEASES_LOST_LIMIT} times"
VERIFIER_FAILED = "the verifier failed on this record (logged for staff)"


def _verification_lost(ids: list[int], match_ids: list[int]) -> None:
    """Rows whose verification lease expired the last time allowed: done, with a verdict that says so (the
    match itself stands). In the reaper's transaction."""
    verdicts_store(
        verdicts=[
            Verification(
                match_id=match_id, status=Verification.Status.NOT_VERIFIABLE, reason=VERIFICATION_LOST
            )
            for match_id in match_ids
        ]
    )
    VerificationWork.objects.filter(pk__in=ids).update(
        done=True, lease_token="", lease_expires_at=None, leases_lost=F("leases_lost") + 1
    )


def verifications_store(
    *, token: str, match_ids: Collection[int], verdicts: Sequence[Verification], seconds: float = 0.0
) -> int:
    """Store the verdicts of the verified matches (`match_ids`) whose verification rows `token` still holds
    (rows another worker took over are skipped), the rows done; a held row without a verdict (the verifier
    raised) gets `VERIFIER_FAILED`. One transaction; how many rows were done."""
    by_match = {verdict.match_id: verdict for verdict in verdicts}
    with transaction.atomic():
        _relax_commit()
        held = list(
            VerificationWork.objects.select_for_update()
            .filter(lease_token=token, done=False, match_id__in=list(match_ids))
            .values_list("id", "match_id")
        )
        if not held:
            return 0
        verdicts_store(
            verdicts=[
                by_match.get(match_id)
                or Verification(
                    match_id=match_id, status=Verification.Status.NOT_VERIFIABLE, reason=VERIFIER_FAILED
                )
                for _, match_id in held
            ]
        )
        VerificationWork.objects.filter(pk__in=[row_id for row_id, _ in held]).update(
            done=True, lease_token="", lease_expires_at=None, played_by=token, seconds=seconds
        )
    return len(held)
