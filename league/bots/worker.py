"""The bot-league workers' loop: claim open fixtures, play them, store their results, rate; and the reaper.

`league_work` is the body of `league_play_task`: it claims up to `batch_size` open fixtures under row locks
(`SKIP LOCKED`), writing a lease (token and expiry) on each; plays them from their stored seeds; and every
`commit_every` matches stores them in one transaction that first re-checks its lease
(`league.results.services.results_record_played` writes the results, the matches' outcomes and the pool's
marker; the result's (match, version) uniqueness makes a second store of a match fail: a match counts once).

After a batch whose earlier matches are all stored, the worker brings the league's rating pool up to date
(`league.ratings.services.pool_update`: the pool applies matches by (played_at, id), which is the schedule's
order), at most every `RATE_EVERY_SECONDS`, so ratings are applied in schedule order while other workers
play. A match stored out of order (after the reaper) is re-applied in its place by the pool's replay: the
final numbers never depend on the number of workers or on the order in which they finish. With nothing left
to claim, the worker asks `league.bots.leagues.league_advance` for the next round.

A lease lasts the league's `lease_seconds` (at most 30) and is renewed every third of it while the batch
plays (`LeaseRenewal`, a thread of its own), so a slow match never loses its lease and a killed worker's
batch expires within 30 s. `leases_reap` (periodic, every 15 s) hands back fixtures whose lease expired and
queues work for every running league (a safety net for lost messages): a dead worker's matches are played
again within a minute, and counted once (see above). A match whose lease expired `LEASES_LOST_LIMIT` (3)
times is voided instead ("the worker was lost 3 times"), not played again, and its external seats' authors
and staff are told.

External programs play only on a worker whose sandbox was proven (`league.programs.sandboxing.verdict`: the
probe tried every escape, and each failed). A worker that could not prove it does not claim the fixtures with
an external program's seat: they wait for one that can, and the league page and /health/ say so.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from django.db import DatabaseError, connection, transaction
from django.db.models import F
from django.utils import timezone

from league.bots.challenges import queue_challenge_work
from league.bots.leagues import league_advance, queue_work
from league.bots.models import (
    BotDefinition,
    BotLeague,
    Challenge,
    ChallengeMatch,
    Fixture,
    LeagueEntry,
)
from league.bots.playing import SeatBot, play_league_match
from league.bots.selectors import external_seat
from league.core import bulk, events
from league.matches.models import Match
from league.matches.selectors import match_list, players_by_seat
from league.matches.services import matches_hand_back, matches_set_running
from league.programs import sandboxing
from league.programs.archives import program_command
from league.programs.external import Limits, SeatLog
from league.programs.models import ProgramLog
from league.programs.programs import seats_ready
from league.programs.sandbox import Sandbox, SandboxUnavailable
from league.programs.services import program_logs_add, worker_probe_record
from league.ratings.services import pool_update
from league.results.services import PlayedMatch, result_void, results_record_played

logger = logging.getLogger(__name__)

RATE_EVERY_SECONDS = 2.0  # while a round is played; see league_work


def _relax_commit() -> None:
    """Let this transaction's commit return before its WAL reaches the disk (PostgreSQL).

    Safe for a worker's writes: a commit lost in a database crash is lost whole (the fixture stays open, or
    its rating stays pending), and the match is played again from the same seed, to the same record. A
    worker process sets it once for its whole session (`relax_session_commits`); elsewhere (the shell
    command) it is set for the transaction.
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


class ClaimedFixture(NamedTuple):
    id: int
    match_id: int
    seed: int
    position: int


