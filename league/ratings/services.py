"""Writes for ratings: keeping each pool's numbers equal to a replay of its matches in the pool's order.

The one algorithm: `pool_replay_from(pool, start)` undoes every history row from `start` on (in the pool's
order), restores each affected player's rating to what it was before, and applies the pool's finished
matches from there on. A new result at the end of the pool replays one match; a correction of an old one
replays everything after it. The arithmetic is `league.ratings.maths` (pure); the matches are read through
`league.matches.selectors`. `pool_recompute` runs the same arithmetic from scratch in memory, which is how
`ratings_recompute` proves the stored numbers.

How the rest of the league reaches ratings: `league.results` calls `pools_changed` in the transaction that
changed an outcome. It marks the pools. One entry point rates a pool, whatever its kind: `pool_rate`. A
people's pool is rated through it at once (an update queued after the commit); a bot league's worker calls
it with `now` when the matches before its batch are stored, so the pool follows the schedule's order
(`league.bots.services.work`). Tasks are queued by their registered name: `league.ratings.tasks` imports this
module, and this module imports no task, so there is no import cycle.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from celery import signature
from django.db import transaction
from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone

from league.core import bulk
from league.core.catalogue import game_spec
from league.matches.models import Match, MatchSeat
from league.matches.selectors import (
    POOL_ORDER,
    PoolKey,
    PoolMatch,
    first_in_pool_order,
    pool_matches,
    rated_matches_for_pool,
)
from league.ratings import forecast, maths
from league.ratings.models import (
    PendingRatingUpdate,
    PoolCalibration,
    Prediction,
    Rating,
    RatingHistory,
    RatingPool,
)

BATCH = 2000
POOL_UPDATE_TASK = "league.ratings.tasks.pool_update_task"
CALIBRATION_TASK = "league.ratings.tasks.calibration_refresh_task"


def pool_create(*, name: str, kind: str, game_id: str) -> RatingPool:
    """A new pool rated with the default model (its name and parameters are stored with it)."""
    return RatingPool.objects.create(
        name=name,
        kind=kind,
        game_id=game_id,
        model_name=maths.DEFAULT_MODEL.name,
        model_params=dict(maths.DEFAULT_MODEL.params),
    )


def people_pool_for_game(game_id: str) -> RatingPool:
    """The people's pool of a game, created (with the default model) on first use."""
    pool = RatingPool.objects.filter(kind=RatingPool.Kind.PEOPLE, game_id=game_id).first()
    if pool is not None:
        return pool
    spec = game_spec(game_id)
    pool, _ = RatingPool.objects.get_or_create(
        kind=RatingPool.Kind.PEOPLE,
        game_id=game_id,
        defaults={
            "name": f"{spec.name}: people",
            "model_name": maths.DEFAULT_MODEL.name,
            "model_params": dict(maths.DEFAULT_MODEL.params),
        },
    )
    return pool


class PoolChange(NamedTuple):
    """A match of a pool whose counted outcome changed (a result, a correction, a void)."""

    pool_id: int
    match_id: int


def pools_changed(*, changes: Sequence[PoolChange]) -> None:
    """Mark the pools of these matches for an update from them; queue one update per people's pool.

    Call in the transaction that changed the outcomes: the markers commit with them, and the updates are
    queued after the commit, one per pool however many of its matches changed in the transaction. A bot
    league's pool is only marked (its worker rates in schedule order, see the module's docstring).
    """
    if not changes:
        return
    PendingRatingUpdate.objects.bulk_create(
        PendingRatingUpdate(pool_id=change.pool_id, match_id=change.match_id) for change in changes
    )
    people = RatingPool.objects.filter(
        pk__in={change.pool_id for change in changes}, kind=RatingPool.Kind.PEOPLE
    )
    for pool_id in sorted(people.values_list("pk", flat=True)):
        pool_rate(pool_id=pool_id)


class _QueuedUpdates:
    """The after-commit callback of one transaction: queues an update for each pool named during it."""

    def __init__(self, pool_ids: set[int]):
        self.pool_ids = pool_ids
        self.sent = False

    def __call__(self) -> None:
        self.sent = True
        for pool_id in sorted(self.pool_ids):
            signature(POOL_UPDATE_TASK, args=(pool_id,)).delay()


