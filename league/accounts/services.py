"""Writes for accounts: sign-up, account deletion, API tokens, a user's own player and claim links.

Each function checks first (raising a `UserError`: 400 bad input, 403 not allowed, 404 no such object, 409 a
state that refuses the request) and only then writes. Users are Django's own; passwords go through Django's
hashers and validators, API tokens are DRF's (`rest_framework.authtoken`), claim-link tokens come from
`secrets` and only their hash is stored.

Deleting an account keeps the row of the user, anonymized: its username becomes "deleted user N", its email,
names and password go, it can no longer log in and holds no staff rights or tokens. The row stays so that
what points at it stays sane: results it entered still say they were entered by someone (a deleted user, not
the system), tournaments it created or organizes keep a creator. Its player stays, with its seats and
results, unlinked (and renamed "former player N" when the user asks).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from league.accounts.models import ClaimLink, TokenExpiry
from league.accounts.selectors import can_issue_claim_link, claim_link_for_token, email_taken, token_digest
from league.core.errors import Conflict, ErrorCode, Forbidden, UserError
from league.players.models import Player
from league.players.services import player_claim, player_create, player_release

USERNAME_MAX_LENGTH = 150
DELETED_USERNAME = "deleted user {pk}"  # a space: no sign-up can take it (the username validator refuses one)
NO_SUCH_CLAIM_LINK = "no such claim link: check that you copied all of it"
CLAIM_LINK_USED = "this claim link has been used already: a claim link works once"


def check_username(username: object) -> str:
    """The username as it is stored, or a UserError: Django's username rule (letters, digits and @.+-_, at most
    150 characters), and not taken by another account, ignoring case."""
    if not isinstance(username, str) or not username.strip():
        raise UserError("choose a username", field="username", code=ErrorCode.REQUIRED)
    username = username.strip()
    if len(username) > USERNAME_MAX_LENGTH:
        raise UserError(f"a username has at most {USERNAME_MAX_LENGTH} characters", field="username")
    try:
        UnicodeUsernameValidator()(username)
    except ValidationError as exc:
        raise UserError(exc.messages[0], field="username") from None
    if get_user_model().objects.filter(username__iexact=username).exists():
        raise UserError("that username is taken: choose another", field="username", code=ErrorCode.DUPLICATE)
    return username


def check_email(email: object) -> str:
    """The email address as it is stored, or a UserError: a valid address that no other account has (ignoring
    case)."""
    if not isinstance(email, str) or not email.strip():
        raise UserError(
            "give an email address: password resets are sent there", field="email", code=ErrorCode.REQUIRED
        )
    email = get_user_model().objects.normalize_email(email.strip())
    try:
        validate_email(email)
    except ValidationError:
        raise UserError("enter a valid email address", field="email") from None
    if email_taken(email):
        raise UserError(
            "another account uses that email address: log in, or reset its password",
            field="email",
            code=ErrorCode.DUPLICATE,
        )
    return email


def check_password(password: object, *, username: str, email: str) -> str:
    """The password, or a UserError with the first complaint of Django's password validators."""
    if not isinstance(password, str) or not password:
        raise UserError("choose a password", field="password", code=ErrorCode.REQUIRED)
    try:
        password_validation.validate_password(password, get_user_model()(username=username, email=email))
    except ValidationError as exc:
        raise UserError(" ".join(exc.messages), field="password") from None
    return password


def account_create(*, username: str, email: str, password: str) -> AbstractBaseUser:
    """A new account (not staff), after Django's checks of each field; usernames and emails unique ignoring case."""
    username = check_username(username)
    email = check_email(email)
    password = check_password(password, username=username, email=email)
    try:
        with transaction.atomic():
            return get_user_model().objects.create_user(username=username, email=email, password=password)
    except IntegrityError:  # a concurrent sign-up took the username between the check and the insert
        raise UserError(
            "that username is taken: choose another", field="username", code=ErrorCode.DUPLICATE
        ) from None


def account_delete(*, user: AbstractBaseUser, password: str, forget_name: bool = False) -> None:
    """Delete `user`'s account after checking their password (see the module docstring for what stays).

    Their sessions end with it: Django's session check compares a hash of the password, which is gone.
    """
    if not isinstance(password, str) or not user.check_password(password):
        raise UserError("that is not your password", field="password")
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().get(pk=user.pk)
        player = Player.objects.select_for_update().filter(user=user).first()
        if player is not None:
            player_release(player=player, forget_name=forget_name)
        Token.objects.filter(user=user).delete()
        user.username = DELETED_USERNAME.format(pk=user.pk)
        user.email = ""
        user.first_name = ""
        user.last_name = ""
        user.is_active = False
        user.is_staff = False
        user.is_superuser = False
        user.set_unusable_password()
        user.save()
        user.groups.clear()
        user.user_permissions.clear()