def fixtures_claim(
    *, league: BotLeague, token: str, limit: int, least: int = 1, external: bool = True
) -> list[ClaimedFixture]:
    """Lease open fixtures of a running league to `token`, in schedule order.

    Takes `limit` fixtures, but no more than half of those still unclaimed (and at least `least`), so that
    the end of a round is shared between the workers instead of left to the last one to claim. Without
    `external` (a worker whose sandbox is not proven), fixtures with an external program's seat are left
    for another worker.
    """
    now = timezone.now()
    with transaction.atomic():
        _relax_commit()
        open_fixtures = Fixture.objects.select_for_update(skip_locked=True).filter(
            league_id=league.pk, done=False, lease_token=""
        )
        if not external:
            open_fixtures = open_fixtures.filter(~external_seat())
        available = list(
            open_fixtures.order_by("position").values_list("id", "match_id", "seed", "position")[: 2 * limit]
        )
        claimed = [
            ClaimedFixture(*row) for row in available[: min(limit, max(least, -(-len(available) // 2)))]
        ]
        if not claimed:
            return []
        Fixture.objects.filter(pk__in=[fixture.id for fixture in claimed]).update(
            lease_token=token,
            lease_expires_at=now + timedelta(seconds=league.lease_seconds),
            attempts=F("attempts") + 1,
        )
        matches_set_running(match_ids=[fixture.match_id for fixture in claimed])
    return claimed


def fixtures_renew(*, token: str, seconds: int) -> int:
    """Extend the lease of `token`'s open fixtures to `seconds` from now; how many it still holds."""
    with transaction.atomic():
        _relax_commit()
        expires = timezone.now() + timedelta(seconds=seconds)
        held = Fixture.objects.filter(lease_token=token, done=False).update(lease_expires_at=expires)
        return held or ChallengeMatch.objects.filter(lease_token=token, done=False).update(
            lease_expires_at=expires
        )


def fixtures_release(*, token: str) -> int:
    """Hand back `token`'s open fixtures at once (the worker cannot play them); how many."""
    with transaction.atomic():
        _relax_commit()
        held = list(Fixture.objects.filter(lease_token=token, done=False).values_list("id", "match_id"))
        if held:
            Fixture.objects.filter(pk__in=[row[0] for row in held]).update(
                lease_token="", lease_expires_at=None
            )
            matches_hand_back(match_ids=[row[1] for row in held])
        games = list(
            ChallengeMatch.objects.filter(lease_token=token, done=False).values_list("id", "match_id")
        )
        if games:
            ChallengeMatch.objects.filter(pk__in=[row[0] for row in games]).update(
                lease_token="", lease_expires_at=None
            )
            matches_hand_back(match_ids=[row[1] for row in games])
    return len(held) + len(games)


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
                    fixtures_renew(token=self.token, seconds=self.seconds)
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


@dataclass(frozen=True)
class PlayedFixture:
    fixture_id: int
    match_id: int
    record: dict
    seconds: float
    logs: Sequence[SeatLog] = ()
    bot_ids: Sequence[int] = ()  # the bot definition of each seat


def _program_logs(items: Sequence[PlayedFixture]) -> list[ProgramLog]:
    """The unsaved log rows of the played matches' external seats (`league.programs.services.program_logs_add`
    stores them)."""
    return [
        ProgramLog(
            match_id=item.match_id,
            seat=log.seat,
            bot_id=item.bot_ids[log.seat] if log.seat < len(item.bot_ids) else None,
            forfeit=log.forfeit,
            detail=log.detail,
            output=log.output,
            output_bytes=log.output_bytes,
        )
        for item in items
        for log in item.logs
    ]


def fixtures_store(*, pool_id: int, token: str, played: Sequence[PlayedFixture]) -> int:
    """Store played matches whose lease `token` still holds: their system results (record, result version 1,
    seats' places, through `league.results`) and the fixtures done.

    One transaction; fixtures another worker took over (after the reaper) are skipped. Returns how many
    were stored. The league's pool is marked for an update from the earliest stored match.
    """
    if not played:
        return 0
    by_fixture = {item.fixture_id: item for item in played}
    with transaction.atomic():
        _relax_commit()
        held = list(
            Fixture.objects.select_for_update()
            .filter(pk__in=by_fixture, lease_token=token, done=False)
            .order_by("position")
            .values_list("id", flat=True)
        )
        if not held:
            return 0
        items = [by_fixture[fixture_id] for fixture_id in held]
        results_record_played(played=[PlayedMatch(item.match_id, pool_id, item.record) for item in items])
        program_logs_add(logs=_program_logs(items))
        bulk.update(
            Fixture,
            ("seconds",),
            [(item.fixture_id, item.seconds) for item in items],
            done=True,
            lease_token="",
            lease_expires_at=None,
            played_by=token,
        )
    return len(items)


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


def league_work(
    *,
    league_id: int,
    worker: str,
    on_stored: Callable[[int], object] | None = None,
    max_seconds: float | None = None,
    node: str | None = None,
) -> int:
    """Claim, play and store batches of a running league until it has nothing open; returns matches stored.

    The body of `league_play_task`: safe to run twice or concurrently on many workers. `on_stored(total)`,
    if given, is called after each stored chunk (the shell command's progress bar). With `max_seconds`, no
    new batch is claimed after that long: the work is handed on to a new task (queued after the commit), so
    that no task outlives the workers' time limits however long the league. `node` names the worker in its
    sandbox probe's row (a Celery node: all its pool processes share the probe); `worker` by default.
    """
    stored = 0
    bots: dict[int, tuple[int, SeatBot]] | None = None
    sandbox: Sandbox | None = None
    started = rated_at = time.monotonic()
    while True:
        league = BotLeague.objects.filter(pk=league_id).first()
        if league is None or league.status != BotLeague.Status.RUNNING:
            return stored
        if max_seconds is not None and time.monotonic() - started > max_seconds:
            with transaction.atomic():
                queue_work(league_id, 1)
            return stored
        if bots is None or league.kind == BotLeague.Kind.LADDER:
            # A ladder's entries change while it runs (a bot enters, a new version replaces an old one): its
            # seats are read afresh for every batch, a league's once.
            bots = seat_bots(league)
            sandbox = proven_sandbox(league=league, worker=node or worker)
        token = f"{worker}:{uuid.uuid4().hex[:12]}"
        # The end of a round is shared out in ever smaller claims (half of what is left each time), so that
        # no worker waits long at the round's barrier for another to finish a large batch.
        fixtures = fixtures_claim(
            league=league,
            token=token,
            limit=league.batch_size,
            least=max(1, league.commit_every // 10),
            external=sandbox is not None,
        )
        if not fixtures:
            if league_advance(league_id=league_id):
                continue
            return stored
        seat_players = players_by_seat(match_ids=[fixture.match_id for fixture in fixtures])
        try:
            with LeaseRenewal(token=token, seconds=league.lease_seconds):
                stored += _play_batch(league, token, fixtures, seat_players, bots, sandbox, stored, on_stored)
        except SandboxUnavailable as exc:
            handed_back = fixtures_release(token=token)
            logger.error(
                "league %s: handed back %d fixtures, no sandbox to be had: %s", league_id, handed_back, exc
            )
            return stored
        # Rate while the others play, strictly in schedule order: only once every earlier match is stored
        # (the worker storing the last of them rates ours too), so no batch is applied early and replayed.
        # An update costs several queries whatever its size, so a worker rates at most every
        # RATE_EVERY_SECONDS (the league page refreshes as often); the round's end rates the rest.
        if (
            time.monotonic() - rated_at >= RATE_EVERY_SECONDS
            and not Fixture.objects.filter(
                league_id=league_id, done=False, position__lt=fixtures[0].position
            ).exists()
        ):
            with transaction.atomic():
                _relax_commit()
                pool_update(pool_id=league.rating_pool_id)
            rated_at = time.monotonic()


def _play_batch(
    league: BotLeague,
    token: str,
    fixtures: Sequence[ClaimedFixture],
    seat_players: dict[int, list[int]],
    bots: dict[int, tuple[int, SeatBot]],
    sandbox: Sandbox | None,
    stored_before: int,
    on_stored: Callable[[int], object] | None,
) -> int:
    """Play and store a claimed batch, `commit_every` matches per transaction; how many were stored."""
    stored = 0
    for start in range(0, len(fixtures), league.commit_every):
        chunk = []
        for fixture_id, match_id, seed, _ in fixtures[start : start + league.commit_every]:
            began = time.perf_counter()
            seats = [bots[player_id] for player_id in seat_players[match_id]]
            played = play_league_match(
                game_id=league.game_id,
                options=league.options,
                seed=seed,
                seats=seats_ready([seat for _, seat in seats]),
                sandbox=sandbox,
            )
            chunk.append(
                PlayedFixture(
                    fixture_id,
                    match_id,
                    played.record,
                    time.perf_counter() - began,
                    logs=played.logs,
                    bot_ids=[bot_id for bot_id, _ in seats],
                )
            )
        stored += fixtures_store(pool_id=league.rating_pool_id, token=token, played=chunk)
        if on_stored is not None:
            on_stored(stored_before + stored)
    return stored


LEASES_LOST_LIMIT = 3
LOST_REASON = f"the worker was lost {LEASES_LOST_LIMIT} times"


def leases_reap(*, now: datetime | None = None) -> int:
    """Hand back the fixtures and challenge matches whose lease expired (a worker died) and queue work for
    every running league; returns how many were handed back. Their matches are played again from the same
    seeds, so a match that kills its worker (an answer that stalls it past its lease) would kill every worker
    that takes it: the `LEASES_LOST_LIMIT`th expiry voids the match instead (`LOST_REASON`), marks it done,
    and tells its external seats' authors and staff (`events.bot_match_voided`).
    """
    now = now or timezone.now()
    handed_back = 0
    with transaction.atomic():
        for model, what in ((Fixture, "fixtures"), (ChallengeMatch, "challenge matches")):
            expired = list(
                model.objects.select_for_update(skip_locked=True)
                .filter(done=False, lease_expires_at__lt=now)
                .values_list("id", "match_id", "leases_lost")
            )
            lost = [row for row in expired if row[2] + 1 >= LEASES_LOST_LIMIT]
            again = [row for row in expired if row[2] + 1 < LEASES_LOST_LIMIT]
            if again:
                model.objects.filter(pk__in=[row[0] for row in again]).update(
                    lease_token="", lease_expires_at=None, leases_lost=F("leases_lost") + 1
                )
                matches_hand_back(match_ids=[row[1] for row in again])
                logger.warning("handed back %d %s whose lease expired", len(again), what)
            if lost:
                _void_lost(model, [row[0] for row in lost], [row[1] for row in lost])
                logger.error("voided %d %s: %s", len(lost), what, LOST_REASON)
            handed_back += len(again)
        for league_id in BotLeague.objects.filter(status=BotLeague.Status.RUNNING).values_list(
            "id", flat=True
        ):
            queue_work(league_id, 1)
        if ChallengeMatch.objects.filter(done=False, lease_token="").exists():
            queue_challenge_work(1)
    return handed_back


def _void_lost(model: type[Fixture] | type[ChallengeMatch], ids: list[int], match_ids: list[int]) -> None:
    """Void the matches of these fixtures or challenge matches (their lease expired the last time allowed):
    done, not played again; a challenge with nothing left to play is finished. In the reaper's transaction.
    A match staff voided meanwhile keeps its void (and nobody is told again)."""
    void = set(match_list(status=Match.Status.VOID).filter(pk__in=match_ids).values_list("pk", flat=True))
    for match_id in match_ids:
        if match_id not in void:
            result_void(match_id=match_id, reason=LOST_REASON)
            events.emit(events.bot_match_voided, match_id=match_id)
    model.objects.filter(pk__in=ids).update(
        done=True, lease_token="", lease_expires_at=None, leases_lost=F("leases_lost") + 1
    )
    if model is ChallengeMatch:
        challenge_ids = set(model.objects.filter(pk__in=ids).values_list("challenge_id", flat=True))
        Challenge.objects.filter(pk__in=challenge_ids, status=Challenge.Status.QUEUED).exclude(
            games__done=False
        ).update(status=Challenge.Status.FINISHED, finished_at=timezone.now())


# Challenges -------------------------------------------------------------------------------------------------
#
# A challenge's matches are played behind every league and ladder fixture: `work_claim` hands a worker the
# league work first, and claims challenge matches only when no running league or ladder has an open,
# unclaimed fixture this worker can play. Challenge matches are unrated: storing them marks no pool.

CHALLENGE_BATCH = 10
CHALLENGE_COMMIT_EVERY = 5
CHALLENGE_LEASE_SECONDS = 30


class ClaimedGame(NamedTuple):
    id: int
    match_id: int
    seed: int
    game_id: str
    options: dict


class WorkClaim(NamedTuple):
    """What a worker should play next: a league's fixtures (`league_id`: run `league_work` on it), or the
    challenge matches it has just leased (`games`), or nothing."""

    league_id: int | None
    games: list[ClaimedGame]


def open_league(*, external: bool = True) -> int | None:
    """A running league or ladder with an open, unclaimed fixture this worker can play (the lowest id)."""
    open_fixtures = Fixture.objects.filter(
        done=False, lease_token="", league__status=BotLeague.Status.RUNNING
    )
    if not external:
        open_fixtures = open_fixtures.filter(~external_seat())
    return open_fixtures.order_by("league_id").values_list("league_id", flat=True).first()


def work_claim(
    *, token: str, limit: int = CHALLENGE_BATCH, external: bool = True, leagues: bool = True
) -> WorkClaim:
    """League and ladder work first; else lease up to `limit` open challenge matches to `token`, oldest
    challenge first, in match order. Without `external`, matches with an external program's seat stay."""
    if leagues:
        league_id = open_league(external=external)
        if league_id is not None:
            return WorkClaim(league_id, [])
    with transaction.atomic():
        _relax_commit()
        open_games = ChallengeMatch.objects.select_for_update(skip_locked=True, of=("self",)).filter(
            done=False, lease_token=""
        )
        if not external:
            open_games = open_games.filter(~external_seat())
        claimed = [
            ClaimedGame(*row)
            for row in open_games.order_by("challenge_id", "index").values_list(
                "id", "match_id", "seed", "challenge__game_id", "challenge__options"
            )[:limit]
        ]
        if claimed:
            ChallengeMatch.objects.filter(pk__in=[game.id for game in claimed]).update(
                lease_token=token,
                lease_expires_at=timezone.now() + timedelta(seconds=CHALLENGE_LEASE_SECONDS),
                attempts=F("attempts") + 1,
            )
            matches_set_running(match_ids=[game.match_id for game in claimed])
    return WorkClaim(None, claimed)


def challenge_games_store(*, token: str, played: Sequence[PlayedFixture]) -> int:
    """Store played challenge matches whose lease `token` still holds (unrated: no pool is marked), and
    finish the challenges that have nothing left to play. One transaction; how many were stored."""
    if not played:
        return 0
    by_game = {item.fixture_id: item for item in played}
    with transaction.atomic():
        _relax_commit()
        held = list(
            ChallengeMatch.objects.select_for_update()
            .filter(pk__in=by_game, lease_token=token, done=False)
            .order_by("challenge_id", "index")
            .values_list("id", "challenge_id")
        )
        if not held:
            return 0
        items = [by_game[game_id] for game_id, _ in held]
        results_record_played(played=[PlayedMatch(item.match_id, None, item.record) for item in items])
        program_logs_add(logs=_program_logs(items))
        bulk.update(
            ChallengeMatch,
            ("seconds",),
            [(item.fixture_id, item.seconds) for item in items],
            done=True,
            lease_token="",
            lease_expires_at=None,
            played_by=token,
        )
        Challenge.objects.filter(
            pk__in={challenge_id for _, challenge_id in held}, status=Challenge.Status.QUEUED
        ).exclude(games__done=False).update(status=Challenge.Status.FINISHED, finished_at=timezone.now())
    return len(items)


def _challenge_sandbox(worker: str) -> Sandbox | None:
    """The sandbox for challenges' external seats, if this worker proved it (as for a league)."""
    if not ChallengeMatch.objects.filter(done=False).filter(external_seat()).exists():
        return None
    result = sandboxing.verdict()
    worker_probe_record(worker=worker, hostname=socket.gethostname(), result=result, seen=True)
    return sandboxing.sandbox() if result.isolated else None


def challenge_work(*, worker: str, max_seconds: float | None = None, node: str | None = None) -> int:
    """Play open work until none is left: every league's and ladder's fixtures first (through `league_work`),
    then challenge matches in batches; returns the challenge matches stored. The body of
    `challenge_play_task`; safe to run twice or concurrently. With `max_seconds`, hands on to a new task."""
    stored = 0
    started = time.monotonic()
    sandbox = _challenge_sandbox(node or worker)
    leagues_first = True
    while True:
        elapsed = time.monotonic() - started
        if max_seconds is not None and elapsed > max_seconds:
            with transaction.atomic():
                queue_challenge_work(1)
            return stored
        token = f"{worker}:{uuid.uuid4().hex[:12]}"
        claim = work_claim(token=token, external=sandbox is not None, leagues=leagues_first)
        if claim.league_id is not None:
            left = None if max_seconds is None else max(1.0, max_seconds - elapsed)
            played = league_work(league_id=claim.league_id, worker=worker, max_seconds=left, node=node)
            leagues_first = played > 0  # nothing to claim after all (others hold it): challenges meanwhile
            continue
        leagues_first = True
        if not claim.games:
            return stored
        players = {game.match_id: game for game in claim.games}
        seat_players = players_by_seat(match_ids=list(players))
        bots = _seat_bots(
            BotDefinition.objects.filter(player_id__in={pid for ids in seat_players.values() for pid in ids})
            .select_related("program")
            .defer("program__content")
        )
        try:
            with LeaseRenewal(token=token, seconds=CHALLENGE_LEASE_SECONDS):
                for start in range(0, len(claim.games), CHALLENGE_COMMIT_EVERY):
                    chunk = []
                    for game in claim.games[start : start + CHALLENGE_COMMIT_EVERY]:
                        began = time.perf_counter()
                        seats = [bots[player_id] for player_id in seat_players[game.match_id]]
                        result = play_league_match(
                            game_id=game.game_id,
                            options=game.options,
                            seed=game.seed,
                            seats=seats_ready([seat for _, seat in seats]),
                            sandbox=sandbox,
                        )
                        chunk.append(
                            PlayedFixture(
                                game.id,
                                game.match_id,
                                result.record,
                                time.perf_counter() - began,
                                logs=result.logs,
                                bot_ids=[bot_id for bot_id, _ in seats],
                            )
                        )
                    stored += challenge_games_store(token=token, played=chunk)
        except SandboxUnavailable as exc:
            fixtures_release(token=token)
            logger.error("challenges: handed back a batch, no sandbox to be had: %s", exc)
            return stored
