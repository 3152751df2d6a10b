"""The workers' loop: claim leased work, play it, store it, rate; one loop for every kind of work.

`work_shared` is the body of both play tasks: it plays slices of at most `SLICE_SECONDS` or
`SLICE_MATCHES`, each slice to the kind with open work served least for its share (`FairShare`, `SHARES`;
docs/bot-leagues.md, "A fair share of the workers"). A league's or ladder's slice is `work_play` with the
league: it claims the league's open fixtures in batches of `batch_size` (at most the slice's matches;
`league.bots.services.leases.leases_claim`, the league's kind), plays them from their stored seeds, and every
`commit_every` matches stores them (`leases_store`), which marks the league's rating pool. A challenge's
slice claims batches of challenge matches, played and stored the same way, unrated; a verification slice
verifies played matches' records (`league.matches.services.verifications_make`) and stores the verdicts
(`verifications_store`). `work_play` without a league (`work_claim`: league and ladder work first, then
challenges) is what the shell command runs.

After a league's batch whose earlier matches are all stored, the worker rates the league's pool
(`league.ratings.services.pool_rate`, now: the pool applies matches by (played_at, id), which is the
schedule's order), at most every `RATE_EVERY_SECONDS`, so ratings are applied in schedule order while other
workers play. A match stored out of order (after the reaper) is re-applied in its place by the pool's
replay: the final numbers never depend on the number of workers or on the order in which they finish. With
nothing left to claim, the worker asks `league.bots.services.leagues.league_advance` for the next round.

A lease lasts the league's `lease_seconds` (at most 30; a challenge's `CHALLENGE_LEASE_SECONDS`) and is
renewed every third of it while the batch plays (`LeaseRenewal`, a thread of its own), so a slow match never
loses its lease and a killed worker's batch expires within 30 s; the reaper (`leases_reap`) hands it back.

External programs play only on a worker whose sandbox was proven (`league.programs.sandboxing.verdict`: the
probe tried every escape, and each failed). A worker that could not prove it does not claim the work with an
external program's seat: it waits for one that can, and the league page and /health/ say so. Nor does a
worker claim the work with an uploaded program whose runtime (python, node, c) its probe did not find
(`worker_runtimes`); the bot's page says so when no worker has it.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
import uuid
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from django.db import DatabaseError, connection, transaction

from league.bots.models import BotDefinition, BotLeague, Fixture, LeagueEntry
from league.bots.playing import SeatBot, play_league_match
from league.bots.sandbox_selectors import external_seat
from league.bots.services.challenges import queue_challenge_work
from league.bots.services.leagues import league_advance, leagues_tick_due, queue_work
from league.bots.services.leases import (
    KINDS,
    Claimed,
    Kind,
    Played,
    _relax_commit,
    league_kind,
    leases_claim,
    leases_release,
    leases_renew,
    leases_store,
    open_owner,
    verifications_store,
)
from league.matches.selectors import players_by_seat
from league.matches.services import verifications_make
from league.programs import sandboxing
from league.programs.external import Limits
from league.programs.programs import seats_ready
from league.programs.runtimes import program_command, runtime_limits
from league.programs.sandbox import Sandbox, SandboxUnavailable
from league.programs.services import worker_probe_record
from league.ratings import refits
from league.ratings.services import pool_rate

logger = logging.getLogger(__name__)

RATE_EVERY_SECONDS = 2.0  # while a round is played; see work_play
# A challenge's matches are played behind every league and ladder fixture, in these batches.
CHALLENGE_BATCH = 10
CHALLENGE_COMMIT_EVERY = 5
CHALLENGE_LEASE_SECONDS = 30


class LeaseRenewal:
    """While a batch plays, renew its lease every third of `seconds` (a thread with its own connection), so
    that a lease can be short (a killed worker's batch comes back soon) whatever a match lasts."""

    def __init__(self, *, token: str, seconds: int):
        self.token = token
        self.seconds = seconds
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._renew, name=f"lease {token}", daemon=True)

    def _renew(self) -> None:
        try:
            while not self.stopped.wait(self.seconds / 3):
                try:
                    leases_renew(token=self.token, seconds=self.seconds)
                except DatabaseError:
                    logger.warning("could not renew the lease of %s", self.token, exc_info=True)
        finally:
            connection.close()  # this thread's own

    def __enter__(self) -> LeaseRenewal:
        self.thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stopped.set()
        self.thread.join()


