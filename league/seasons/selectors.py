"""Reads of clubs and seasons: who organizes what, a club's events, players and seasons, and a season's table
(`points.season_table` over its accepted events' results, read from the tournaments as they stand now, so a
correction in an event shows at once; a frozen season shows the table stored at its freeze)."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from typing import cast

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet

from league.matches.models import Match, MatchSeat
from league.players.models import Player
from league.ratings import whole_history as whr
from league.seasons import points
from league.seasons.models import Club, ClubEvent, Season, SeasonEvent, SeasonFit, SeasonRating
from league.tournaments.models import Tournament
from league.tournaments.snapshots import current_standings


def organizes_a_club(user: User | AnonymousUser | None) -> bool:
    """Whether `user` organizes any club (club organizers may create events)."""
    return bool(user is not None and user.is_authenticated and user.clubs_organized.exists())


def is_club_organizer(user: User | AnonymousUser | None, club: Club) -> bool:
    """Site staff and the club's organizers."""
    if user is None or not user.is_authenticated:
        return False
    return user.is_staff or club.organizers.filter(pk=user.pk).exists()


def club_of(tournament: Tournament) -> Club | None:
    event = ClubEvent.objects.select_related("club").filter(tournament=tournament).first()
    return event.club if event is not None else None


def club_events(club: Club, *, drafts: bool = False) -> QuerySet[Tournament]:
    """The club's events, by start (unscheduled last), then newest; drafts only with `drafts` (its
    organizers' view)."""
    events = Tournament.objects.filter(club_event__club=club)
    if not drafts:
        events = events.exclude(status=Tournament.Status.DRAFT)
    return events.order_by("starts_at", "-created_at", "-id")


def club_players(club: Club) -> QuerySet[Player]:
    """Everyone who played a match at one of the club's events (no membership: playing is enough)."""
    played = MatchSeat.objects.filter(
        match__tournament_table__round__tournament__club_event__club=club,
        match__status=Match.Status.FINISHED,
    ).values("player_id")
    return Player.objects.filter(pk__in=played).order_by("name", "id")


def rules_of(season: Season) -> points.Rules:
    return points.Rules(
        place_points={place: Decimal(value) for place, value in enumerate(season.place_points, start=1)},
        scale_by_field=season.scale_by_field,
        reference_size=season.reference_size,
        per_win=season.per_win,
        participation=season.participation,
        best_of=season.best_of,
        minimum_events=season.minimum_events,
        qualify_top=season.qualify_top,
        qualify_points=season.qualify_points,
        tie_breaks=list(season.tie_breaks),
    )


def accepted_entries(season: Season) -> list[SeasonEvent]:
    return list(
        season.entries.filter(accepted_at__isnull=False)
        .select_related("tournament")
        .order_by("tournament__starts_at", "tournament__created_at", "tournament_id")
    )


def event_results(tournament: Tournament) -> list[points.EventResult]:
    """Each registered player's final place (the standings' rank), matches played and matches won (a first
    place at a table; a first shared by k counts 1/k), from the finished matches of the event's tables."""
    seats = MatchSeat.objects.filter(
        match__tournament_table__round__tournament=tournament, match__status=Match.Status.FINISHED
    ).values_list("match_id", "player_id", "place")
    played: dict[int, int] = defaultdict(int)
    firsts: dict[int, list[int]] = defaultdict(list)
    for match_id, player_id, place in seats:
        played[player_id] += 1
        if place == 1:
            firsts[match_id].append(player_id)
    wins: dict[int, Fraction] = defaultdict(Fraction)
    for winners in firsts.values():
        for player_id in winners:
            wins[player_id] += Fraction(1, len(winners))
    ranks = {cast(int, standing.id): standing.rank for standing in current_standings(tournament)}
    return [
        points.EventResult(
            player=player_id,
            place=ranks.get(player_id) if played[player_id] else None,
            played=played[player_id],
            wins=Decimal(wins[player_id].numerator) / Decimal(wins[player_id].denominator),
        )
        for player_id in sorted(set(ranks) | set(played))
    ]


@dataclass(frozen=True)
class TableLine:
    """A line of the season's table as pages, CSV and the API show it."""

    rank: int
    player_id: int
    name: str
    slug: str
    total: Decimal
    attended: int
    qualifies: bool
    counted: list[dict]
    dropped: list[dict]
    rating: float | None = None  # the settled rating on the Elo scale (a season ranked by settled ratings)
    sd: float | None = None


def _event_line(scored: points.Scored, names: dict[int, tuple[str, str]]) -> dict:
    name, slug = names[scored.event]
    return {
        "event": scored.event,
        "event_name": name,
        "event_slug": slug,
        "place": scored.place,
        "place_points": str(scored.place_points),
        "win_points": str(scored.win_points),
        "participation": str(scored.participation),
        "multiplier": str(scored.multiplier),
        "points": str(scored.points),
    }