# The callback registered last on each connection of this thread, by alias, held weakly: Django holds the
# callbacks it will run, so the referent lives exactly while its transaction may still run it.
_registered = threading.local()


def _queue_updates(pool_ids: set[int]) -> None:
    """Queue an update of each pool after the commit, once per pool and transaction.

    A transaction's changes join its one callback (`_QueuedUpdates`), registered once with
    `transaction.on_commit` and known to later changes through a weak reference per connection. Django drops
    a callback when a savepoint it was registered in rolls back, or its transaction does: nothing else holds
    it then, so the reference is dead and the next change registers a callback of its own. Every savepoint
    still open when a live callback is joined encloses this change too, so joining never loses an update (at
    worst a change rolled back queues an update that finds nothing to do). Outside a transaction the
    updates are queued at once.
    """
    alias = transaction.get_connection().alias
    by_alias: dict[str, weakref.ref[_QueuedUpdates]] | None = getattr(_registered, "by_alias", None)
    if by_alias is None:
        by_alias = _registered.by_alias = {}
    reference = by_alias.get(alias)
    callback = reference() if reference is not None else None
    if callback is not None and not callback.sent:
        callback.pool_ids |= pool_ids
        return
    callback = _QueuedUpdates(set(pool_ids))
    by_alias[alias] = weakref.ref(callback)
    transaction.on_commit(callback)


def pool_recompute(pool: RatingPool) -> dict[int, maths.RatedSkill]:
    """Every player's standing from a replay of the whole pool in memory; writes nothing."""
    return maths.recompute(pool.model, rated_matches_for_pool(pool_id=pool.pk))


def pool_replay_from(pool: RatingPool, start: PoolKey | None) -> int:
    """Bring the pool's stored ratings and history up to date from `start` on (from scratch when None).

    Call inside a transaction holding the pool row lock. Returns the number of matches applied. Only the
    ratings of players touched by the undone or replayed matches are read and written, so a new result at
    the end of a large pool costs a few small queries.
    """
    ratings = Rating.objects.filter(pool=pool).only("id", "player_id", "mu", "sigma", "matches")
    if start is None:
        RatingHistory.objects.filter(pool=pool).delete()
        current = {row.player_id: row for row in ratings}
        standings: dict[int, maths.RatedSkill] = {}
        matches: Iterable[PoolMatch] = rated_matches_for_pool(pool_id=pool.pk)
    else:
        through = (pool.applied_through_at, pool.applied_through_id)
        after_all_applied = through[1] is not None and start > through
        undone = {} if after_all_applied else _undo_from(pool, start)
        matches = list(rated_matches_for_pool(pool_id=pool.pk, start=start))
        touched = set(undone) | {player_id for match in matches for player_id in match.player_ids}
        current = {}
        ordered = sorted(touched)
        for offset in range(0, len(ordered), BATCH):
            current.update(
                (row.player_id, row) for row in ratings.filter(player_id__in=ordered[offset : offset + BATCH])
            )
        standings = {
            pid: maths.RatedSkill(maths.Skill(row.mu, row.sigma), row.matches) for pid, row in current.items()
        }
        maths.rewind(standings, undone)

    applied = 0
    rows: list[tuple] = []
    last_match = None
    played_at: dict[int, datetime] = {}
    applying = maths.apply_matches(pool.model, standings, _noting_times(matches, played_at))
    for match_id, player_id, before, after in applying:
        if match_id != last_match:
            applied += 1
            last_match = match_id
        rows.append((pool.pk, match_id, player_id, before.mu, before.sigma, after.mu, after.sigma))
        if len(rows) >= BATCH:
            _insert_history(rows)
            rows = []
    _insert_history(rows)
    _store_standings(pool, current, standings)
    # Everything from `start` on was undone and replayed: the last match applied is the latest in the pool.
    # With none applied, the old mark stays (it may be later than the truth, which is safe).
    if last_match is not None:
        through = (played_at[last_match], last_match)
    elif start is None:
        through = (None, None)
    else:
        through = (pool.applied_through_at, pool.applied_through_id)
    if through != (pool.applied_through_at, pool.applied_through_id):
        pool.applied_through_at, pool.applied_through_id = through
        RatingPool.objects.filter(pk=pool.pk).update(
            applied_through_at=through[0], applied_through_id=through[1]
        )
    return applied