def seat_bots(league: BotLeague) -> dict[int, tuple[int, SeatBot]]:
    """What plays for each of the league's players (by player id): its bot definition's id and its seat."""
    return _seat_bots(
        BotDefinition.objects.filter(entries__league=league)
        .select_related("program")
        .defer("program__content")
    )


def _seat_bots(bots) -> dict[int, tuple[int, SeatBot]]:
    seats = {}
    for bot in bots:
        seats[bot.player_id] = (bot.pk, seat_bot(bot))
    return seats


def seat_bot(bot: BotDefinition) -> SeatBot:
    """What plays a seat of `bot`: its strategy, or its program's command and limits (an uploaded program's
    files are put in place per match by `league.programs.programs.seats_ready`)."""
    limits = Limits(
        move_seconds=bot.move_seconds,
        cpu_seconds=bot.cpu_seconds,
        memory_mb=bot.memory_mb,
        time_bank_seconds=bot.time_bank_seconds,
    )
    program = bot.program if bot.is_uploaded else None
    runtime = program.runtime if program is not None else ""
    if program is not None:
        command = tuple(program_command(program.entry, runtime, bot.memory_mb))
    else:
        command = tuple(bot.command) if bot.is_external else ()
    raised = runtime_limits(runtime, limits).memory_mb
    return SeatBot(
        label=bot.label,
        strategy=bot.strategy,
        params=dict(bot.params),
        command=command,
        limits=limits,
        program_sha256=program.sha256 if program is not None else "",
        program_files=tuple(tuple(item) for item in program.files) if program is not None else (),
        definition=bot.name,
        version=bot.version,
        runtime=runtime,
        program_build_sha256=program.build_sha256 if program is not None else "",
        address_space_mb=raised if raised != limits.memory_mb else None,
    )


def proven_sandbox(*, league: BotLeague, worker: str) -> Sandbox | None:
    """The sandbox this worker plays external programs in, or None if its probe did not prove it (or the
    league has none). `worker`'s probe row is marked as looking for work now."""
    if not LeagueEntry.objects.filter(league=league, bot__kind=BotDefinition.Kind.EXTERNAL).exists():
        return None
    result = sandboxing.verdict()
    worker_probe_record(worker=worker, hostname=socket.gethostname(), result=result, seen=True)
    if not result.isolated:
        failed = sorted(name for name, held in result.proven.items() if not held)
        logger.warning(
            "league %s: this worker takes no external program's seat, its sandbox is not proven (%s)",
            league.pk,
            ", ".join(failed),
        )
        return None
    return sandboxing.sandbox()


def _challenge_sandbox(
    worker: str, kinds: Collection[Kind] = (Kind.VALIDATION, Kind.CHALLENGE, Kind.VERSION_TEST)
) -> Sandbox | None:
    """The sandbox for the external seats of the open matches of `kinds` (validations' and challenges', the
    kinds `work_claim` leases, by default), if this worker proved it (as for a league)."""
    if not any(
        KINDS[kind].model.objects.filter(done=False).filter(external_seat()).exists() for kind in kinds
    ):
        return None
    result = sandboxing.verdict()
    worker_probe_record(worker=worker, hostname=socket.gethostname(), result=result, seen=True)
    return sandboxing.sandbox() if result.isolated else None


