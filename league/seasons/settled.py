"""A season ranked by settled ratings: the whole-history fit (`league.ratings.whole_history`) over the
season's own tables, the finished matches of its joined events, stored per player (`SeasonRating`).

Fitted by the workers in their fair share (`league.ratings.refits`, kind `season`): queued when an organizer
chooses to rank by settled ratings, and each night for every such season not yet frozen; never in a page
request. A fit is a pure function of the stored results (a fixed number of sweeps, games summed in a fixed
order), so a refit stores the same numbers.
"""

from __future__ import annotations

from datetime import date
from typing import cast

from django.db import transaction
from django.utils import timezone

from league.matches.models import Match, MatchSeat
from league.ratings import whole_history as whr
from league.seasons.models import Season, SeasonFit, SeasonRating


def season_tables(season: Season) -> list[whr.Table]:
    """The finished matches of the season's joined events as tables, a table's day the site zone's date of
    its play, in match id order."""
    zone = timezone.get_default_timezone()
    events = season.entries.filter(accepted_at__isnull=False).values("tournament_id")
    rows = (
        MatchSeat.objects.filter(
            match__tournament_table__round__tournament_id__in=events,
            match__status=Match.Status.FINISHED,
            place__isnull=False,
        )
        .order_by("match_id", "seat")
        .values_list("match_id", "match__played_at", "player_id", "place")
    )
    tables: dict[int, tuple[int, list[tuple[int, int]]]] = {}
    for match_id, played_at, player_id, place in rows:
        day = timezone.localtime(played_at, zone).date().toordinal()
        tables.setdefault(match_id, (day, []))[1].append((player_id, cast(int, place)))  # places: not null
    return [whr.Table(day=day, seats=seats) for day, seats in tables.values() if len(seats) >= 2]


def season_refit(season_id: int) -> int:
    """Fit the season's tables and store each player's rating on their last day; the matches covered."""
    season = Season.objects.get(pk=season_id)
    tables = season_tables(season)
    fitted = whr.fit(tables)
    rows = [
        SeasonRating(
            season=season,
            player_id=player_id,
            rating=history[-1].rating,
            sd=history[-1].sd,
            day=date.fromordinal(history[-1].day),
        )
        for player_id, history in sorted(fitted.items())
        if history
    ]
    with transaction.atomic():
        SeasonRating.objects.filter(season=season).delete()
        SeasonRating.objects.bulk_create(rows)
        SeasonFit.objects.update_or_create(
            season=season,
            defaults={"matches": len(tables), "iterations": whr.ITERATIONS, "fitted_at": timezone.now()},
        )
    return len(tables)


def seasons_due() -> list[int]:
    """The seasons ranked by settled ratings whose table still changes (not frozen), by id."""
    return list(
        Season.objects.filter(rank_by=Season.RankBy.SETTLED, frozen_at__isnull=True)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