def _noting_times(matches: Iterable[PoolMatch], played_at: dict[int, datetime]) -> Iterator[PoolMatch]:
    """Pass `matches` through, keeping the time of the latest one in `played_at` (a replay streams them)."""
    for match in matches:
        played_at.clear()
        played_at[match.match_id] = match.played_at
        yield match


RATING_COLUMNS = ("mu", "sigma", "conservative", "matches")
HISTORY_COLUMNS = ("pool_id", "match_id", "player_id", "mu_before", "sigma_before", "mu_after", "sigma_after")


def _insert_history(rows: list[tuple]) -> None:
    """Insert history rows in one statement: replays write hundreds of thousands of them, and model
    instances would cost more than the rating maths."""
    bulk.insert(RatingHistory, HISTORY_COLUMNS, rows)


def _undo_from(pool: RatingPool, start: PoolKey) -> dict[int, tuple[maths.Skill, int]]:
    """Delete the history of every match from `start` on (in pool order); return, for each player it
    touched, their skill before their first deleted row and the number of rows deleted. Works through the
    match index in chunks, so undoing one match at the end of a large pool reads a handful of rows; when
    nothing from `start` on was applied yet (a new result at the end of the pool), one query."""
    later = pool_matches(pool_id=pool.pk, start=start)
    if not later.filter(Exists(RatingHistory.objects.filter(pool=pool, match=OuterRef("pk")))).exists():
        return {}
    match_ids = list(later.order_by(*POOL_ORDER).values_list("id", flat=True))
    undone: dict[int, tuple[maths.Skill, int]] = {}
    for offset in range(0, len(match_ids), BATCH):
        chunk = match_ids[offset : offset + BATCH]
        position = {match_id: index for index, match_id in enumerate(chunk)}
        rows = RatingHistory.objects.filter(pool=pool, match_id__in=chunk)
        ordered = sorted(
            rows.values_list("match_id", "player_id", "mu_before", "sigma_before"),
            key=lambda row: position[row[0]],
        )
        for _, player_id, mu_before, sigma_before in ordered:
            before, removed = undone.get(player_id, (maths.Skill(mu_before, sigma_before), 0))
            undone[player_id] = (before, removed + 1)
        if ordered:
            rows.delete()
    return undone


def _store_standings(
    pool: RatingPool, current: dict[int, Rating], standings: dict[int, maths.RatedSkill]
) -> None:
    changed, created = [], []
    for player_id, standing in standings.items():
        skill = standing.skill
        row = current.get(player_id)
        if row is None:
            created.append(
                Rating(
                    pool=pool,
                    player_id=player_id,
                    mu=skill.mu,
                    sigma=skill.sigma,
                    conservative=skill.conservative,
                    matches=standing.matches,
                )
            )
        elif (row.mu, row.sigma, row.matches) != (skill.mu, skill.sigma, standing.matches):
            row.mu, row.sigma, row.conservative, row.matches = (
                skill.mu,
                skill.sigma,
                skill.conservative,
                standing.matches,
            )
            changed.append(row)
    gone = [row.pk for player_id, row in current.items() if player_id not in standings]
    if gone:
        Rating.objects.filter(pk__in=gone).delete()
    _update_ratings(changed)
    Rating.objects.bulk_create(created, batch_size=BATCH)


def _update_ratings(rows: list[Rating]) -> None:
    """One statement: bulk_update's CASE expressions cost more than the rating maths when a bot league's
    worker applies a few matches at a time."""
    bulk.update(
        Rating, RATING_COLUMNS, [(row.pk, row.mu, row.sigma, row.conservative, row.matches) for row in rows]
    )


def pool_update(*, pool_id: int) -> int:
    """Replay the pool from its earliest pending match; idempotent (returns 0 when nothing is pending).

    Takes the pool row lock, so one writer works on a pool at a time. The lock is FOR NO KEY UPDATE: it
    does not hold up the transactions that store results meanwhile (their pending markers refer to the pool,
    and the check of that foreign key takes a KEY SHARE lock, which FOR UPDATE would block).
    """
    with transaction.atomic(savepoint=False):  # inside a caller's transaction, a failure rolls it all back
        pool = RatingPool.objects.select_for_update(no_key=True).filter(pk=pool_id).first()
        if pool is None:
            return 0
        pending = list(PendingRatingUpdate.objects.filter(pool=pool).values_list("pk", "match_id"))
        if not pending:
            return 0
        earliest = first_in_pool_order(match_ids=[match_id for _, match_id in pending])
        applied = pool_replay_from(pool, earliest)
        PendingRatingUpdate.objects.filter(pk__in=[marker for marker, _ in pending]).delete()
        if pool.kind == RatingPool.Kind.PEOPLE:  # a bot league's is queued when its round is rated
            calibration_queue(pool_id=pool.pk)
        return applied