def worker_runtimes(sandbox: Sandbox | None) -> list[str] | None:
    """The runtimes this worker's probe found in its sandbox (`league.programs.probe.probe_runtimes`): it
    takes no seat of an uploaded program of another runtime. None where it did not probe them (no filter)."""
    if sandbox is None:
        return None
    return sandboxing.proven_runtimes()


class WorkClaim(NamedTuple):
    """What a worker should play next: a league's or ladder's fixtures (`league_id`: `work_play` it), or the
    validation or challenge matches it has just leased (`games`, of `kind`), or nothing."""

    league_id: int | None
    games: list[Claimed]
    kind: Kind = Kind.CHALLENGE


def work_claim(
    *,
    token: str,
    limit: int = CHALLENGE_BATCH,
    external: bool = True,
    leagues: bool = True,
    runtimes: Collection[str] | None = None,
) -> WorkClaim:
    """League and ladder work first; else lease up to `limit` open validation matches to `token` (a new
    version waits for them to enter anything), oldest version first; else challenge matches, oldest challenge
    first, in match order; else version tests' matches. Without `external`, matches with an external
    program's seat stay; with `runtimes` (the worker's, `worker_runtimes`), so do those with an uploaded
    program of another runtime."""
    if leagues:
        league_id = open_owner((Kind.LEAGUE, Kind.LADDER), external=external, runtimes=runtimes)
        if league_id is not None:
            return WorkClaim(league_id, [])
    validations = leases_claim(
        Kind.VALIDATION,
        token=token,
        seconds=CHALLENGE_LEASE_SECONDS,
        limit=limit,
        external=external,
        runtimes=runtimes,
    )
    if validations:
        return WorkClaim(None, validations, Kind.VALIDATION)
    games = leases_claim(
        Kind.CHALLENGE,
        token=token,
        seconds=CHALLENGE_LEASE_SECONDS,
        limit=limit,
        external=external,
        runtimes=runtimes,
    )
    if games:
        return WorkClaim(None, games)
    tests = leases_claim(
        Kind.VERSION_TEST,
        token=token,
        seconds=CHALLENGE_LEASE_SECONDS,
        limit=limit,
        external=external,
        runtimes=runtimes,
    )
    return WorkClaim(None, tests, Kind.VERSION_TEST)


def _token(worker: str) -> str:
    return f"{worker}:{uuid.uuid4().hex[:12]}"


@dataclass(frozen=True)
class Batch:
    """A claimed batch and how to play it: its kind, rows (with their game), lease, chunk size, rating pool
    (None: unrated), what plays each player's seat (by player id) and each match's players by seat."""

    kind: Kind
    claimed: list[Claimed]
    lease_seconds: int
    commit_every: int
    pool_id: int | None
    bots: Mapping[int, tuple[int, SeatBot]]
    seat_players: Mapping[int, list[int]]
    label: str


