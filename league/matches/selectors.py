"""Reads for matches: lists and pages, and a rating pool's matches in the pool's order for
`league.ratings`.

Lists and pages show a viewer only the matches they may see (`visible_to`, `seen_by`): public matches,
private ones they are a viewer of, and every match to staff. The workers and the rating pools read every
match."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import NamedTuple, cast

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet

from league.matches.models import Match, MatchSeat, MatchViewer, Verification
from league.players.models import Player

Viewer = AbstractBaseUser | AnonymousUser | None


def seen_by(viewer: Viewer, *, match: str = "") -> Q:
    """The filter of what `viewer` may see (staff everything), for a query of matches (`match=""`) or of
    rows with a match (`match="match"`): one condition, no extra query."""
    if viewer is not None and getattr(viewer, "is_staff", False):
        return Q()
    prefix = f"{match}__" if match else ""
    public = Q(**{f"{prefix}visibility": Match.Visibility.PUBLIC})
    if viewer is None or not viewer.is_authenticated:
        return public
    viewers = MatchViewer.objects.filter(
        match_id=OuterRef(f"{match}_id" if match else "pk"), user_id=viewer.pk
    )
    return public | Q(Exists(viewers))


def visible_to(matches: QuerySet[Match], viewer: Viewer) -> QuerySet[Match]:
    """`matches` less those `viewer` may not see."""
    return matches.filter(seen_by(viewer))


def match_visible(match: Match, viewer: Viewer) -> bool:
    """Whether `viewer` may see `match` (a query only for a private match seen by a user other than staff)."""
    if match.visibility == Match.Visibility.PUBLIC:
        return True
    return Match.objects.filter(seen_by(viewer), pk=match.pk).exists()


def with_seats(matches: QuerySet[Match]) -> QuerySet[Match]:
    """`matches` with their seats (in seat order) and the seats' players prefetched."""
    return matches.prefetch_related(
        Prefetch("seats", queryset=MatchSeat.objects.select_related("player").order_by("seat"))
    )


def match_list(*, game_id: str | None = None, status: str | None = None) -> QuerySet[Match]:
    """Matches, most recently played first, with their seats and players (every match: a page narrows it
    with `visible_to`)."""
    matches = Match.objects.all()
    if game_id:
        matches = matches.filter(game_id=game_id)
    if status:
        matches = matches.filter(status=status)
    return with_seats(matches.order_by("-played_at", "-id"))


def player_seats(player: Player, *, viewer: Viewer) -> QuerySet[MatchSeat]:
    """A player's seats at the matches `viewer` may see, most recent match first, with the match and every
    player at it."""
    return (
        MatchSeat.objects.filter(seen_by(viewer, match="match"), player=player)
        .select_related("match")
        .prefetch_related(
            Prefetch("match__seats", queryset=MatchSeat.objects.select_related("player").order_by("seat"))
        )
        .order_by("-match__played_at", "-match_id")
    )


def verification_of(match: Match) -> Verification | None:
    """The strict verification of a match's record, or None while it is pending (or for a match without
    one)."""
    return Verification.objects.filter(match_id=match.pk).first()


def players_by_seat(*, match_ids: Sequence[int]) -> dict[int, list[int]]:
    """Each match's player ids in seat order."""
    players: dict[int, list[int]] = {}
    rows = MatchSeat.objects.filter(match_id__in=match_ids).order_by("match_id", "seat")
    for match_id, player_id in rows.values_list("match_id", "player_id"):
        players.setdefault(match_id, []).append(player_id)
    return players


# A pool applies its matches by (played_at, id); the (rating_pool, played_at, id) index serves every read
# below.
PoolKey = tuple[datetime, int]
POOL_ORDER = ("played_at", "id")
BATCH = 2000


class PoolMatch(NamedTuple):
    """A finished match of a rating pool: its players and places by seat, and its key in the pool's order."""

    match_id: int
    player_ids: tuple[int, ...]
    places: tuple[int, ...]
    played_at: datetime


def _from_key(start: PoolKey) -> Q:
    """Matches at or after `start` in the pool's order. The leading `played_at >=` lets the database
    range-scan the (pool, played_at, id) index instead of reading the whole pool."""
    played_at, match_id = start
    return Q(played_at__gte=played_at) & (Q(played_at__gt=played_at) | Q(id__gte=match_id))


def pool_matches(*, pool_id: int, start: PoolKey | None = None) -> QuerySet[Match]:
    """The pool's matches (every status) from `start` on (all when None), unordered: a query to refine."""
    matches = Match.objects.filter(rating_pool_id=pool_id)
    return matches if start is None else matches.filter(_from_key(start))


def rated_matches_for_pool(*, pool_id: int, start: PoolKey | None = None) -> Iterator[PoolMatch]:
    """The pool's finished matches in the pool's order from `start` on (all when None), with their seats.

    One query for the ordered ids and times (a range scan of the (pool, played_at, id) index, on SQLite
    too), then one for the seats of each batch of them, by match id.
    """
    finished = pool_matches(pool_id=pool_id, start=start).filter(status=Match.Status.FINISHED)
    ordered = list(finished.order_by(*POOL_ORDER).values_list("id", "played_at"))
    for offset in range(0, len(ordered), BATCH):
        chunk = ordered[offset : offset + BATCH]
        seats: dict[int, list[tuple[int, int, int]]] = {match_id: [] for match_id, _ in chunk}
        rows = MatchSeat.objects.filter(match_id__in=seats).values_list(
            "match_id", "seat", "player_id", "place"
        )
        for match_id, seat, player_id, place in rows:
            # A finished match's seats have places.
            seats[match_id].append((seat, player_id, cast(int, place)))
        for match_id, played_at in chunk:
            seated = sorted(seats[match_id])
            yield PoolMatch(
                match_id, tuple(row[1] for row in seated), tuple(row[2] for row in seated), played_at
            )


def first_in_pool_order(*, match_ids: Sequence[int]) -> PoolKey | None:
    """The pool-order key of the earliest of these matches (None for none)."""
    return Match.objects.filter(pk__in=match_ids).order_by(*POOL_ORDER).values_list(*POOL_ORDER).first()
