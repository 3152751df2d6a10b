"""Writes for bot leagues and their rounds: create, start, pause, advance (draw the next round or finish).

How a league runs (every step is idempotent, so `acks_late`, retries and a killed worker are safe):

1. `league_start` draws round 1 and, after the commit, queues `league_play_task`s.
2. A task runs the workers' loop (`league.bots.services.work.work_play`): it claims open fixtures under row
   locks (`league.bots.services.leases`), plays them from their stored seeds and stores their results in
   chunks, rating the league's pool as it goes, in schedule order.
3. When a round's fixtures are all stored and rated, `league_advance` (under the league row lock) draws the
   next round from the ratings (`league.bots.matchmaking`, pure), or finishes the league at its target.
4. The reaper (`league.bots.services.leases.leases_reap`, periodic) hands back fixtures whose lease expired
   and queues work for every running league (a safety net for lost messages).

A round's matches and seats are written by `league.matches.services.matches_schedule`; this app writes only
its own rows (leagues, entries, rounds, fixtures) and the league's periodic task.

Work is queued by the tasks' registered names (`PLAY_TASK`, and `TICK_TASK` for the scheduled pace's
periodic task): `league.bots.tasks` imports this module and `league.bots.services.work`, and neither imports a
task, so there is no import cycle between the services and the tasks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, cast

from celery import signature
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, Max
from django.utils import timezone
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from games.core.errors import OptionError
from league.bots import matchmaking
from league.bots.budget import check_table_memory
from league.bots.models import BotDefinition, BotLeague, Fixture, LadderEvent, LeagueEntry, LeagueRound
from league.core import bulk, events
from league.core.bounds import Bounds
from league.core.catalogue import game_spec
from league.core.errors import ErrorCode, NotFound, UserError
from league.core.names import check_name
from league.matches.models import Match, MatchSeat
from league.matches.services import ScheduledMatch, check_owned, matches_schedule
from league.ratings.models import PendingRatingUpdate, Rating, RatingPool
from league.ratings.services import (
    PredictedTable,
    calibration_queue,
    pool_create,
    pool_rate,
    predictions_store,
)

MAX_QUEUED_TASKS = 16
SETTING_BOUNDS = {  # a league's numbers, within their columns (small ints up to 32767, ints up to 2**31 - 1)
    "table_size": Bounds(2, 16),
    "seed": Bounds(0, 2**63 - 1),
    "target_value": Bounds(1, 1_000_000),
    "sittings_per_round": Bounds(1, 1000),
    "batch_size": Bounds(1, 1000),
    "commit_every": Bounds(1, 1000),
    "lease_seconds": Bounds(2, 30),  # renewed every third of it while a batch plays
    "interval_seconds": Bounds(1, 86400 * 7),
}
PLAY_TASK = "league.bots.tasks.league_play_task"
TICK_TASK = "league.bots.tasks.league_tick_task"


def retired(bot: BotDefinition) -> bool:
    """Whether a newer ready version of this bot exists (it has retired: it enters nothing new). A newer
    upload still checking, or refused, retires nothing."""
    return BotDefinition.objects.filter(
        **bot.line, version__gt=bot.version, state=BotDefinition.State.READY
    ).exists()


def not_ready_message(bots: Sequence[BotDefinition]) -> str:
    """Why these bots (none of them ready) may take no seat yet, in words for the person entering them."""
    checking = [bot.label for bot in bots if bot.state == BotDefinition.State.CHECKING]
    validating = [bot.label for bot in bots if bot.state == BotDefinition.State.VALIDATING]
    refused = [bot.label for bot in bots if bot.state == BotDefinition.State.REFUSED]
    failing = [bot.label for bot in bots if bot.state == BotDefinition.State.FAILING]
    parts = []
    if checking:
        parts.append(f"{', '.join(checking)} {'is' if len(checking) == 1 else 'are'} still being checked")
    if validating:
        parts.append(
            f"{', '.join(validating)} {'is' if len(validating) == 1 else 'are'} still playing "
            "its validation matches"
        )
    if failing:
        parts.append(
            f"{', '.join(failing)} failed {'its' if len(failing) == 1 else 'their'} validation matches "
            "(its page says why)"
        )
    if refused:
        parts.append(
            f"{', '.join(refused)} {'was' if len(refused) == 1 else 'were'} refused by the check of "
            "uploads (its page says why)"
        )
    return "; ".join(parts) + ": only a bot whose check passed takes a seat"


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
    lease_seconds: int = 30,
    pace: str = BotLeague.Pace.FAST,
    interval_seconds: int = 60,
    by: User | None,
) -> BotLeague:
    """Create a league in draft with its own rating pool. Bots must play the league's game."""
    # A CharField, so its max_length is set.
    name = check_name(
        name, what="a league", max_length=cast(int, BotLeague._meta.get_field("name").max_length)
    )
    if BotLeague.objects.filter(name__iexact=name).exists():
        raise UserError(f"there is already a league called {name!r}", field="name", code=ErrorCode.DUPLICATE)
    spec = game_spec(game_id, field="game")
    numbers = {
        "table_size": table_size,
        "seed": seed,
        "target_value": target_value,
        "sittings_per_round": sittings_per_round,
        "batch_size": batch_size,
        "commit_every": commit_every,
        "lease_seconds": lease_seconds,
        "interval_seconds": interval_seconds,
    }
    for field, value in numbers.items():
        SETTING_BOUNDS[field].check(value, field)
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
    unready = [bot for bot in bots if not bot.is_ready]
    if unready:
        raise UserError(not_ready_message(unready), field="bots")
    replaced = [bot.label for bot in bots if bot.is_uploaded and retired(bot)]
    if replaced:  # an upload's new version replaces the old for new entries; the old keeps its history
        raise UserError(
            f"these uploaded bots have a newer version, enter that one: {', '.join(sorted(replaced))}",
            field="bots",
        )
    check_table_memory(bots=bots, table_size=table_size, field="bots")
    authors = {bot.pk: bot.seating_author for bot in bots}
    if not matchmaking.seated_within_rule(sorted(authors), authors, table_size, 1):
        raise UserError(
            f"these bots cannot fill a table of {table_size} without two uploaded programs of one author "
            "(they never share a table): add other authors' bots or built-in ones",
            field="bots",
        )
    with transaction.atomic():
        pool = pool_create(name=f"Bot league: {name}", kind=RatingPool.Kind.BOT_LEAGUE, game_id=spec.id)
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
        raise NotFound(f"no bot league with id {league_id}")
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
        queue_work(league.pk, max(1, min(MAX_QUEUED_TASKS, -(-open_fixtures // league.batch_size))))
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
            PeriodicTask.objects.filter(pk=league.schedule_id).update(enabled=False)
    return league


def _ensure_schedule(league: BotLeague) -> None:
    interval, _ = IntervalSchedule.objects.get_or_create(
        every=league.interval_seconds, period=IntervalSchedule.SECONDS
    )
    if league.schedule_id is None:
        league.schedule = PeriodicTask.objects.create(
            name=f"Bot league {league.pk}: next round",
            task=TICK_TASK,
            interval=interval,
            args=f"[{league.pk}]",
        )
        league.save(update_fields=["schedule"])
    else:
        PeriodicTask.objects.filter(pk=league.schedule_id).update(enabled=True, interval=interval)


def queue_work(league_id: int, tasks: int) -> None:
    """Queue `tasks` runs of the league's play task after the commit (at once outside a transaction)."""

    def send() -> None:
        for _ in range(tasks):
            signature(PLAY_TASK, args=(league_id,)).delay()

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
                author=entry.bot.seating_author,
            )
        )
    return standings


def ladder_log(league: BotLeague) -> list[matchmaking.LadderEvent]:
    """A ladder's entry log, in order, as matchmaking reads it."""
    return [
        matchmaking.LadderEvent(position, action, bot_id, author)
        for position, action, bot_id, author in LadderEvent.objects.filter(league=league)
        .order_by("seq")
        .values_list("position", "action", "bot_id", "author")
    ]


def next_position(league: BotLeague) -> int:
    """The schedule position of the league's next fixture (its number of fixtures drawn)."""
    last = Fixture.objects.filter(league=league).aggregate(p=Max("position"))["p"]
    return 0 if last is None else last + 1


def ladder_standings_input(league: BotLeague, position: int) -> list[matchmaking.BotStanding]:
    """The ladder's members at `position`, with their matches and seat counts in it (drawn, not played:
    a ladder's draw never waits on, or reads, a result)."""
    log = ladder_log(league)
    members = matchmaking.ladder_members(log, position)
    authors = matchmaking.ladder_authors(log)
    players = dict(
        LeagueEntry.objects.filter(league=league, bot_id__in=members).values_list("bot__player_id", "bot_id")
    )
    seats: dict[int, list[int]] = {}
    counts = (
        MatchSeat.objects.filter(match__bot_fixture__league=league, player_id__in=players)
        .values_list("player_id", "seat")
        .annotate(n=Count("id"))
    )
    for player_id, seat, n in counts:
        seats.setdefault(players[player_id], [0] * league.table_size)[seat] = n
    return [
        matchmaking.BotStanding(
            bot_id=bot_id,
            mu=0.0,
            sigma=0.0,
            matches=sum(seats.get(bot_id, ())),
            seat_counts=tuple(seats.get(bot_id, [0] * league.table_size)),
            author=authors.get(bot_id) if position >= league.authors_apart_from else None,
        )
        for bot_id in members
    ]


def _target_reached(league: BotLeague, standings: Sequence[matchmaking.BotStanding]) -> bool:
    if league.is_ladder:
        return False  # a ladder never ends
    if league.target_kind == BotLeague.Target.ROUNDS:
        return league.current_round >= league.target_value
    return min(s.matches for s in standings) >= league.target_value


def _draw_round(
    league: BotLeague, standings: Sequence[matchmaking.BotStanding] | None = None
) -> LeagueRound | None:
    """Draw and store the next round, or finish the league at its target. Call holding the league row lock,
    with the league's standings if they were just read."""
    if league.is_ladder:
        return _draw_ladder_round(league)
    if standings is None:
        standings = league_standings_input(league)
    if league.current_round and _target_reached(league, standings):
        league.status = BotLeague.Status.FINISHED
        league.finished_at = timezone.now()
        league.save(update_fields=["status", "finished_at"])
        calibration_queue(pool_id=league.rating_pool_id)
        if league.schedule_id:
            PeriodicTask.objects.filter(pk=league.schedule_id).update(enabled=False)
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
        strategy=league.matchmaking,
    )
    return _store_round(league, number, tables)


def _draw_ladder_round(league: BotLeague) -> LeagueRound | None:
    """Draw a ladder's next round from its seed and its entry log up to the next position, or nothing while
    its members do not fill a table (it waits for an entry). Call holding the ladder's row lock."""
    position = next_position(league)
    standings = ladder_standings_input(league, position)
    if len(standings) < league.table_size:
        return None
    number = league.current_round + 1
    tables = matchmaking.draw_ladder_round(
        standings=standings,
        table_size=league.table_size,
        sittings=league.sittings_per_round,
        newcomer_matches=league.newcomer_matches,
        ladder_seed=league.seed,
        round_number=number,
    )
    if not tables:
        return None  # its members are all one author's programs: it waits for another's entry
    return _store_round(league, number, tables)


def _store_round(league: BotLeague, number: int, tables: Sequence[matchmaking.MatchmadeTable]) -> LeagueRound:
    """Store round `number`'s tables: its matches and seats (through `matches`), the round, its fixtures."""
    # The pool applies matches by (played_at, id): each match gets the draw time plus its index in
    # microseconds, after every earlier match of the league, so the order is the schedule's whatever the
    # ids or the clock do.
    latest = Match.objects.filter(bot_fixture__league=league).aggregate(at=Max("played_at"))["at"]
    drawn_at = timezone.now()
    if latest is not None and drawn_at <= latest:
        drawn_at = latest + timedelta(microseconds=1)
    league_round = LeagueRound.objects.create(league=league, number=number, drawn_at=drawn_at)
    players = dict(LeagueEntry.objects.filter(league=league).values_list("bot_id", "bot__player_id"))
    ids = matches_schedule(
        owner=Match.Owner.FIXTURE,
        game_id=league.game_id,
        options=league.options,
        rating_pool_id=league.rating_pool_id,
        tables=[
            ScheduledMatch(
                drawn_at + timedelta(microseconds=table.index), [players[bot] for bot in table.seats]
            )
            for table in tables
        ],
    )
    # Each table's pre-match chances from the ratings at the draw; the calibration of the rounds rated so far.
    predictions_store(
        pool_id=league.rating_pool_id,
        tables=[
            PredictedTable(m, [players[bot] for bot in t.seats]) for m, t in zip(ids, tables, strict=True)
        ],
    )
    if number > 1:
        calibration_queue(pool_id=league.rating_pool_id)
    start = next_position(league)
    check_owned(match_ids=ids, owner=Match.Owner.FIXTURE)
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
        leases_lost=0,
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
    pool_rate(pool_id=league.rating_pool_id, now=True)
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
        if league.current_round:
            # Every fixture of the current round is stored and rated (checked above, under the lock); the
            # round is left behind just below (the next one drawn, or the league finished), so once.
            events.emit(events.league_round_rated, league_id=league.pk, round_number=league.current_round)
        drawn = _draw_round(league, standings)
        if drawn is not None:
            tables = Fixture.objects.filter(round=drawn).count()
            queue_work(league.pk, min(MAX_QUEUED_TASKS, -(-tables // league.batch_size)))
        return drawn is not None


def league_tick(*, league_id: int) -> bool:
    """The scheduled pace's periodic step: draw the next round if the last one is done; True if drawn."""
    return league_advance(league_id=league_id, scheduled_tick=True)


def leagues_tick_due(*, now: datetime | None = None) -> list[int]:
    """Tick every running league or ladder of the scheduled pace whose round is stored and whose interval has
    passed since that round was drawn (what its beat tick does): so that a ladder keeps its pace while the
    workers are busy with long work and beat's tick waits behind it in the queue. The workers call it between
    slices (`league.bots.services.work.work_shared`); `league_advance` is idempotent, so a tick of beat's
    meanwhile draws nothing twice. The ids of the leagues a round was drawn for."""
    now = now or timezone.now()
    due = (
        BotLeague.objects.filter(status=BotLeague.Status.RUNNING, pace=BotLeague.Pace.SCHEDULED)
        .exclude(fixtures__done=False)
        .annotate(last=Max("rounds__drawn_at"))
        .values_list("id", "last", "interval_seconds")
    )
    return [
        league_id
        for league_id, last, interval in due
        if (last is None or last + timedelta(seconds=interval) <= now) and league_tick(league_id=league_id)
    ]
