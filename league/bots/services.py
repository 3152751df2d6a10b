"""Writes for bots and bot leagues: registering bots (versioned), leagues, rounds, and the workers' batches.

How a league runs (every step is idempotent, so `acks_late`, retries and a killed worker are safe):

1. `league_start` draws round 1 and, after the commit, queues `league_play_task`s.
2. A task (`league_work`) claims up to `batch_size` open fixtures under row locks (`SKIP LOCKED`), writing a
   lease (token and expiry) on each; plays them from their stored seeds; and every `commit_every` matches
   stores their records and system result versions in one transaction that first re-checks its lease. The
   result's (match, version) uniqueness makes a second store of a match fail: a match counts once.
3. After a batch whose earlier matches are all stored, the worker brings the league's rating pool up to date
   (`ratings.services.pool_update`: the pool applies matches by (played_at, id), which is the schedule's
   order), at most every `RATE_EVERY_SECONDS`, so ratings are applied in schedule order while other
   workers play. When a round's fixtures are all stored and rated, `league_advance` (under the league row
   lock) draws the next round from the ratings, or finishes the league at its target. A match stored out
   of order (after the reaper) is re-applied in its place by the pool's replay: the final numbers never
   depend on the number of workers or on the order in which they finish.
4. `leases_reap` (periodic) hands back fixtures whose lease expired (a killed worker) and queues work for
   every running league (a safety net for lost messages).
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, NamedTuple

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import Count, F, Max
from django.utils import timezone

from games import registry
from games.core.errors import OptionError, UnknownBot
from league.bots import matchmaking
from league.bots.external import ExternalBotError, Limits, resolve_command
from league.bots.models import BotDefinition, BotLeague, Fixture, LeagueEntry, LeagueRound
from league.bots.playing import SeatBot, play_league_match
from league.core import bulk
from league.core.catalogue import game_spec
from league.core.errors import UserError
from league.matches.models import Match, MatchSeat
from league.players.models import Player
from league.players.services import player_create
from league.ratings import maths
from league.ratings.models import PendingRatingUpdate, Rating, RatingPool
from league.ratings.services import pool_mark_pending, pool_update
from league.results.models import ResultVersion
from league.results.services import check_outcome

logger = logging.getLogger(__name__)

MAX_QUEUED_TASKS = 16
RATE_EVERY_SECONDS = 2.0  # while a round is played; see league_work
SYSTEM_RESULT_REASON = "played by the bot league"


class Forbidden(UserError):
    status = 403
    code = "forbidden"


# ---------------------------------------------------------------------------------------------- bots


@dataclass(frozen=True)
class BotPlan:
    game_id: str
    kind: str
    strategy: str
    params: dict[str, Any]
    command: list[str]
    move_seconds: float
    cpu_seconds: int
    memory_mb: int


def _number(value: Any, field: str, *, low: float, high: float, whole: bool = False) -> Any:
    kinds = (int,) if whole else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds) or not low <= value <= high:
        kind = "a whole number" if whole else "a number"
        raise UserError(f"{field.replace('_', ' ')} must be {kind} from {low:g} to {high:g}", field=field)
    return value


def check_bot(
    *,
    game_id: str,
    kind: str,
    strategy: str = "",
    params: Mapping[str, Any] | None = None,
    command: Sequence[str] | str | None = None,
    move_seconds: float = 1.0,
    cpu_seconds: int = 60,
    memory_mb: int = 512,
    by: AbstractBaseUser | None,
) -> BotPlan:
    """Validate a bot definition. Only staff may register external programs (they run on the workers)."""
    spec = game_spec(game_id, field="game")
    if kind not in BotDefinition.Kind.values:
        raise UserError(f"kind must be one of {', '.join(BotDefinition.Kind.values)}", field="kind")
    if params is not None and not isinstance(params, Mapping):
        raise UserError("params must be an object of parameter names and values", field="params")
    move_seconds = float(_number(move_seconds, "move_seconds", low=0.01, high=600))
    cpu_seconds = _number(cpu_seconds, "cpu_seconds", low=1, high=3600, whole=True)
    memory_mb = _number(memory_mb, "memory_mb", low=64, high=16384, whole=True)
    if kind == BotDefinition.Kind.EXTERNAL:
        if by is None or not by.is_staff:
            raise Forbidden(
                "only staff can register external programs: they run on the league's workers", field="kind"
            )
        if isinstance(command, str):
            command = command.split()
        if not isinstance(command, list | tuple):
            raise UserError("the command is a program followed by its arguments", field="command")
        try:
            resolve_command(list(command))
        except ExternalBotError as exc:
            raise UserError(f"{exc} (it must exist on every worker)", field="command") from None
        return BotPlan(spec.id, kind, "", {}, list(command), move_seconds, cpu_seconds, memory_mb)
    try:
        cls = registry.bot_class(strategy, spec.id)
        valid = cls.validate_params(params or {})
    except UnknownBot as exc:
        raise UserError(str(exc), field="strategy") from None
    except OptionError as exc:
        raise UserError(str(exc), field="params") from None
    return BotPlan(spec.id, kind, strategy, valid, [], move_seconds, cpu_seconds, memory_mb)


def _check_bot_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip():
        raise UserError("a bot needs a name", field="name")
    cleaned = " ".join(name.split())
    if len(cleaned) > BotDefinition._meta.get_field("name").max_length:
        raise UserError("a bot name has at most 60 characters", field="name")
    return cleaned


def bot_register(
    *, name: str, description: str = "", by: AbstractBaseUser | None, **definition: Any
) -> BotDefinition:
    """Register version 1 of a bot (and its player). `definition` is what `check_bot` takes."""
    cleaned = _check_bot_name(name)
    plan = check_bot(by=by, **definition)
    if BotDefinition.objects.filter(game_id=plan.game_id, name__iexact=cleaned).exists():
        raise UserError(
            f"there is already a bot called {cleaned!r} for this game", field="name", code="duplicate"
        )
    with transaction.atomic():
        player = player_create(name=cleaned, kind=Player.Kind.BOT)
        return BotDefinition.objects.create(
            name=cleaned,
            version=1,
            player=player,
            description=description,
            created_by=by,
            **_plan_fields(plan),
        )


def _plan_fields(plan: BotPlan) -> dict[str, Any]:
    return {
        "game_id": plan.game_id,
        "kind": plan.kind,
        "strategy": plan.strategy,
        "params": plan.params,
        "command": plan.command,
        "move_seconds": plan.move_seconds,
        "cpu_seconds": plan.cpu_seconds,
        "memory_mb": plan.memory_mb,
    }


def bot_has_played(bot: BotDefinition) -> bool:
    """Whether this version has taken a seat (scheduled or played): from then on it is immutable."""
    return MatchSeat.objects.filter(player_id=bot.player_id).exists()


def bot_revise(*, bot: BotDefinition, by: AbstractBaseUser | None, **changes: Any) -> BotDefinition:
    """Change a bot: in place while it has never taken a seat, else as a new version (a new player).

    `changes` are fields of `check_bot` (kind, strategy, params, command, limits) and `description`.
    """
    description = changes.pop("description", bot.description)
    current = {
        "game_id": bot.game_id,
        "kind": bot.kind,
        "strategy": bot.strategy,
        "params": bot.params,
        "command": bot.command,
        "move_seconds": bot.move_seconds,
        "cpu_seconds": bot.cpu_seconds,
        "memory_mb": bot.memory_mb,
    }
    unknown = sorted(set(changes) - set(current) - {"game_id"})
    if unknown or "game_id" in changes:
        raise UserError(f"these cannot be changed: {', '.join(unknown or ['game_id'])}", field="changes")
    plan = check_bot(by=by, **{**current, **changes})
    with transaction.atomic():
        locked = BotDefinition.objects.select_for_update().get(pk=bot.pk)
        if not bot_has_played(locked):
            for field, value in {**_plan_fields(plan), "description": description}.items():
                setattr(locked, field, value)
            locked.save(update_fields=[*_plan_fields(plan), "description"])
            return locked
        latest = BotDefinition.objects.filter(game_id=bot.game_id, name=bot.name).aggregate(v=Max("version"))[
            "v"
        ]
        version = latest + 1
        player = player_create(name=f"{bot.name} v{version}", kind=Player.Kind.BOT)
        return BotDefinition.objects.create(
            name=bot.name,
            version=version,
            player=player,
            previous=locked,
            description=description,
            created_by=by,
            **_plan_fields(plan),
        )


# ------------------------------------------------------------------------------------------- leagues


def league_create(
    *,
    name: str,
    game_id: str,
    bot_ids: Sequence[int],
    table_size: int,
    target_kind: str = BotLeague.Target.ROUNDS,
    target_value: int = 10,
    seed: int = 1,
    options: Mapping[str, Any] | None = None,
    sittings_per_round: int = 4,
    batch_size: int = 50,
    commit_every: int = 10,
    lease_seconds: int = 600,
    pace: str = BotLeague.Pace.FAST,
    interval_seconds: int = 60,
    by: AbstractBaseUser | None,
) -> BotLeague:
    """Create a league in draft with its own rating pool. Bots must play the league's game."""
    if not isinstance(name, str) or not name.strip():
        raise UserError("a league needs a name", field="name")
    name = " ".join(name.split())
    if BotLeague.objects.filter(name__iexact=name).exists():
        raise UserError(f"there is already a league called {name!r}", field="name", code="duplicate")
    spec = game_spec(game_id, field="game")
    _number(table_size, "table_size", low=2, high=16, whole=True)
    _number(seed, "seed", low=0, high=2**63 - 1, whole=True)
    _number(target_value, "target_value", low=1, high=1_000_000, whole=True)
    _number(sittings_per_round, "sittings_per_round", low=1, high=1000, whole=True)
    _number(batch_size, "batch_size", low=1, high=1000, whole=True)
    _number(commit_every, "commit_every", low=1, high=1000, whole=True)
    _number(lease_seconds, "lease_seconds", low=1, high=86400, whole=True)
    _number(interval_seconds, "interval_seconds", low=1, high=86400 * 7, whole=True)
    if target_kind not in BotLeague.Target.values:
        raise UserError(
            f"target_kind must be one of {', '.join(BotLeague.Target.values)}", field="target_kind"
        )
    if pace not in BotLeague.Pace.values:
        raise UserError(f"pace must be one of {', '.join(BotLeague.Pace.values)}", field="pace")
    if options is not None and not isinstance(options, Mapping):
        raise UserError("options must be an object of option names and values", field="options")
    try:
        valid_options = spec.validate_options(options or {}, num_players=table_size)
    except OptionError as exc:
        raise UserError(str(exc), field="table_size" if "players" in str(exc) else "options") from None
    if not isinstance(bot_ids, list | tuple) or len(set(bot_ids)) != len(bot_ids):
        raise UserError("bots must be a list of distinct bot ids", field="bots")
    bots = list(BotDefinition.objects.filter(pk__in=bot_ids))
    if len(bots) != len(bot_ids):
        raise UserError("some of these bots do not exist", field="bots")
    if len(bots) < table_size:
        raise UserError(f"{len(bots)} bots cannot fill a table of {table_size}", field="bots")
    wrong_game = [bot.label for bot in bots if bot.game_id != spec.id]
    if wrong_game:
        raise UserError(f"these bots play another game: {', '.join(wrong_game)}", field="bots")
    with transaction.atomic():
        pool = RatingPool.objects.create(
            name=f"Bot league: {name}",
            kind=RatingPool.Kind.BOT_LEAGUE,
            game_id=spec.id,
            model_name=maths.DEFAULT_MODEL.name,
            model_params=dict(maths.DEFAULT_MODEL.params),
        )
        league = BotLeague.objects.create(
            name=name,
            game_id=spec.id,
            options=valid_options,
            table_size=table_size,
            seed=seed,
            target_kind=target_kind,
            target_value=target_value,
            sittings_per_round=sittings_per_round,
            batch_size=batch_size,
            commit_every=commit_every,
            lease_seconds=lease_seconds,
            pace=pace,
            interval_seconds=interval_seconds,
            rating_pool=pool,
            created_by=by,
        )
        LeagueEntry.objects.bulk_create(LeagueEntry(league=league, bot=bot) for bot in bots)
    return league