def work_play(
    *,
    worker: str,
    league_id: int | None = None,
    on_stored: Callable[[int], object] | None = None,
    max_seconds: float | None = None,
    node: str | None = None,
    max_matches: int | None = None,
    hand_on: bool = True,
) -> int:
    """Claim, play and store leased work until none is left that this call may take; the matches it stored.

    With `league_id`, that league's or ladder's fixtures, drawing its next rounds and rating as it goes (the
    body of `league_play_task`). Without, any open work, kind by kind (`work_claim`): a league met first is
    worked by a call of its own (which counts its matches), then challenge matches (which this call counts;
    the body of `challenge_play_task`). Safe to run twice or concurrently on many workers. `on_stored(total)`,
    if given, is called after each stored chunk (the shell command's progress bar). With `max_seconds`, no
    new batch is claimed after that long: the work is handed on to a new task (queued after the commit), so
    that no task outlives the workers' time limits however much work is open. `node` names the worker in its
    sandbox probe's row (a Celery node: all its pool processes share the probe); `worker` by default.
    A league's slice (`work_shared`) passes `max_matches`, claims no more than that, stops playing a batch
    once `max_seconds` have passed (the rest of it handed back), and with `hand_on` False queues no task:
    the fair share decides what comes next.
    """
    stored = 0
    started = rated_at = time.monotonic()
    bots: dict[int, tuple[int, SeatBot]] | None = None
    sandbox = None if league_id is not None else _challenge_sandbox(node or worker)
    leagues_first = True
    while True:
        elapsed = time.monotonic() - started
        league = None
        if league_id is not None:
            league = BotLeague.objects.filter(pk=league_id).first()
            if league is None or league.status != BotLeague.Status.RUNNING:
                return stored
        if (max_seconds is not None and elapsed > max_seconds) or (
            max_matches is not None and stored >= max_matches
        ):
            if not hand_on:
                if league_id is not None:
                    league_advance(league_id=league_id)  # the slice may have stored the round's last match
                return stored
            with transaction.atomic():
                if league_id is not None:
                    queue_work(league_id, 1)
                else:
                    queue_challenge_work(1)
            return stored
        token = _token(worker)
        if league is not None:
            if bots is None or league.is_ladder:
                # A ladder's bots change while it runs (a bot enters, a new version replaces an old one): its
                # seats are read afresh for every batch, a league's once.
                bots = seat_bots(league)
                sandbox = proven_sandbox(league=league, worker=node or worker)
            batch = _league_batch(
                league,
                token,
                bots,
                external=sandbox is not None,
                limit=None if max_matches is None else max_matches - stored,
                runtimes=worker_runtimes(sandbox),
            )
            if batch is None:
                if league_advance(league_id=league.pk):
                    continue
                return stored
        else:
            claim = work_claim(
                token=token,
                external=sandbox is not None,
                leagues=leagues_first,
                runtimes=worker_runtimes(sandbox),
            )
            if claim.league_id is not None:
                left = None if max_seconds is None else max(1.0, max_seconds - elapsed)
                played = work_play(league_id=claim.league_id, worker=worker, max_seconds=left, node=node)
                # Nothing to claim after all (others hold it): challenges meanwhile.
                leagues_first = played > 0
                continue
            leagues_first = True
            if not claim.games:
                return stored
            batch = _challenge_batch(claim.games, claim.kind)
        try:
            deadline = started + max_seconds if max_seconds is not None and not hand_on else None
            with LeaseRenewal(token=token, seconds=batch.lease_seconds):
                stored += _play_batch(batch, token, sandbox, stored, on_stored, deadline=deadline)
        except SandboxUnavailable as exc:
            handed_back = leases_release(token=token)
            logger.error(
                "%s: handed back %d matches, no sandbox to be had: %s", batch.label, handed_back, exc
            )
            return stored
        # Rate while the others play, strictly in schedule order: only once every earlier match is stored
        # (the worker storing the last of them rates ours too), so no batch is applied early and replayed.
        # An update costs several queries whatever its size, so a worker rates at most every
        # RATE_EVERY_SECONDS (the league page refreshes as often); the round's end rates the rest.
        if (
            league is not None
            and time.monotonic() - rated_at >= RATE_EVERY_SECONDS
            and not Fixture.objects.filter(
                league_id=league.pk, done=False, position__lt=batch.claimed[0].position
            ).exists()
        ):
            with transaction.atomic():
                _relax_commit()
                pool_rate(pool_id=league.rating_pool_id, now=True)
            rated_at = time.monotonic()


