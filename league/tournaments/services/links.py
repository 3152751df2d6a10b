"""Registrations' private links and the venue's declared address.

- `private_link_issue`: an organizer issues a registration's private link, or reissues it (the old token
  dies at once): a 128-bit random token (`secrets`), of which only the SHA-256 is stored; the token is
  returned once, to be handed to its holder alone.
- `private_link_revoke`: an organizer stops a link (until it is reissued).
- `private_link_email`: the holder leaves (or clears) an email address, to be told when their table is out.
- `private_link_attach`: the holder, signed in to an account they made, attaches the registration's player
  to it: the claim rules (`league.players.services.player_claim`: a person without an account, an account
  without a player; never a merge).
- `venue_address_set`: an organizer declares the address the venue's phones share on the event day (their
  own, or clears it); once site staff approve it, the per-address limits count per account and per private
  link there instead (`league.tournaments.venues`).
"""

from __future__ import annotations

import ipaddress
import secrets
from dataclasses import dataclass
from datetime import date
from typing import Any, cast

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone

from league.core.checks import is_int
from league.core.errors import Forbidden, NotFound, UserError
from league.players.models import Player
from league.players.services import player_claim
from league.tournaments.link_selectors import link_digest
from league.tournaments.models import PrivateLink, Registration, Tournament
from league.tournaments.services.audit import Action, audit
from league.tournaments.services.common import check_organizer, tournament_locked

TOKEN_BYTES = 16  # 128 bits
EMAIL_MAX_LENGTH = 254


@dataclass(frozen=True)
class IssuedPrivateLink:
    link: PrivateLink
    token: str  # shown once, to the organizer who issued it; only its hash is stored
    reissued: bool


def _registration(tournament: Tournament, player_id: Any) -> Registration:
    registration = (
        Registration.objects.select_related("player")
        .filter(tournament=tournament, player_id=player_id)
        .first()
        if is_int(player_id)
        else None
    )
    if registration is None:
        raise NotFound(f"no player {player_id} is registered in this tournament")
    return registration


def private_link_issue(
    *, tournament: Tournament, player_id: Any, by: User | AnonymousUser
) -> IssuedPrivateLink:
    """Issue (or reissue: the old token stops working) the private link of `player_id`'s registration in
    `tournament`. 403 for anyone but its organizers, 404 for a player not registered there, 400 for a bot."""
    check_organizer(user=by, tournament=tournament)
    registration = _registration(tournament, player_id)
    if registration.player.kind != Player.Kind.PERSON:
        raise UserError(f"{registration.player.name} is a bot: private links are for people", field="player")
    token = secrets.token_urlsafe(TOKEN_BYTES)
    with transaction.atomic():
        tournament_locked(tournament)
        fields = {
            "token_hash": link_digest(token),
            "issued_at": timezone.now(),
            "issued_by": by if by.is_authenticated else None,
            "revoked_at": None,
        }
        link, created = PrivateLink.objects.update_or_create(registration=registration, defaults=fields)
        audit(tournament, by, Action.LINK_ISSUED, player=registration.player.name, reissued=not created)
    link.registration = registration
    return IssuedPrivateLink(link=link, token=token, reissued=not created)


def private_link_revoke(*, tournament: Tournament, player_id: Any, by: User | AnonymousUser) -> PrivateLink:
    """Stop the private link of `player_id`'s registration (it answers as unknown from now on; reissuing
    makes a new one). 403 for anyone but its organizers, 404 when the registration has no link."""
    check_organizer(user=by, tournament=tournament)
    registration = _registration(tournament, player_id)
    with transaction.atomic():
        link = PrivateLink.objects.select_for_update().filter(registration=registration).first()
        if link is None:
            raise NotFound(f"{registration.player.name} has no private link")
        if link.revoked_at is None:
            link.revoked_at = timezone.now()
            link.save(update_fields=["revoked_at"])
            audit(tournament, by, Action.LINK_REVOKED, player=registration.player.name)
    link.registration = registration
    return link