def season_lines(season: Season) -> list[TableLine]:
    """The season's table now, best first (see the module docstring)."""
    entries = accepted_entries(season)
    events = [
        points.Event(
            id=entry.tournament_id,
            order=index,
            results=event_results(entry.tournament),
            multiplier=entry.multiplier,
        )
        for index, entry in enumerate(entries)
    ]
    rules = rules_of(season)
    rows = points.season_table(events, rules)
    ratings: dict[int, tuple[float, float]] = {}
    if season.rank_by == Season.RankBy.SETTLED:
        ratings = {
            player_id: (rating, sd)
            for player_id, rating, sd in SeasonRating.objects.filter(season=season).values_list(
                "player_id", "rating", "sd"
            )
        }
        rows = points.rank_by_rating(rows, {player: value[0] for player, value in ratings.items()}, rules)
    people = {
        player.pk: (player.name, player.slug)
        for player in Player.objects.filter(pk__in=[row.player for row in rows]).only("name", "slug")
    }
    names = {entry.tournament_id: (entry.tournament.name, entry.tournament.slug) for entry in entries}
    return [
        TableLine(
            rank=row.rank,
            player_id=row.player,
            name=people[row.player][0],
            slug=people[row.player][1],
            total=row.total,
            attended=row.attended,
            qualifies=row.qualifies,
            counted=[_event_line(s, names) for s in row.counted],
            dropped=[_event_line(s, names) for s in row.dropped],
            rating=_elo(ratings[row.player][0]) if row.player in ratings else None,
            sd=_elo(ratings[row.player][1], offset=False) if row.player in ratings else None,
        )
        for row in rows
    ]


def _elo(value: float, *, offset: bool = True) -> float:
    """A settled rating (natural units) on the Elo scale the pages show, 1500 at the pool's middle."""
    return round(value * whr.ELO + (1500 if offset else 0), 1)


def line_json(line: TableLine) -> dict:
    return {
        "rank": line.rank,
        "player": line.player_id,
        "name": line.name,
        "slug": line.slug,
        "total": str(line.total),
        "attended": line.attended,
        "qualifies": line.qualifies,
        "counted": line.counted,
        "dropped": line.dropped,
        "rating": line.rating,
        "sd": line.sd,
    }


def line_from_json(row: dict) -> TableLine:
    return TableLine(
        rank=row["rank"],
        player_id=row["player"],
        name=row["name"],
        slug=row["slug"],
        total=Decimal(row["total"]),
        attended=row["attended"],
        qualifies=row["qualifies"],
        counted=row["counted"],
        dropped=row["dropped"],
        rating=row.get("rating"),
        sd=row.get("sd"),
    )


def event_versions(season: Season) -> dict[str, int]:
    """Each accepted event's public version now (tournament id as text → version)."""
    return {str(entry.tournament_id): entry.tournament.public_version for entry in accepted_entries(season)}


@dataclass(frozen=True)
class SeasonTable:
    lines: list[TableLine]
    frozen: bool
    changed_after_freeze: list[str]  # names of events whose results changed after the freeze


def season_table(season: Season) -> SeasonTable:
    """The table a season's page shows: live, or as stored at its freeze (noting events changed since)."""
    if season.frozen_at is None:
        return SeasonTable(season_lines(season), False, [])
    now = event_versions(season)
    changed = [
        entry.tournament.name
        for entry in accepted_entries(season)
        if season.frozen_versions.get(str(entry.tournament_id)) != now.get(str(entry.tournament_id))
    ]
    return SeasonTable([line_from_json(row) for row in season.frozen_table], True, changed)


def seasons_of_player(player: Player) -> list[tuple[Season, TableLine]]:
    """The seasons whose table has the player, with their line (live seasons computed, frozen as stored)."""
    tournaments = MatchSeat.objects.filter(player=player, match__status=Match.Status.FINISHED).values(
        "match__tournament_table__round__tournament_id"
    )
    seasons = Season.objects.filter(
        entries__tournament_id__in=tournaments, entries__accepted_at__isnull=False
    ).distinct()
    found = []
    for season in seasons.select_related("club"):
        for line in season_table(season).lines:
            if line.player_id == player.pk:
                found.append((season, line))
    return found


def seasons_of_event(tournament: Tournament) -> list[Season]:
    return list(
        Season.objects.filter(entries__tournament=tournament, entries__accepted_at__isnull=False)
        .select_related("club")
        .distinct()
    )


def pending_invitations(club: Club) -> QuerySet[SeasonEvent]:
    """Invitations of the club's events into other clubs' seasons, waiting for the club's answer."""
    return SeasonEvent.objects.filter(
        tournament__club_event__club=club, accepted_at__isnull=True
    ).select_related("season__club", "tournament")


def invitations_of_event(tournament: Tournament) -> list[SeasonEvent]:
    """The seasons that invited this event and wait for its organizers' answer (shown on the event's page to
    its organizers: an event of no club has no club page to answer on)."""
    return list(
        SeasonEvent.objects.filter(tournament=tournament, accepted_at__isnull=True)
        .select_related("season__club")
        .order_by("id")
    )


def table_version(season: Season) -> str:
    """A short fingerprint of everything the season's table is computed from (its rules, its joined events
    and each one's public version, its freeze): it changes whenever the table may have."""
    parts = [
        season.place_points,
        season.scale_by_field,
        season.reference_size,
        str(season.per_win),
        str(season.participation),
        season.best_of,
        season.minimum_events,
        season.qualify_top,
        str(season.qualify_points),
        season.tie_breaks,
        season.rank_by,
        fit_time(season),
        season.frozen_at.isoformat() if season.frozen_at else None,
        sorted(
            (str(e.tournament_id), str(e.multiplier), e.tournament.public_version)
            for e in accepted_entries(season)
        ),
    ]
    return hashlib.blake2b(repr(parts).encode(), digest_size=8).hexdigest()


def fitted_at(season: Season) -> datetime | None:
    """When the season's settled ratings were last fitted (None: never)."""
    return SeasonFit.objects.filter(season=season).values_list("fitted_at", flat=True).first()


def fit_time(season: Season) -> str | None:
    """`fitted_at` as text, for the table's fingerprint."""
    fitted = fitted_at(season)
    return fitted.isoformat() if fitted else None