def check_token_days(days: object) -> int:
    """The lifetime of a new API token in days, or a UserError: one of API_TOKEN_DAYS; None is the default."""
    if days is None:
        return settings.API_TOKEN_DEFAULT_DAYS
    choices = settings.API_TOKEN_DAYS
    if isinstance(days, str) and days.strip().isdigit():
        days = int(days)
    if not isinstance(days, int) or isinstance(days, bool) or days not in choices:
        listed = ", ".join(str(choice) for choice in choices[:-1]) + f" or {choices[-1]}"
        raise UserError(f"an API token lasts {listed} days", field="days")
    return days


@dataclass(frozen=True)
class IssuedToken:
    key: str  # shown once, to its owner
    expires_at: datetime


def api_token_create(*, user: AbstractBaseUser, days: object = None) -> IssuedToken:
    """A new API token for `user` (DRF's: `Authorization: Token <key>`), replacing the one they had, that
    expires `days` days from now (one of API_TOKEN_DAYS; API_TOKEN_DEFAULT_DAYS when None); the key is returned
    to be shown once."""
    if not user.is_authenticated or not user.is_active:
        raise Forbidden("log in to create an API token")
    days = check_token_days(days)
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        token = Token.objects.create(user=user)
        expiry = TokenExpiry.objects.create(token=token, days=days, expires_at=token.created + timedelta(days=days))
    return IssuedToken(key=token.key, expires_at=expiry.expires_at)


def api_token_revoke(*, user: AbstractBaseUser) -> bool:
    """Revoke `user`'s API token; whether there was one."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return bool(deleted)


def _already_has(player: Player) -> Conflict:
    return Conflict(
        f"your account already has a player, {player.name}: an account owns one player, and claims never merge two"
    )


def my_player_create(*, user: AbstractBaseUser, name: str) -> Player:
    """Create the signed-in user's own person-player (a name as any player's: unique, through check_name)."""
    if not user.is_authenticated:
        raise Forbidden("log in to create your player")
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(
            pk=user.pk
        ).first()  # one create per account at once
        existing = Player.objects.filter(user=user).first()
        if existing is not None:
            raise _already_has(existing)
        return player_create(name=name, user=user)


@dataclass(frozen=True)
class IssuedClaimLink:
    link: ClaimLink
    token: str  # shown once, to the issuer; only its hash is stored


def claim_link_issue(*, by: AbstractBaseUser, player_id: object) -> IssuedClaimLink:
    """A claim link for an unclaimed person-player, by site staff or an organizer of a tournament the player
    is registered in; it works once, for `CLAIM_LINK_DAYS` days."""
    if not by.is_authenticated:
        raise Forbidden("log in to issue a claim link")
    player = None
    if isinstance(player_id, int) and not isinstance(player_id, bool):
        player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise UserError("no such player", field="player")
    if not can_issue_claim_link(by, player):
        raise Forbidden(
            f"only site staff and the organizers of a tournament {player.name} is registered in "
            "can issue a claim link for them"
        )
    if player.kind != Player.Kind.PERSON:
        raise UserError(f"{player.name} is a bot: only people can be claimed", field="player")
    if player.user_id is not None:
        raise Conflict(f"{player.name} already belongs to an account")
    token = secrets.token_urlsafe(32)
    now = timezone.now()
    link = ClaimLink.objects.create(
        token_hash=token_digest(token),
        player=player,
        issued_by=by,
        created_at=now,
        expires_at=now + timedelta(days=settings.CLAIM_LINK_DAYS),
    )
    return IssuedClaimLink(link=link, token=token)


def check_claim_link(*, link: ClaimLink, user: AbstractBaseUser) -> None:
    """Refuse (with the reason) a claim of `link` by `user`: used, expired, the user has a player, the player
    is a bot or belongs to an account already."""
    if link.used_at is not None:
        raise Conflict(CLAIM_LINK_USED)
    if link.expires_at <= timezone.now():
        when = link.expires_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M")
        raise Conflict(f"this claim link expired on {when} UTC: ask an organizer for a new one")
    existing = Player.objects.filter(user=user).first() if user.is_authenticated else None
    if existing is not None:
        raise _already_has(existing)
    player = link.player
    if player.kind != Player.Kind.PERSON:
        raise UserError(f"{player.name} is a bot: only people can be claimed", field="token")
    if player.user_id is not None:
        raise Conflict(f"{player.name} already belongs to an account")


def claim_redeem(*, user: AbstractBaseUser, token: str) -> Player:
    """Give the signed-in `user`, who has no player, the player of the claim link whose token this is; the
    link is used up. Never merges two players."""
    if not user.is_authenticated:
        raise Forbidden("log in to claim a player")
    found = claim_link_for_token(token)
    if found is None:
        raise UserError(NO_SUCH_CLAIM_LINK, field="token")
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        link = ClaimLink.objects.select_for_update().get(pk=found.pk)
        link.player = Player.objects.select_for_update().get(pk=link.player_id)
        check_claim_link(link=link, user=user)
        player = player_claim(player=link.player, user=user)
        link.used_at = timezone.now()
        link.used_by = user
        link.save(update_fields=["used_at", "used_by"])
    return player
