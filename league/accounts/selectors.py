"""Reads for accounts: who may issue a claim link, a claim link by its token, a user's API token and when it
expires, and a player's own page.

`my_page` reads a fixed number of queries whatever the number of events, tables and ratings.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import cast

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Prefetch
from django.urls import reverse
from rest_framework.authtoken.models import Token

from league.accounts.models import ClaimLink, PendingSignUp, TokenExpiry
from league.core.catalogue import game_name
from league.matches.models import Match, MatchSeat
from league.players.models import Player
from league.players.selectors import player_of
from league.ratings.models import RatingPool
from league.ratings.selectors import player_ratings
from league.tournaments.models import Registration, Round, Table, Tournament
from league.tournaments.reach import reaches


def token_digest(token: str) -> str:
    """The stored form of a claim link's or a sign-up link's token: its SHA-256 in hex (the token is 256
    random bits, so a plain hash suffices; nobody can guess a token from its digest)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def claim_link_for_token(token: str) -> ClaimLink | None:
    """The claim link whose token this is, with its player; None for a token that names none."""
    if not isinstance(token, str) or not token or len(token) > 200:
        return None
    return ClaimLink.objects.select_related("player").filter(token_hash=token_digest(token)).first()


def pending_sign_up_for_token(token: str) -> PendingSignUp | None:
    """The pending sign-up whose link's token this is, expired or not; None for a token that names none."""
    if not isinstance(token, str) or not token or len(token) > 2000:
        return None
    return PendingSignUp.objects.filter(token_hash=token_digest(token)).first()


def token_expires_at(token: Token) -> datetime:
    """When `token` stops working: its expiry, or API_TOKEN_DEFAULT_DAYS after it was made when it has none
    (a token made by other means than `api_token_create`)."""
    try:
        return token.expiry.expires_at
    except TokenExpiry.DoesNotExist:
        return token.created + timedelta(days=settings.API_TOKEN_DEFAULT_DAYS)


def api_token_of(user: User) -> Token | None:
    """The user's API token (with its expiry), or None."""
    return Token.objects.select_related("expiry").filter(user=user).first()


def api_token_for_key(key: str) -> Token | None:
    """The token of this key, with its user and expiry (one query), or None."""
    return Token.objects.select_related("user", "expiry").filter(key=key).first()


def can_issue_claim_link(user: User | AnonymousUser | None, player: Player) -> bool:
    """Site staff, and an organizer who reaches the player (`league.tournaments.reach`): a walk-in first
    registered in an event they organize (whatever became of that registration since)."""
    return reaches(user, player)


def email_taken(email: str, *, exclude_user_id: int | None = None) -> bool:
    """Whether another account has this email address, ignoring case."""
    users = get_user_model().objects.filter(email__iexact=email.strip())
    if exclude_user_id is not None:
        users = users.exclude(pk=exclude_user_id)
    return users.exists()


@dataclass(frozen=True)
class SeatMate:
    seat: int  # from 1; seat 1 starts
    name: str
    slug: str


@dataclass(frozen=True)
class NextTable:
    tournament_name: str
    tournament_slug: str
    round: int
    table: int
    label: str
    seat: int  # from 1; seat 1 starts
    others: list[SeatMate]
    match_id: int
    round_url: str
    table_url: str  # the table's own page (self-report: report, confirm, dispute)
    self_report: bool


@dataclass(frozen=True)
class MyEvent:
    tournament_name: str
    tournament_slug: str
    game_id: str
    game_name: str
    status: str  # the tournament's
    status_label: str
    registration: str  # my registration's status
    registration_label: str
    url: str


@dataclass(frozen=True)
class MyRating:
    game_id: str
    game_name: str
    conservative: float
    uncertainty: float
    matches: int


@dataclass
class MyPage:
    player: Player | None
    next_tables: list[NextTable] = field(default_factory=list)
    events: list[MyEvent] = field(default_factory=list)
    ratings: list[MyRating] = field(default_factory=list)


def next_tables(player: Player) -> list[NextTable]:
    """The tables where `player` sits and that await a result: published rounds of running tournaments,
    tables not closed, matches neither finished nor void. Oldest round first."""
    tables = (
        Table.objects.filter(
            round__status=Round.Status.PUBLISHED,
            round__tournament__status=Tournament.Status.RUNNING,
            closed_as=Table.Closed.NO,
            match__seats__player=player,
        )
        .exclude(match__status__in=(Match.Status.FINISHED, Match.Status.VOID))
        .select_related("round__tournament", "match")
        .prefetch_related(
            Prefetch("match__seats", queryset=MatchSeat.objects.select_related("player").order_by("seat"))
        )
        .order_by("round__published_at", "round__tournament_id", "round__number", "number")
    )
    found = []
    for table in tables:
        match = cast(Match, table.match)  # set: the query joins the match's seats
        seats = list(match.seats.all())
        mine = next(seat for seat in seats if seat.player_id == player.pk)
        tournament = table.round.tournament
        found.append(
            NextTable(
                tournament_name=tournament.name,
                tournament_slug=tournament.slug,
                round=table.round.number,
                table=table.number,
                label=table.label,
                seat=mine.seat + 1,
                others=[
                    SeatMate(seat.seat + 1, seat.player.name, seat.player.slug)
                    for seat in seats
                    if seat.player_id != player.pk
                ],
                match_id=match.pk,
                round_url=table.round.get_absolute_url(),
                table_url=reverse(
                    "tournaments:table", args=[tournament.slug, table.round.number, table.number]
                ),
                self_report=tournament.result_reporting == Tournament.Reporting.SELF_REPORT,
            )
        )
    return found


def my_events(player: Player) -> list[MyEvent]:
    """The tournaments the player is registered in, newest first (drafts too: the player is in them)."""
    registrations = (
        Registration.objects.filter(player=player)
        .select_related("tournament")
        .order_by("-tournament__created_at", "-tournament_id")
    )
    return [
        MyEvent(
            tournament_name=registration.tournament.name,
            tournament_slug=registration.tournament.slug,
            game_id=registration.tournament.game_id,
            game_name=game_name(registration.tournament.game_id),
            status=registration.tournament.status,
            status_label=registration.tournament.get_status_display(),
            registration=registration.status,
            registration_label=registration.get_status_display(),
            url=registration.tournament.get_absolute_url(),
        )
        for registration in registrations
    ]


def my_ratings(player: Player) -> list[MyRating]:
    """The player's rating in each game's people pool, by game id."""
    return [
        MyRating(
            game_id=rating.pool.game_id,
            game_name=game_name(rating.pool.game_id),
            conservative=rating.conservative,
            uncertainty=rating.uncertainty,
            matches=rating.matches,
        )
        for rating in player_ratings(player).filter(pool__kind=RatingPool.Kind.PEOPLE)
    ]


def my_page(user: User) -> MyPage:
    """What a signed-in user's own page shows: their player, its next tables, events and ratings."""
    player = player_of(user)
    if player is None:
        return MyPage(player=None)
    return MyPage(
        player=player, next_tables=next_tables(player), events=my_events(player), ratings=my_ratings(player)
    )