def pool_rate(*, pool_id: int, now: bool = False) -> int:
    """Bring a pool's ratings up to its pending matches: the one way a pool is rated, whatever its kind.

    By default the update is queued after the commit (`pool_update_task`, one per pool and transaction, at
    once outside a transaction; returns 0): how a people's pool follows its results. With `now`, it runs here,
    in the caller's transaction (`pool_update`), and returns the matches applied: how the task runs it, and
    how a bot league's worker rates its pool in schedule order while the league plays.
    """
    if now:
        return pool_update(pool_id=pool_id)
    _queue_updates({pool_id})
    return 0


def pool_rebuild(*, pool_id: int) -> int:
    """Recompute the whole pool from scratch and store it; clears pending markers."""
    with transaction.atomic():
        pool = RatingPool.objects.select_for_update(no_key=True).get(pk=pool_id)
        applied = pool_replay_from(pool, None)
        PendingRatingUpdate.objects.filter(pool=pool).delete()
        calibration_queue(pool_id=pool.pk)
        return applied


@dataclass(frozen=True)
class Difference:
    player_id: int
    stored: tuple[float, float, int] | None
    computed: tuple[float, float, int] | None


def pool_differences(pool: RatingPool) -> list[Difference]:
    """Players whose stored (mu, sigma, matches) differ from a from-scratch recompute, compared exactly."""
    computed = {pid: (s.skill.mu, s.skill.sigma, s.matches) for pid, s in pool_recompute(pool).items()}
    stored = {
        pid: (mu, sigma, matches)
        for pid, mu, sigma, matches in Rating.objects.filter(pool=pool).values_list(
            "player_id", "mu", "sigma", "matches"
        )
    }
    return [
        Difference(pid, stored.get(pid), computed.get(pid))
        for pid in sorted(set(computed) | set(stored))
        if stored.get(pid) != computed.get(pid)
    ]


# Predictions -----------------------------------------------------------------------------------------------


class PredictedTable(NamedTuple):
    """A match about to be played: its id and its players by seat (seat 0 first)."""

    match_id: int
    player_ids: Sequence[int]


def predictions_store(*, pool_id: int, tables: Sequence[PredictedTable]) -> int:
    """Store each seat's P(first) and expected place from the pool's current ratings, in bulk; returns the
    number of seats written. Called when a tournament round is published or a bracket match opens, when a
    bot league draws a round, and when a casual match is created. Tables that already have a prediction
    keep it: a prediction is never changed. Players without a rating get the model's initial belief."""
    if not tables:
        return 0
    pool = RatingPool.objects.get(pk=pool_id)
    model = pool.model
    initial = model.initial()
    beta = float(model.params.get("beta", maths.default_params()["beta"]))
    match_ids = [table.match_id for table in tables]
    done: set[int] = set()
    for offset in range(0, len(match_ids), BATCH):
        done.update(
            Prediction.objects.filter(match_id__in=match_ids[offset : offset + BATCH])
            .values_list("match_id", flat=True)
            .distinct()
        )
    players = sorted({pid for table in tables if table.match_id not in done for pid in table.player_ids})
    skills: dict[int, tuple[float, float]] = {}
    for offset in range(0, len(players), BATCH):
        ratings = Rating.objects.filter(pool_id=pool_id, player_id__in=players[offset : offset + BATCH])
        skills.update(
            (pid, (mu, sigma)) for pid, mu, sigma in ratings.values_list("player_id", "mu", "sigma")
        )
    now = timezone.now()
    cached: dict[tuple[tuple[float, float], ...], list[forecast.SeatForecast]] = {}
    rows: list[tuple] = []
    for table in tables:
        if table.match_id in done:
            continue
        seated = [skills.get(pid, (initial.mu, initial.sigma)) for pid in table.player_ids]
        key = tuple(seated)
        if key not in cached:  # a bot league's round repeats the same tables many times
            cached[key] = forecast.forecast(seated, beta)
        for seat, (pid, (mu, sigma), chance) in enumerate(
            zip(table.player_ids, seated, cached[key], strict=True)
        ):
            rows.append(
                (table.match_id, seat, len(seated), pid, mu, sigma, chance.p_first, chance.expected_place)
            )
    bulk.insert(Prediction, PREDICTION_COLUMNS, rows, pool_id=pool_id, created_at=now)
    return len(rows)