def _league_batch(
    league: BotLeague,
    token: str,
    bots: Mapping[int, tuple[int, SeatBot]],
    *,
    external: bool,
    limit: int | None = None,
    runtimes: Collection[str] | None = None,
) -> Batch | None:
    """Claim a batch of the league's (or ladder's) open fixtures, in schedule order; None if none is left.

    The end of a round is shared out in ever smaller claims (half of what is left each time), so that no
    worker waits long at the round's barrier for another to finish a large batch.
    """
    kind = league_kind(league)
    claimed = leases_claim(
        kind,
        token=token,
        seconds=league.lease_seconds,
        limit=league.batch_size if limit is None else max(1, min(league.batch_size, limit)),
        least=max(1, league.commit_every // 10),
        owner_id=league.pk,
        external=external,
        runtimes=runtimes,
    )
    if not claimed:
        return None
    return Batch(
        kind,
        [row._replace(game_id=league.game_id, options=league.options) for row in claimed],
        league.lease_seconds,
        league.commit_every,
        league.rating_pool_id,
        bots,
        players_by_seat(match_ids=[row.match_id for row in claimed]),
        f"league {league.pk}",
    )


def _challenge_batch(claimed: list[Claimed], kind: Kind = Kind.CHALLENGE) -> Batch:
    """A batch of claimed challenge matches (or another unrated kind's), with what plays each of their
    seats."""
    seat_players = players_by_seat(match_ids=[row.match_id for row in claimed])
    bots = _seat_bots(
        BotDefinition.objects.filter(player_id__in={pid for ids in seat_players.values() for pid in ids})
        .select_related("program")
        .defer("program__content")
    )
    return Batch(
        kind,
        claimed,
        CHALLENGE_LEASE_SECONDS,
        CHALLENGE_COMMIT_EVERY,
        None,
        bots,
        seat_players,
        "challenges" if kind == Kind.CHALLENGE else str(kind),
    )


def _play_batch(
    batch: Batch,
    token: str,
    sandbox: Sandbox | None,
    stored_before: int,
    on_stored: Callable[[int], object] | None,
    *,
    deadline: float | None = None,
) -> int:
    """Play and store a claimed batch, `commit_every` matches per transaction; how many were stored. Past
    `deadline` (a `time.monotonic()` value; checked after each match), what is played is stored and the rest
    handed back."""
    stored = 0
    cut = False
    for start in range(0, len(batch.claimed), batch.commit_every):
        if cut:
            break
        chunk: list[Played] = []
        for row in batch.claimed[start : start + batch.commit_every]:
            if deadline is not None and (chunk or stored) and time.monotonic() > deadline:
                cut = True
                break
            began = time.perf_counter()
            seats = [batch.bots[player_id] for player_id in batch.seat_players[row.match_id]]
            played = play_league_match(
                game_id=row.game_id,
                options=row.options or {},
                seed=row.seed,
                seats=seats_ready([seat for _, seat in seats]),
                sandbox=sandbox,
            )
            chunk.append(
                Played(
                    row.id,
                    row.match_id,
                    played.record,
                    time.perf_counter() - began,
                    logs=played.logs,
                    bot_ids=[bot_id for bot_id, _ in seats],
                )
            )
        stored += leases_store(batch.kind, token=token, played=chunk, pool_id=batch.pool_id)
        if on_stored is not None:
            on_stored(stored_before + stored)
    if cut:
        leases_release(token=token)
    return stored


# The fair share (docs/bot-leagues.md, "A fair share of the workers"): work is played in slices of at most
# SLICE_SECONDS or SLICE_MATCHES matches, and the next slice goes to the kind with open work that has been
# served least for its share (its seconds of work divided by its share); ties go in this order. A kind in
# `KINDS` without a share here gets DEFAULT_SHARE.
SHARES: Mapping[str, int] = {
    Kind.CHALLENGE: 4,
    Kind.VALIDATION: 4,
    Kind.LADDER: 3,
    Kind.LEAGUE: 2,
    Kind.VERIFICATION: 1,
    refits.KIND: 1,  # whole-history fits (`league.ratings.refits`): one fit a slice
}
DEFAULT_SHARE = 1
# Kinds served in another kind's share: the fair share picks between shares, and the kinds of one share take
# its slices in turn. A version test's pairs are played in the challenges' share.
SHARED_WITH: Mapping[str, str] = {Kind.VERSION_TEST: Kind.CHALLENGE}
SLICE_SECONDS = 10.0
SLICE_MATCHES = 50


class FairShare:
    """Which kind gets the next slice: the least served for its share among the kinds with work.

    A worker process keeps one (`FAIR_SHARE`) across its tasks. A kind that had no work at the last pick
    starts level with the least-served of the others, so that a quiet hour earns no monopoly after it.
    `clock` measures the slices (tests give their own).
    """

    def __init__(self, shares: Mapping[str, int] = SHARES, clock: Callable[[], float] = time.monotonic):
        self.shares = dict(shares)
        self.clock = clock
        self.served: dict[str, float] = {}
        self._active: set[str] = set()
        self._turns: dict[str, int] = {}

    def take_turn(self, share: str, kinds: list[str]) -> str:
        """Which of `kinds` (of one share, each with open work) takes the share's next slice: each in turn."""
        turn = self._turns.get(share, 0)
        self._turns[share] = turn + 1
        return kinds[turn % len(kinds)]

    def share(self, kind: str) -> int:
        return self.shares.get(kind, DEFAULT_SHARE)

    def _rank(self, kind: str) -> tuple[float, int, str]:
        order = list(self.shares)
        return (
            self.served[kind] / self.share(kind),
            order.index(kind) if kind in order else len(order),
            kind,
        )

    def pick(self, kinds: Collection[str]) -> str:
        """The kind among `kinds` (each with open work) to serve next."""
        level = min(
            (self.served[kind] / self.share(kind) for kind in kinds if kind in self._active), default=None
        )
        for kind in kinds:
            served = self.served.get(kind, 0.0)
            if kind not in self._active and level is not None:
                served = max(served, level * self.share(kind))
            self.served[kind] = served
        self._active = set(kinds)
        return min(kinds, key=self._rank)

    def charge(self, kind: str, seconds: float) -> None:
        self.served[kind] = self.served.get(kind, 0.0) + max(seconds, 0.0)


FAIR_SHARE = FairShare()


def kinds_with_work() -> list[str]:
    """The kinds with an open, unclaimed row (for a league or ladder, in a running one), in `KINDS` order,
    then `ratings` while a whole-history fit is queued."""
    kinds: list[str] = [
        kind
        for kind, work in KINDS.items()
        if work.model.objects.filter(work.owners, done=False, lease_token="").exists()
    ]
    if refits.refits_pending():
        kinds.append(refits.KIND)
    return kinds


def _ratings_slice(kind: str, *, worker: str, node: str | None) -> int:
    """One queued whole-history fit (a pool's or a season's), a slice of its own: 1 when one was fitted."""
    return refits.refit_next()


def _league_slice(kind: Kind, *, worker: str, node: str | None) -> int:
    league_id = open_owner((kind,))
    if league_id is None:
        return 0
    return work_play(
        league_id=league_id,
        worker=worker,
        node=node,
        max_seconds=SLICE_SECONDS,
        max_matches=SLICE_MATCHES,
        hand_on=False,
    )


def _matches_slice(kind: Kind, *, worker: str, node: str | None) -> int:
    """A slice of an unrated kind whose rows are matches to play (challenges; a kind registered later, whose
    `KINDS` columns name the game and options as a challenge's do): batches of `CHALLENGE_BATCH`."""
    sandbox = _challenge_sandbox(node or worker, (kind,))
    started = time.monotonic()
    stored = 0
    while stored < SLICE_MATCHES and time.monotonic() - started <= SLICE_SECONDS:
        token = _token(worker)
        claimed = leases_claim(
            kind,
            token=token,
            seconds=CHALLENGE_LEASE_SECONDS,
            limit=min(CHALLENGE_BATCH, SLICE_MATCHES - stored),
            external=sandbox is not None,
            runtimes=worker_runtimes(sandbox),
        )
        if not claimed:
            break
        batch = _challenge_batch(claimed, kind)
        try:
            with LeaseRenewal(token=token, seconds=batch.lease_seconds):
                stored += _play_batch(batch, token, sandbox, stored, None, deadline=started + SLICE_SECONDS)
        except SandboxUnavailable as exc:
            handed_back = leases_release(token=token)
            logger.error("%s: handed back %d matches, no sandbox to be had: %s", kind, handed_back, exc)
            break
    return stored


def _verification_slice(kind: Kind, *, worker: str, node: str | None) -> int:
    """Lease up to `SLICE_MATCHES` played matches' verifications, verify their records one by one until
    `SLICE_SECONDS` have passed, store the verdicts and hand back the rest; how many were verified."""
    token = _token(worker)
    claimed = leases_claim(kind, token=token, seconds=CHALLENGE_LEASE_SECONDS, limit=SLICE_MATCHES)
    if not claimed:
        return 0
    started = time.monotonic()
    verified: list[int] = []
    verdicts = []
    with LeaseRenewal(token=token, seconds=CHALLENGE_LEASE_SECONDS):
        for row in claimed:
            if verified and time.monotonic() - started > SLICE_SECONDS:
                break
            verdicts.extend(verifications_make(match_ids=[row.match_id]))
            verified.append(row.match_id)
    done = verifications_store(
        token=token, match_ids=verified, verdicts=verdicts, seconds=time.monotonic() - started
    )
    if len(verified) < len(claimed):
        leases_release(token=token)
    return done


# How a slice of each kind is played; a kind without an entry is played as challenge matches are.
SLICES: Mapping[str, Callable[..., int]] = {
    Kind.LEAGUE: _league_slice,
    Kind.LADDER: _league_slice,
    Kind.VERIFICATION: _verification_slice,
    refits.KIND: _ratings_slice,
}


def work_shared(
    *,
    worker: str,
    max_seconds: float | None = None,
    node: str | None = None,
    fair: FairShare | None = None,
    max_slices: int | None = None,
    between_slices: Callable[[], object] | None = None,
) -> dict[str, int]:
    """Play slices of every kind of work, each to the least-served kind (`FairShare`), until none is left
    that this call can take; what it did per kind (matches stored, records verified). The body of the play
    tasks. With `max_seconds`, no new slice is begun after that long and a fresh task is queued for the rest.
    A kind whose slice found nothing to take (others hold it, or its matches need a sandbox this worker has
    not proven) is left out for the rest of the call. Between slices, scheduled leagues and ladders whose
    next round is due are ticked (`leagues_tick_due`), so a ladder keeps its pace behind long work, and
    `between_slices` is called (the play tasks check one waiting upload there: `uploads.upload_check_waiting`,
    so an author's new version is not queued behind minutes of play on a busy worker).
    """
    fair = fair or FAIR_SHARE
    started = time.monotonic()
    done: dict[str, int] = {}
    stuck: set[str] = set()
    slices = 0
    while max_slices is None or slices < max_slices:
        if max_seconds is not None and time.monotonic() - started > max_seconds:
            with transaction.atomic():
                queue_challenge_work(1)
            return done
        if leagues_tick_due():  # a scheduled ladder's next round, due while beat's tick waits in the queue
            stuck.difference_update({Kind.LEAGUE, Kind.LADDER})
        if between_slices is not None:
            between_slices()
        kinds = [kind for kind in kinds_with_work() if kind not in stuck]
        if not kinds:
            return done
        shares = list(dict.fromkeys(SHARED_WITH.get(kind, kind) for kind in kinds))
        share = fair.pick(shares)
        picked = fair.take_turn(share, [k for k in kinds if SHARED_WITH.get(k, k) == share])
        kind = picked if picked == refits.KIND else Kind(picked)
        began = fair.clock()
        count = SLICES.get(kind, _matches_slice)(kind, worker=worker, node=node)
        fair.charge(share, fair.clock() - began)
        slices += 1
        if count:
            done[kind] = done.get(kind, 0) + count
        else:
            stuck.add(kind)
    return done
