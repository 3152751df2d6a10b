"""The workers' loop: claim leased work, play it, store it, rate; one loop for every kind of work.

`work_play` is the body of both play tasks. With a league (`league_play_task`) it claims that league's or
ladder's open fixtures in batches of `batch_size` (`league.bots.services.leases.leases_claim`, the league's
kind), plays them from their stored seeds, and every `commit_every` matches stores them
(`leases_store`), which marks the league's rating pool. Without one (`challenge_play_task`) it looks for
work kind by kind (`work_claim`): a running league or ladder with an open fixture first (worked as above),
else a batch of challenge matches, played and stored the same way, unrated.

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
external program's seat: it waits for one that can, and the league page and /health/ say so.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from django.db import DatabaseError, connection, transaction

from league.bots.models import BotDefinition, BotLeague, ChallengeMatch, Fixture, LeagueEntry, ValidationMatch
from league.bots.playing import SeatBot, play_league_match
from league.bots.sandbox_selectors import external_seat
from league.bots.services.challenges import queue_challenge_work
from league.bots.services.leagues import league_advance, queue_work
from league.bots.services.leases import (
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
)
from league.matches.selectors import players_by_seat
from league.programs import sandboxing
from league.programs.archives import program_command
from league.programs.external import Limits
from league.programs.programs import seats_ready
from league.programs.sandbox import Sandbox, SandboxUnavailable
from league.programs.services import worker_probe_record
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
    limits = Limits(move_seconds=bot.move_seconds, cpu_seconds=bot.cpu_seconds, memory_mb=bot.memory_mb)
    program = bot.program if bot.is_uploaded else None
    if program is not None:
        command = tuple(program_command(program.entry))
    else:
        command = tuple(bot.command) if bot.is_external else ()
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


def _challenge_sandbox(worker: str) -> Sandbox | None:
    """The sandbox for challenges' and validations' external seats, if this worker proved it (as for a
    league)."""
    if not any(
        model.objects.filter(done=False).filter(external_seat()).exists()
        for model in (ChallengeMatch, ValidationMatch)
    ):
        return None
    result = sandboxing.verdict()
    worker_probe_record(worker=worker, hostname=socket.gethostname(), result=result, seen=True)
    return sandboxing.sandbox() if result.isolated else None


class WorkClaim(NamedTuple):
    """What a worker should play next: a league's or ladder's fixtures (`league_id`: `work_play` it), or the
    validation or challenge matches it has just leased (`games`, of `kind`), or nothing."""

    league_id: int | None
    games: list[Claimed]
    kind: Kind = Kind.CHALLENGE


def work_claim(
    *, token: str, limit: int = CHALLENGE_BATCH, external: bool = True, leagues: bool = True
) -> WorkClaim:
    """League and ladder work first; else lease up to `limit` open validation matches to `token` (a new
    version waits for them to enter anything), oldest version first; else challenge matches, oldest challenge
    first, in match order. Without `external`, matches with an external program's seat stay."""
    if leagues:
        league_id = open_owner((Kind.LEAGUE, Kind.LADDER), external=external)
        if league_id is not None:
            return WorkClaim(league_id, [])
    validations = leases_claim(
        Kind.VALIDATION, token=token, seconds=CHALLENGE_LEASE_SECONDS, limit=limit, external=external
    )
    if validations:
        return WorkClaim(None, validations, Kind.VALIDATION)
    games = leases_claim(
        Kind.CHALLENGE, token=token, seconds=CHALLENGE_LEASE_SECONDS, limit=limit, external=external
    )
    return WorkClaim(None, games)


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
        if max_seconds is not None and elapsed > max_seconds:
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
            batch = _league_batch(league, token, bots, external=sandbox is not None)
            if batch is None:
                if league_advance(league_id=league.pk):
                    continue
                return stored
        else:
            claim = work_claim(token=token, external=sandbox is not None, leagues=leagues_first)
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
            with LeaseRenewal(token=token, seconds=batch.lease_seconds):
                stored += _play_batch(batch, token, sandbox, stored, on_stored)
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
    league: BotLeague, token: str, bots: Mapping[int, tuple[int, SeatBot]], *, external: bool
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
        limit=league.batch_size,
        least=max(1, league.commit_every // 10),
        owner_id=league.pk,
        external=external,
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
    """A batch of claimed challenge or validation matches (unrated), with what plays each of their seats."""
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
        "challenges",
    )


def _play_batch(
    batch: Batch,
    token: str,
    sandbox: Sandbox | None,
    stored_before: int,
    on_stored: Callable[[int], object] | None,
) -> int:
    """Play and store a claimed batch, `commit_every` matches per transaction; how many were stored."""
    stored = 0
    for start in range(0, len(batch.claimed), batch.commit_every):
        chunk = []
        for row in batch.claimed[start : start + batch.commit_every]:
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
    return stored