def private_link_email(*, link: PrivateLink, email: Any) -> PrivateLink:
    """Set the address the holder of `link` (a live link) is told at when their table is out; "" clears
    it. 400 for anything but an email address."""
    if not isinstance(email, str) or len(email) > EMAIL_MAX_LENGTH:
        raise UserError(f"give an email address of at most {EMAIL_MAX_LENGTH} characters", field="email")
    email = email.strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise UserError("that is not an email address", field="email") from None
    link.email = email
    link.save(update_fields=["email"])
    return link


def private_link_attach(*, link: PrivateLink, user: User | AnonymousUser) -> Player:
    """Give the signed-in `user` (an account without a player) the player of `link`'s registration, by the
    claim rules; the link keeps working. 403 when not signed in, 409 when either side is taken."""
    if not user.is_authenticated:
        raise Forbidden("sign in (or make an account) first, then attach your player to it")
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        player = Player.objects.select_for_update().get(pk=link.registration.player_id)
        return player_claim(player=player, user=user)


def venue_address_set(
    *,
    tournament: Tournament,
    by: User | AnonymousUser,
    address: Any,
    day: Any,
    client: str | None,
) -> Tournament:
    """Declare `address` (an IP address) the venue's on `day` (a date, the event day in the tournament's
    zone), or clear it with both empty. 403 for anyone but its organizers, 400 for a bad address or day.

    An organizer declares only the address they connect from (`client`: they stand in the venue, on its
    network), and the declaration waits for site staff's approval before it lifts any limit: otherwise anyone
    could make an event and lift the site's limits per address (failed log-ins over every account, sign-ups,
    private links) for any address, their own included. Site staff may declare any address, approved at once;
    a staff member saving an organizer's declaration unchanged approves it."""
    check_organizer(user=by, tournament=tournament)
    staff = bool(getattr(by, "is_staff", False))
    if address in (None, "") and day in (None, ""):
        address, day = None, None
    else:
        try:
            address = str(ipaddress.ip_address(str(address).strip()))
        except ValueError:
            raise UserError(
                "the venue's address is an IP address, e.g. 203.0.113.7", field="venue_address"
            ) from None
        if not isinstance(day, date):
            raise UserError("give the event day the venue address holds", field="venue_day")
        if not staff and address != client:
            yours = f"this device connects from {client}" if client else "this device's address is unknown"
            raise UserError(
                f"declare the address you connect from at the venue, on its network ({yours}); "
                "site staff can declare another",
                field="venue_address",
            )
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        unchanged = (tournament.venue_address, tournament.venue_day) == (address, day)
        tournament.venue_address, tournament.venue_day = address, day
        if address is None:
            tournament.venue_approved_at, tournament.venue_approved_by = None, None
        elif staff:
            tournament.venue_approved_at, tournament.venue_approved_by = timezone.now(), cast(User, by)
        elif not unchanged:
            tournament.venue_approved_at, tournament.venue_approved_by = None, None
        tournament.save(
            update_fields=["venue_address", "venue_day", "venue_approved_at", "venue_approved_by"]
        )
        audit(tournament, by, Action.VENUE_ADDRESS_SET, address=address, day=day.isoformat() if day else None)
        if address is not None and staff:
            audit(tournament, by, Action.VENUE_ADDRESS_APPROVED, address=address, day=day.isoformat())
    return tournament


def venue_address_approve(*, tournament: Tournament, by: User | AnonymousUser) -> Tournament:
    """Site staff approve the venue address an organizer declared (the admin's action). 403 for anyone but
    staff, 400 when none is declared."""
    if not getattr(by, "is_staff", False):
        raise Forbidden("only site staff approve a venue's address")
    if tournament.venue_address is None or tournament.venue_day is None:
        raise UserError("no venue address is declared", field="venue_address")
    return venue_address_set(
        tournament=tournament,
        by=by,
        address=tournament.venue_address,
        day=tournament.venue_day,
        client=None,
    )
