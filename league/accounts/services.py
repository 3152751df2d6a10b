"""Writes for accounts: sign-up, account deletion, API tokens, a user's own player and claim links.

Sign-up happens in two steps, so that its answer never says whether an address has an account.
`sign_up_request` checks the form's fields and mails the address: a link that finishes the sign-up, or, when
the address has an account already, a note saying so with a link that sets a new password. The page answers
the same either way. The pending sign-up (username, address, the password's hash, never the password;
`next`) is stored as a `PendingSignUp` with the SHA-256 of a random token (`secrets`), and the link carries
only that token, so nothing of the account lands in the access logs of the web server or a proxy. The link
works for `SIGN_UP_LINK_SECONDS`, once: `sign_up_complete` creates the account from it and deletes the row.
An expired row is refused (409) and deleted a further SIGN_UP_LINK_SECONDS later, when a sign-up is
requested; until then its link says it expired rather than that it is broken.

Each function checks first (raising a `UserError`: 400 bad input, 403 not allowed, 404 no such object, 409 a
state that refuses the request) and only then writes. Users are Django's own; passwords go through Django's
hashers and validators, API tokens are DRF's (`rest_framework.authtoken`), claim-link tokens come from
`secrets` and only their hash is stored.

Deleting an account keeps the row of the user, anonymized: its username becomes "deleted user N", its email,
names and password go, it can no longer log in and holds no staff rights, tokens or webhooks (deleted with
their deliveries: they send to a URL of the account's choosing, signed with its secret). The row stays so that
what points at it stays sane: results it entered still say they were entered by someone (a deleted user, not
the system), tournaments it created or organizes keep a creator. Its player stays, with its seats and
results, unlinked (and renamed "former player N" when the user asks).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.tokens import default_token_generator
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from rest_framework.authtoken.models import Token

from league.accounts import throttling
from league.accounts.models import ClaimLink, PendingSignUp, TokenExpiry
from league.accounts.selectors import (
    claim_link_for_token,
    email_taken,
    pending_sign_up_for_token,
    token_digest,
)
from league.core.errors import Conflict, ErrorCode, Forbidden, UserError
from league.notifications.webhooks import owner_webhooks_delete
from league.players.models import Player
from league.players.services import player_claim, player_create, player_release
from league.tournaments.reach import organizes_first_event

USERNAME_MAX_LENGTH = 150
DELETED_USERNAME = "deleted user {pk}"  # a space: no sign-up can take it (the username validator refuses one)
NO_SUCH_CLAIM_LINK = "no such claim link: check that you copied all of it"
BROKEN_SIGN_UP_LINK = "this sign-up link is broken: open it from the mail again (all of it), or sign up again"
CLAIM_LINK_USED = "this claim link has been used already: a claim link works once"


def check_username(username: object) -> str:
    """The username as it is stored, or a UserError: Django's username rule (letters, digits and @.+-_, at
    most 150 characters), and not taken by another account, ignoring case."""
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


def check_email_address(email: object) -> str:
    """The email address as it is stored (normalized), or a UserError when it is no valid address."""
    if not isinstance(email, str) or not email.strip():
        raise UserError(
            "give an email address: password resets are sent there", field="email", code=ErrorCode.REQUIRED
        )
    email = get_user_model().objects.normalize_email(email.strip())
    try:
        validate_email(email)
    except ValidationError:
        raise UserError("enter a valid email address", field="email") from None
    return email


def check_email(email: object) -> str:
    """The email address as it is stored, or a UserError: a valid address that no other account has (ignoring
    case)."""
    email = check_email_address(email)
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


def account_create(*, username: str, email: str, password: str) -> User:
    """A new account (not staff), after Django's checks of each field; usernames and emails unique ignoring
    case."""
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


def sign_up_expires_at(pending: PendingSignUp) -> datetime:
    """When the link of `pending` stops working: SIGN_UP_LINK_SECONDS after it was requested."""
    return pending.created_at + timedelta(seconds=settings.SIGN_UP_LINK_SECONDS)


def check_sign_up_token(token: object, *, lock: bool = False) -> PendingSignUp:
    """The pending sign-up of a sign-up link's token, or a UserError: broken (no pending sign-up has it: cut,
    changed, made up or used already: 400) or older than SIGN_UP_LINK_SECONDS (409). With `lock`, the row is
    locked (call inside a transaction)."""
    if not isinstance(token, str):
        raise UserError(BROKEN_SIGN_UP_LINK, field="token")
    pending = pending_sign_up_for_token(token)
    if pending is not None and lock:
        pending = PendingSignUp.objects.select_for_update().filter(pk=pending.pk).first()
    if pending is None:
        raise UserError(BROKEN_SIGN_UP_LINK, field="token")
    expires = sign_up_expires_at(pending)
    if timezone.now() >= expires:
        when = expires.astimezone(UTC).strftime("%Y-%m-%d %H:%M")
        raise Conflict(f"this sign-up link expired on {when} UTC: sign up again")
    return pending


def sign_up_expired_purge() -> int:
    """Delete the pending sign-ups whose link expired more than SIGN_UP_LINK_SECONDS ago (until then the link
    answers that it expired); how many."""
    cutoff = timezone.now() - timedelta(seconds=2 * settings.SIGN_UP_LINK_SECONDS)
    deleted, _ = PendingSignUp.objects.filter(created_at__lte=cutoff).delete()
    return deleted


def _mail(*, to: str, template: str, context: Mapping[str, object]) -> None:
    subject = render_to_string(f"accounts/{template}_subject.txt", context).strip()
    send_mail(subject, render_to_string(f"accounts/{template}_email.txt", context), None, [to])


def sign_up_request(
    *, username: object, email: object, password: object, site: str, next_url: str = ""
) -> None:
    """Check a sign-up and mail its address: the link that finishes it, or, when an account has the address
    already, a note saying so with a link that sets a new password. Both take the same work (the password is
    hashed either way); only the link's pending sign-up is stored. Beyond SIGN_UP_MAILS_PER_ADDRESS_HOUR mails
    to the address nothing is sent. `site` is the scheme and host of the links (`https://example.org`).

    Raises a UserError for a field at fault (a username that is taken, a password Django's validators
    refuse); whether the address has an account is never one.
    """
    username = check_username(username)
    email = check_email_address(email)
    password = check_password(password, username=username, email=email)
    password_hash = make_password(password)
    existing = get_user_model().objects.filter(email__iexact=email).order_by("pk").first()
    if not throttling.sign_up_mail_allowed(email=email):
        return
    sign_up_expired_purge()  # on both paths, so that they take the same work
    if existing is not None:
        uid = urlsafe_base64_encode(force_bytes(existing.pk))
        reset_token = default_token_generator.make_token(existing)
        reset = reverse("accounts:password-reset-confirm", kwargs={"uidb64": uid, "token": reset_token})
        context: dict[str, object] = {"username": existing.get_username(), "reset_url": f"{site}{reset}"}
        _mail(to=existing.email, template="sign_up_exists", context=context)
        return
    token = secrets.token_urlsafe(32)
    PendingSignUp.objects.create(
        token_hash=token_digest(token),
        username=username,
        email=email,
        password_hash=password_hash,
        next_url=next_url,
        created_at=timezone.now(),
    )
    link = reverse("accounts:signup-confirm", kwargs={"token": token})
    hours = settings.SIGN_UP_LINK_SECONDS // 3600
    context = {"username": username, "url": f"{site}{link}", "hours": hours}
    _mail(to=email, template="sign_up", context=context)


def sign_up_complete(*, token: object) -> tuple[User, str]:
    """Create the account of a sign-up link (see `check_sign_up_token`); the new user and the link's `next`.

    The link works once: its pending sign-up is deleted with the account made (a second follow finds none:
    400, as a broken link). Refused (409) when its username or address got an account meanwhile.
    """
    model = get_user_model()
    try:
        with transaction.atomic():
            pending = check_sign_up_token(token, lock=True)
            name_taken = f"the username {pending.username} was taken meanwhile: sign up again with another"
            taken = model.objects.filter(username__iexact=pending.username).first()
            if taken is not None and taken.email.casefold() == pending.email.casefold():
                raise Conflict(
                    f"this link was used already: the account {taken.get_username()} exists, log in"
                )
            if taken is not None:
                raise Conflict(name_taken)
            if email_taken(pending.email):
                raise Conflict("an account uses this email address already: log in, or reset its password")
            user = model(
                username=model.normalize_username(pending.username),
                email=pending.email,
                password=pending.password_hash,
            )
            user.save()
            pending.delete()
    except IntegrityError:  # a concurrent sign-up of the same username
        raise Conflict(
            f"the username {pending.username} was taken meanwhile: sign up again with another"
        ) from None
    return user, pending.next_url


def account_delete(*, user: User, password: str, forget_name: bool = False) -> None:
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
        owner_webhooks_delete(owner=user)
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


def api_token_create(*, user: User | AnonymousUser, days: object = None) -> IssuedToken:
    """A new API token for `user` (DRF's: `Authorization: Token <key>`), replacing the one they had, that
    expires `days` days from now (one of API_TOKEN_DAYS; API_TOKEN_DEFAULT_DAYS when None); the key is
    returned to be shown once."""
    if not user.is_authenticated or not user.is_active:
        raise Forbidden("log in to create an API token")
    days = check_token_days(days)
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        token = Token.objects.create(user=user)
        expires_at = token.created + timedelta(days=days)
        expiry = TokenExpiry.objects.create(token=token, days=days, expires_at=expires_at)
    return IssuedToken(key=token.key, expires_at=expiry.expires_at)


def api_token_revoke(*, user: User) -> bool:
    """Revoke `user`'s API token; whether there was one."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return bool(deleted)


def _already_has(player: Player) -> Conflict:
    return Conflict(
        f"your account already has a player, {player.name}: an account owns one player, and claims never "
        "merge two"
    )


def my_player_create(*, user: User, name: str) -> Player:
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


def claim_link_issue(*, by: User, player_id: object) -> IssuedClaimLink:
    """A claim link for an unclaimed person-player, by site staff or an organizer who reaches the player (of
    the event the walk-in was first registered in: `league.tournaments.reach`); it works once, for
    `CLAIM_LINK_DAYS` days."""
    if not by.is_authenticated:
        raise Forbidden("log in to issue a claim link")
    player = None
    if isinstance(player_id, int) and not isinstance(player_id, bool):
        player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise UserError("no such player", field="player")
    # `league.tournaments.reach`: the issuer organizes the player's first event, and the player is a walk-in
    if not organizes_first_event(by, player):
        raise Forbidden(
            f"only site staff and the organizers of the event {player.name} was first registered in "
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


def check_claim_link(*, link: ClaimLink, user: User | AnonymousUser) -> None:
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


def claim_redeem(*, user: User | AnonymousUser, token: str) -> Player:
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