PREDICTION_COLUMNS = ("match_id", "seat", "seats", "player_id", "mu", "sigma", "p_first", "expected_place")


def prediction_for_match(*, match_id: int) -> int:
    """A rated match without a prediction gets one now, from the current ratings (a casual match entered
    with its result at once: the ratings before its result applies); returns the seats written. Call in the
    transaction that records the result, before its pool update."""
    match = Match.objects.filter(pk=match_id, rated=True).values("rating_pool_id").first()
    if match is None or Prediction.objects.filter(match_id=match_id).exists():
        return 0
    seats = list(
        MatchSeat.objects.filter(match_id=match_id).order_by("seat").values_list("player_id", flat=True)
    )
    if len(seats) < 2:
        return 0
    return predictions_store(pool_id=match["rating_pool_id"], tables=[PredictedTable(match_id, seats)])


# Calibration -----------------------------------------------------------------------------------------------

UPSETS_LISTED = 10


def calibration_queue(*, pool_id: int) -> None:
    """Mark the pool's calibration stale and queue its refresh after the commit, unless one is queued."""
    marked = PoolCalibration.objects.filter(pool_id=pool_id, stale=False).update(stale=True)
    created = False
    if not marked:
        _, created = PoolCalibration.objects.get_or_create(pool_id=pool_id)
    if marked or created:
        transaction.on_commit(lambda: signature(CALIBRATION_TASK, args=(pool_id,)).delay())


def pool_forecast_seats(pool_id: int) -> list[forecast.ForecastSeat]:
    """Every predicted seat of the pool's finished matches, with its place (one query)."""
    place = MatchSeat.objects.filter(match_id=OuterRef("match_id"), seat=OuterRef("seat")).values("place")[:1]
    rows = (
        Prediction.objects.filter(
            pool_id=pool_id, match__status=Match.Status.FINISHED, match__rating_pool_id=pool_id
        )
        .annotate(place=Subquery(place))
        .values_list("match_id", "seat", "seats", "p_first", "place", "player_id")
    )
    return [
        forecast.ForecastSeat(match_id, seat, seats, p_first, place)
        for match_id, seat, seats, p_first, place, _ in rows
        if place is not None
    ]


def calibration_compute(pool_id: int) -> dict:
    """The pool's calibration summary as stored (plain JSON): bins, scores, baselines, biggest upsets."""
    seats = pool_forecast_seats(pool_id)
    result = forecast.calibrate(seats)
    if result is None:
        return {"matches": 0}
    upsets = sorted(
        (s for s in seats if s.place == 1 and forecast.is_upset(s.p_first, s.seats)),
        key=lambda s: (s.p_first, s.match_id, s.seat),
    )[:UPSETS_LISTED]
    return {
        "matches": result.matches,
        "seats": result.seats,
        "bins": [vars(row) for row in result.bins],
        "model": vars(result.model),
        "uniform": vars(result.uniform),
        "seat_share": vars(result.seat_share),
        "favourite_won": result.favourite_won,
        "upsets": [
            {"match": s.match_id, "seat": s.seat, "seats": s.seats, "p_first": s.p_first} for s in upsets
        ],
    }


def calibration_refresh(*, pool_id: int) -> dict:
    """Recompute and store the pool's calibration (idempotent: the task may run twice)."""
    PoolCalibration.objects.filter(pool_id=pool_id).update(stale=False)
    summary = calibration_compute(pool_id)
    # `stale` is left alone: an update that marked it during the computation has queued the next refresh.
    PoolCalibration.objects.update_or_create(
        pool_id=pool_id,
        defaults={"summary": summary, "computed_at": timezone.now()},
        create_defaults={"summary": summary, "computed_at": timezone.now(), "stale": False},
    )
    return summary
