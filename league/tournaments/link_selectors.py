"""Reads of registrations' private links: the live link behind a token, how long a tournament's links work,
who at a table can confirm through one, and the holder's table.

A link is live while it is not revoked and its tournament has not ended more than
`PRIVATE_LINK_DAYS_AFTER_END` days ago (its end: when it last became finished). Tokens are looked up by their
SHA-256 only; an unknown, reissued, revoked or expired token all read as no link, so the answer says nothing
about which links exist.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from league.tournaments.formats import table_cut
from league.tournaments.models import AuditEntry, PrivateLink, Registration, Round, Table, Tournament

# A token is 16 random bytes (128 bits) in URL-safe base64: 22 characters.
TOKEN_LENGTH = 22


def link_digest(token: str) -> str:
    """The stored form of a private link's token: its SHA-256 in hex (128 random bits: a plain hash
    suffices)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def links_work_until(tournament: Tournament) -> datetime | None:
    """When the tournament's private links stop working: its end plus PRIVATE_LINK_DAYS_AFTER_END days;
    None while it has not ended."""
    if tournament.status != Tournament.Status.FINISHED:
        return None
    ended = (
        AuditEntry.objects.filter(tournament=tournament, action=AuditEntry.Action.FINISHED)
        .order_by("-at", "-id")
        .values_list("at", flat=True)
        .first()
    )
    if ended is None:  # finished without a record (set by hand): the links end with it
        return timezone.now()
    return ended + timedelta(days=settings.PRIVATE_LINK_DAYS_AFTER_END)


def live_link(token: object) -> PrivateLink | None:
    """The live private link whose token this is, with its registration, player and tournament; None for
    anything else (malformed, unknown, reissued, revoked, expired)."""
    if not isinstance(token, str) or len(token) != TOKEN_LENGTH:
        return None
    link = (
        PrivateLink.objects.select_related("registration__player", "registration__tournament")
        .filter(token_hash=link_digest(token), revoked_at__isnull=True)
        .first()
    )
    if link is None:
        return None
    until = links_work_until(link.registration.tournament)
    if until is not None and timezone.now() >= until:
        return None
    return link


def linked_players(tournament: Tournament, player_ids: Iterable[int]) -> set[int]:
    """Those of `player_ids` whose registration in `tournament` has a private link that is not revoked."""
    ids = list(player_ids)
    if not ids:
        return set()
    return set(
        PrivateLink.objects.filter(
            registration__tournament=tournament, registration__player_id__in=ids, revoked_at__isnull=True
        ).values_list("registration__player_id", flat=True)
    )


def holder_table(link: PrivateLink) -> Table | None:
    """The holder's table in the current round (the latest that is not a draft): the first by number where
    they sit (a table reset by a correction does not count); None when they have none there."""
    registration = link.registration
    current = (
        Round.objects.filter(tournament_id=registration.tournament_id)
        .exclude(status=Round.Status.DRAFT)
        .order_by("-number")
        .first()
    )
    if current is None:
        return None
    return (
        Table.objects.select_related("round__tournament", "match")
        .filter(round=current, match__seats__player_id=registration.player_id)
        .exclude(closed_as=Table.Closed.RESET)
        .order_by("number")
        .first()
    )


def no_table_reason(link: PrivateLink) -> str:
    """Why the holder has no table in the current round, in the holder's words (their page says it where the
    table would be): the event is over, they left it, no round is out yet, a bye, a sit-out, a place in the
    bracket's next round without playing, a bracket round (still in it or out), or simply not yet."""
    registration = link.registration
    tournament = registration.tournament
    if tournament.status == Tournament.Status.FINISHED:
        return "The event is over: there are no more tables. Your place is on the event's standings."
    if registration.status != Registration.Status.ACTIVE:
        return f"You are no longer playing in this event ({registration.get_status_display().lower()})."
    current = (
        Round.objects.filter(tournament_id=registration.tournament_id)
        .exclude(status=Round.Status.DRAFT)
        .order_by("-number")
        .first()
    )
    mail = ": we mail you when your table is out" if link.email else ""
    if current is None:
        return f"No round is out yet. Look here again when the organizers publish the first round{mail}."
    player = registration.player_id
    if player in current.byes:
        return f"You have a bye in round {current.number}: it scores as a win. No table for you this round."
    if player in current.sat_out or any(entry[0] == player for entry in current.requested_byes):
        return f"You sit out round {current.number}, as you asked. No table for you this round."
    if player in current.advanced:
        return f"You go through round {current.number} without playing. No table for you this round."
    if table_cut(tournament, current.number, "") is not None:
        return (
            f"You have no table in round {current.number}. If you are still in the bracket, your next table "
            f"comes as soon as your opponents are known{mail}; if you are out, your place is on the event's "
            "standings."
        )
    return (
        f"You have no table in round {current.number}. Look here again when the organizers publish the next "
        f"round{mail}."
    )


def links_of(tournament: Tournament) -> dict[int, PrivateLink]:
    """Registration id → its private link, for the tournament's registrations that have one."""
    return {
        link.registration_id: link for link in PrivateLink.objects.filter(registration__tournament=tournament)
    }