def _locked_league(league_id: int) -> BotLeague:
    league = BotLeague.objects.select_for_update().filter(pk=league_id).first()
    if league is None:
        raise UserError(f"no bot league with id {league_id}", code="not_found")
    return league


def league_start(*, league_id: int) -> BotLeague:
    """Start a draft league (drawing round 1) or resume a paused one; queues its work after the commit."""
    with transaction.atomic():
        league = _locked_league(league_id)
        if league.status not in (BotLeague.Status.DRAFT, BotLeague.Status.PAUSED):
            raise UserError(
                f"a {league.get_status_display().lower()} league cannot be started", field="status"
            )
        league.status = BotLeague.Status.RUNNING
        fields = ["status"]
        if league.started_at is None:
            league.started_at = timezone.now()
            fields.append("started_at")
        league.save(update_fields=fields)
        if league.pace == BotLeague.Pace.SCHEDULED:
            _ensure_schedule(league)
        if league.current_round == 0:
            _draw_round(league)
        open_fixtures = Fixture.objects.filter(league=league, done=False).count()
        _queue_work(league.pk, max(1, min(MAX_QUEUED_TASKS, -(-open_fixtures // league.batch_size))))
    return league


def league_pause(*, league_id: int) -> BotLeague:
    """Pause a running league: workers finish the batches they hold and claim no more."""
    with transaction.atomic():
        league = _locked_league(league_id)
        if league.status != BotLeague.Status.RUNNING:
            raise UserError(
                f"a {league.get_status_display().lower()} league cannot be paused", field="status"
            )
        league.status = BotLeague.Status.PAUSED
        league.save(update_fields=["status"])
        if league.schedule_id:
            type(league.schedule).objects.filter(pk=league.schedule_id).update(enabled=False)
    return league


def _ensure_schedule(league: BotLeague) -> None:
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    interval, _ = IntervalSchedule.objects.get_or_create(
        every=league.interval_seconds, period=IntervalSchedule.SECONDS
    )
    if league.schedule_id is None:
        league.schedule = PeriodicTask.objects.create(
            name=f"Bot league {league.pk}: next round",
            task="league.bots.tasks.league_tick_task",
            interval=interval,
            args=f"[{league.pk}]",
        )
        league.save(update_fields=["schedule"])
    else:
        PeriodicTask.objects.filter(pk=league.schedule_id).update(enabled=True, interval=interval)


def _queue_work(league_id: int, tasks: int) -> None:
    from league.bots.tasks import league_play_task

    def send() -> None:
        for _ in range(tasks):
            league_play_task.delay(league_id)

    transaction.on_commit(send)


def league_standings_input(league: BotLeague) -> list[matchmaking.BotStanding]:
    """Each bot's rating belief, matches and seat counts in the league, for matchmaking."""
    initial = league.rating_pool.model.initial()
    entries = list(LeagueEntry.objects.filter(league=league).select_related("bot").order_by("bot_id"))
    ratings = {r.player_id: r for r in Rating.objects.filter(pool_id=league.rating_pool_id)}
    seats: dict[int, list[int]] = {}
    counts = (
        MatchSeat.objects.filter(match__bot_fixture__league=league)
        .values_list("player_id", "seat")
        .annotate(n=Count("id"))
    )
    for player_id, seat, n in counts:
        row = seats.setdefault(player_id, [0] * league.table_size)
        row[seat] = n
    standings = []
    for entry in entries:
        player_id = entry.bot.player_id
        rating = ratings.get(player_id)
        row = seats.get(player_id, [0] * league.table_size)
        standings.append(
            matchmaking.BotStanding(
                bot_id=entry.bot_id,
                mu=rating.mu if rating else initial.mu,
                sigma=rating.sigma if rating else initial.sigma,
                matches=sum(row),
                seat_counts=tuple(row),
            )
        )
    return standings


RESULT_COLUMNS = ("match_id", "places", "scores")


def _target_reached(league: BotLeague, standings: Sequence[matchmaking.BotStanding]) -> bool:
    if league.target_kind == BotLeague.Target.ROUNDS:
        return league.current_round >= league.target_value
    return min(s.matches for s in standings) >= league.target_value


def _draw_round(
    league: BotLeague, standings: Sequence[matchmaking.BotStanding] | None = None
) -> LeagueRound | None:
    """Draw and store the next round, or finish the league at its target. Call holding the league row lock,
    with the league's standings if they were just read."""
    if standings is None:
        standings = league_standings_input(league)
    if league.current_round and _target_reached(league, standings):
        league.status = BotLeague.Status.FINISHED
        league.finished_at = timezone.now()
        league.save(update_fields=["status", "finished_at"])
        if league.schedule_id:
            type(league.schedule).objects.filter(pk=league.schedule_id).update(enabled=False)
        return None
    sittings = league.sittings_per_round
    if league.target_kind == BotLeague.Target.MATCHES_PER_BOT:
        sittings = min(sittings, league.target_value - min(s.matches for s in standings))
    number = league.current_round + 1
    tables = matchmaking.draw_round(
        standings=standings,
        table_size=league.table_size,
        sittings=sittings,
        league_seed=league.seed,
        round_number=number,
    )
    # The pool applies matches by (played_at, id): each match gets the draw time plus its index in
    # microseconds, after every earlier match of the league, so the order is the schedule's whatever the
    # ids or the clock do.
    latest = Match.objects.filter(bot_fixture__league=league).aggregate(at=Max("played_at"))["at"]
    drawn_at = timezone.now()
    if latest is not None and drawn_at <= latest:
        drawn_at = latest + timedelta(microseconds=1)
    league_round = LeagueRound.objects.create(league=league, number=number, drawn_at=drawn_at)
    players = dict(LeagueEntry.objects.filter(league=league).values_list("bot_id", "bot__player_id"))
    spec = game_spec(league.game_id)
    match_ids = dict(
        bulk.insert(
            Match,
            ("played_at",),
            [(drawn_at + timedelta(microseconds=table.index),) for table in tables],
            returning=("played_at", "id"),
            game_id=league.game_id,
            game_version=spec.version,
            options=league.options,
            status=Match.Status.SCHEDULED,
            rated=True,
            rating_pool_id=league.rating_pool_id,
            result_version=0,
            created_at=timezone.now(),
        )
    )
    if len(match_ids) != len(tables):
        raise RuntimeError("two tables of a round were given the same time")
    ids = [match_ids[drawn_at + timedelta(microseconds=table.index)] for table in tables]
    bulk.insert(
        MatchSeat,
        ("match_id", "seat", "player_id"),
        [
            (match_id, seat, players[bot_id])
            for match_id, table in zip(ids, tables, strict=True)
            for seat, bot_id in enumerate(table.seats)
        ],
    )
    start = Fixture.objects.filter(league=league).aggregate(p=Max("position"))["p"]
    start = 0 if start is None else start + 1
    bulk.insert(
        Fixture,
        ("position", "match_id", "seed"),
        [
            (start + i, match_id, table.seed)
            for i, (match_id, table) in enumerate(zip(ids, tables, strict=True))
        ],
        league_id=league.pk,
        round_id=league_round.pk,
        done=False,
        lease_token="",
        attempts=0,
        played_by="",
    )
    league.current_round = number
    league.save(update_fields=["current_round"])
    return league_round


def league_advance(*, league_id: int, scheduled_tick: bool = False) -> bool:
    """Draw the next round once the current one is stored and rated (or finish the league at its target).

    Returns True when a round was drawn. A league with the scheduled pace draws only on its tick.
    Idempotent: under the league row lock it re-checks that nothing of the round is open or unrated.
    """
    league = BotLeague.objects.filter(pk=league_id).only("status", "rating_pool_id").first()
    if league is None or league.status != BotLeague.Status.RUNNING:
        return False
    if Fixture.objects.filter(league_id=league_id, done=False).exists():
        return False
    pool_update(pool_id=league.rating_pool_id)
    with transaction.atomic():
        league = _locked_league(league_id)
        if league.status != BotLeague.Status.RUNNING:
            return False
        if Fixture.objects.filter(league=league, done=False).exists():
            return False
        if PendingRatingUpdate.objects.filter(pool_id=league.rating_pool_id).exists():
            return False  # another worker is rating the last matches; it advances the league after
        standings = league_standings_input(league)
        if (
            league.pace == BotLeague.Pace.SCHEDULED
            and not scheduled_tick
            and not _target_reached(league, standings)
        ):
            return False
        drawn = _draw_round(league, standings)
        if drawn is not None:
            tables = Fixture.objects.filter(round=drawn).count()
            _queue_work(league.pk, min(MAX_QUEUED_TASKS, -(-tables // league.batch_size)))
        return drawn is not None


# ------------------------------------------------------------------------------------- worker batches


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


def fixtures_claim(*, league: BotLeague, token: str, limit: int, least: int = 1) -> list[ClaimedFixture]:
    """Lease open fixtures of a running league to `token`, in schedule order.

    Takes `limit` fixtures, but no more than half of those still unclaimed (and at least `least`), so that
    the end of a round is shared between the workers instead of left to the last one to claim.
    """
    now = timezone.now()
    with transaction.atomic():
        _relax_commit()
        available = list(
            Fixture.objects.select_for_update(skip_locked=True)
            .filter(league_id=league.pk, done=False, lease_token="")
            .order_by("position")
            .values_list("id", "match_id", "seed", "position")[: 2 * limit]
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
        Match.objects.filter(pk__in=[fixture.match_id for fixture in claimed]).update(
            status=Match.Status.RUNNING
        )
    return claimed


@dataclass(frozen=True)
class PlayedFixture:
    fixture_id: int
    match_id: int
    record: dict
    seconds: float


def fixtures_store(*, pool_id: int, token: str, played: Sequence[PlayedFixture]) -> int:
    """Store played matches whose lease `token` still holds: record, system result version 1, seats' places.

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
        versions, match_rows, seat_rows = [], [], []
        now = timezone.now()
        for item in items:
            outcome = item.record["outcome"]
            places, _ = check_outcome(
                num_seats=len(item.record["seats"]), score_order=None, places=outcome["places"]
            )
            scores = outcome.get("scores")
            versions.append((item.match_id, places, scores))
            match_rows.append((item.match_id, Match.compress_record(item.record)))
            for number, place in enumerate(places):
                seat_rows.append(
                    (item.match_id, number, place, scores[number] if scores is not None else None)
                )
        # (match, version) is unique: a match is stored once
        bulk.insert(
            ResultVersion, RESULT_COLUMNS, versions, version=1, reason=SYSTEM_RESULT_REASON, entered_at=now
        )
        bulk.update(Match, ("record",), match_rows, status=Match.Status.FINISHED, result_version=1)
        bulk.update(MatchSeat, ("place", "score"), seat_rows, key=("match_id", "seat"))
        bulk.update(
            Fixture,
            ("seconds",),
            [(item.fixture_id, item.seconds) for item in items],
            done=True,
            lease_token="",
            lease_expires_at=None,
            played_by=token,
        )
        pool_mark_pending(pool_id=pool_id, match_id=min(item.match_id for item in items))
    return len(items)


def seat_bots(league: BotLeague) -> dict[int, SeatBot]:
    """What plays for each of the league's players (by player id)."""
    seats = {}
    for entry in LeagueEntry.objects.filter(league=league).select_related("bot"):
        bot = entry.bot
        limits = Limits(move_seconds=bot.move_seconds, cpu_seconds=bot.cpu_seconds, memory_mb=bot.memory_mb)
        seats[bot.player_id] = SeatBot(
            label=bot.label,
            strategy=bot.strategy,
            params=dict(bot.params),
            command=tuple(bot.command) if bot.is_external else (),
            limits=limits,
        )
    return seats


def league_work(
    *,
    league_id: int,
    worker: str,
    on_stored: Callable[[int], None] | None = None,
    max_seconds: float | None = None,
) -> int:
    """Claim, play and store batches of a running league until it has nothing open; returns matches stored.

    The body of `league_play_task`: safe to run twice or concurrently on many workers. `on_stored(total)`,
    if given, is called after each stored chunk (the shell command's progress bar). With `max_seconds`, no
    new batch is claimed after that long: the work is handed on to a new task (queued after the commit), so
    that no task outlives the workers' time limits however long the league.
    """
    stored = 0
    bots: dict[int, SeatBot] | None = None
    started = rated_at = time.monotonic()
    while True:
        league = BotLeague.objects.filter(pk=league_id).first()
        if league is None or league.status != BotLeague.Status.RUNNING:
            return stored
        if max_seconds is not None and time.monotonic() - started > max_seconds:
            with transaction.atomic():
                _queue_work(league_id, 1)
            return stored
        token = f"{worker}:{uuid.uuid4().hex[:12]}"
        # The end of a round is shared out in ever smaller claims (half of what is left each time), so that
        # no worker waits long at the round's barrier for another to finish a large batch.
        fixtures = fixtures_claim(
            league=league, token=token, limit=league.batch_size, least=max(1, league.commit_every // 10)
        )
        if not fixtures:
            if league_advance(league_id=league_id):
                continue
            return stored
        if bots is None:
            bots = seat_bots(league)
        seat_players: dict[int, list[int]] = {}
        for match_id, player_id in (
            MatchSeat.objects.filter(match_id__in=[fixture.match_id for fixture in fixtures])
            .order_by("match_id", "seat")
            .values_list("match_id", "player_id")
        ):
            seat_players.setdefault(match_id, []).append(player_id)
        for start in range(0, len(fixtures), league.commit_every):
            chunk = []
            for fixture_id, match_id, seed, _ in fixtures[start : start + league.commit_every]:
                began = time.perf_counter()
                record = play_league_match(
                    game_id=league.game_id,
                    options=league.options,
                    seed=seed,
                    seats=[bots[player_id] for player_id in seat_players[match_id]],
                )
                chunk.append(PlayedFixture(fixture_id, match_id, record, time.perf_counter() - began))
            stored += fixtures_store(pool_id=league.rating_pool_id, token=token, played=chunk)
            if on_stored is not None:
                on_stored(stored)
            if start + league.commit_every < len(fixtures):
                later = [fixture.id for fixture in fixtures[start + league.commit_every :]]
                with transaction.atomic():
                    _relax_commit()
                    Fixture.objects.filter(pk__in=later, lease_token=token).update(
                        lease_expires_at=timezone.now() + timedelta(seconds=league.lease_seconds)
                    )
        # Rate while the others play, strictly in schedule order: only once every earlier match is stored
        # (the worker storing the last of them rates ours too), so no batch is applied early and replayed.
        # An update costs several queries whatever its size, so a worker rates at most every
        # RATE_EVERY_SECONDS (the league page refreshes as often); the round's end rates the rest.
        if time.monotonic() - rated_at >= RATE_EVERY_SECONDS and not Fixture.objects.filter(
            league_id=league_id, done=False, position__lt=fixtures[0].position
        ).exists():
            with transaction.atomic():
                _relax_commit()
                pool_update(pool_id=league.rating_pool_id)
            rated_at = time.monotonic()


def leases_reap(*, now=None) -> int:
    """Hand back the fixtures whose lease expired (a worker died) and queue work for every running league.

    Returns how many fixtures were handed back. Their matches are played again from the same seeds.
    """
    now = now or timezone.now()
    with transaction.atomic():
        expired = list(
            Fixture.objects.select_for_update(skip_locked=True)
            .filter(done=False, lease_expires_at__lt=now)
            .values_list("id", "match_id")
        )
        if expired:
            Fixture.objects.filter(pk__in=[f[0] for f in expired]).update(
                lease_token="", lease_expires_at=None
            )
            Match.objects.filter(pk__in=[f[1] for f in expired]).update(status=Match.Status.SCHEDULED)
            logger.warning("handed back %d fixtures whose lease expired", len(expired))
        for league_id in BotLeague.objects.filter(status=BotLeague.Status.RUNNING).values_list(
            "id", flat=True
        ):
            _queue_work(league_id, 1)
    return len(expired)


def league_tick(*, league_id: int) -> bool:
    """The scheduled pace's periodic step: draw the next round if the last one is done; True if drawn."""
    return league_advance(league_id=league_id, scheduled_tick=True)
