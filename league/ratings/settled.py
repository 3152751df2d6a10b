"""Writes for settled ratings: the nightly whole-history fit of each people's pool, and the honest comparison
of its predictions with the live ratings' (`docs/ratings.md`, "Settled ratings").

`settled_refit(pool_id)` reads the pool's finished matches (`league.matches.selectors`), fits them all at once
(`league.ratings.whole_history.fit`, a fixed number of sweeps: the same matches give the same floats), and
replaces the pool's `SettledRating` rows in one transaction. For the comparison, each of the pool's last
`COMPARE_DAYS` days of play is predicted from a fit on the days before it only, and scored (log loss, Brier on
who finished first) beside the live predictions stored for the same matches before they were played.

It runs in a worker, by beat at night (`league.ratings.tasks.settled_nightly`, every people's pool with a
rated match), never in a page request.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from django.db import transaction
from django.utils import timezone

from league.matches.selectors import rated_matches_for_pool
from league.ratings import forecast
from league.ratings import whole_history as whr
from league.ratings.models import RatingPool, SettledFit, SettledRating
from league.ratings.services import pool_forecast_seats

BATCH = 2000
COMPARE_DAYS = 30


def pool_tables(pool_id: int) -> list[tuple[int, whr.Table]]:
    """The pool's finished matches as (match id, table), a table's day the site zone's date of its play."""
    zone = timezone.get_default_timezone()
    return [
        (
            match.match_id,
            whr.Table(
                day=timezone.localtime(match.played_at, zone).date().toordinal(),
                seats=list(zip(match.player_ids, match.places, strict=True)),
            ),
        )
        for match in rated_matches_for_pool(pool_id=pool_id)
    ]


def _scores(seats: list[forecast.ForecastSeat]) -> dict[str, float] | None:
    result = forecast.calibrate(seats)
    if result is None:
        return None
    return {"log_loss": result.model.log_loss, "brier": result.model.brier}


def comparison(pool_id: int, tables: list[tuple[int, whr.Table]], days: int = COMPARE_DAYS) -> dict:
    """Settled against live on the matches of the pool's last `days` days of play that have a stored live
    prediction for every seat: both scored on the same matches; which predicts better (lower log loss)."""
    settled = whr.day_ahead(tables, days)
    live: dict[int, list[forecast.ForecastSeat]] = defaultdict(list)
    for seat in pool_forecast_seats(pool_id):
        if seat.match_id in settled:
            live[seat.match_id].append(seat)
    live_seats: list[forecast.ForecastSeat] = []
    settled_seats: list[forecast.ForecastSeat] = []
    for match_id, seats in sorted(live.items()):
        chances = settled[match_id]
        if len(seats) != len(chances):
            continue  # a seat without its stored prediction: the match is left out of both
        seats.sort(key=lambda seat: seat.seat)
        live_seats += seats
        settled_seats += [
            forecast.ForecastSeat(seat.match_id, seat.seat, seat.seats, chance, seat.place)
            for seat, chance in zip(seats, chances, strict=True)
        ]
    live_scores, settled_scores = _scores(live_seats), _scores(settled_seats)
    if live_scores is None or settled_scores is None:
        return {"matches": 0, "days": days}
    if settled_scores["log_loss"] < live_scores["log_loss"]:
        better = "settled"
    elif settled_scores["log_loss"] > live_scores["log_loss"]:
        better = "live"
    else:
        better = "equal"
    matches = len({seat.match_id for seat in live_seats})
    return {
        "matches": matches,
        "days": days,
        "live": live_scores,
        "settled": settled_scores,
        "better": better,
    }


def settled_refit(*, pool_id: int) -> SettledFit:
    """Fit the pool's whole history and store every player's settled rating on each day they played, with the
    comparison; idempotent (the same matches store the same numbers)."""
    pool = RatingPool.objects.get(pk=pool_id)
    tables = pool_tables(pool_id)
    fitted = whr.fit([table for _, table in tables])
    compared = comparison(pool_id, tables)
    rows = [
        SettledRating(
            pool_id=pool_id,
            player_id=player_id,
            day=date.fromordinal(rating.day),
            rating=rating.rating,
            sd=rating.sd,
        )
        for player_id, history in fitted.items()
        for rating in history
    ]
    with transaction.atomic():
        SettledRating.objects.filter(pool_id=pool_id).delete()
        SettledRating.objects.bulk_create(rows, batch_size=BATCH)
        fit, _ = SettledFit.objects.update_or_create(
            pool_id=pool_id,
            defaults={
                "matches": len(tables),
                "through_id": pool.applied_through_id,
                "iterations": whr.ITERATIONS,
                "comparison": compared,
                "fitted_at": timezone.now(),
            },
        )
    return fit


def pools_due() -> list[int]:
    """The people's pools with any rated match, by id: each is refitted every night (a correction of an old
    result changes the fit as much as a new one; four games make four fits)."""
    pools = RatingPool.objects.filter(kind=RatingPool.Kind.PEOPLE, applied_through_id__isnull=False)
    return list(pools.order_by("pk").values_list("pk", flat=True))
