"""Writes for players. Each function validates first and raises UserError with a clear message."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from league.core.errors import Conflict, ErrorCode, UserError
from league.core.names import check_name, name_key, search_key
from league.core.slugs import free_slug
from league.players.models import Player

NAME_MAX_LENGTH = cast(int, Player._meta.get_field("name").max_length)  # a CharField: always set
SLUG_LENGTH = 80  # of the slug column's 90, leaving room for a -N suffix


def clean_player_name(name: object) -> str:
    """`name` as a player's name is stored (`league.core.names.check_name`), or a UserError."""
    return check_name(name, what="a player", max_length=NAME_MAX_LENGTH)


def check_player_name(name: object, *, exclude_id: int | None = None, kind: str = Player.Kind.PERSON) -> str:
    """The cleaned name (`clean_player_name`), or a UserError if it is not a fit name or, for a person,
    another person has it. A bot's name is checked against nobody's here: its identity is its definition's
    (author, game, name, version), which `league.bots` keeps unique."""
    cleaned = clean_player_name(name)
    if kind != Player.Kind.PERSON:
        return cleaned
    taken = Player.objects.filter(kind=Player.Kind.PERSON, name_key=name_key(cleaned))
    if exclude_id is not None:
        taken = taken.exclude(pk=exclude_id)
    if taken.exists():
        raise UserError(
            f"there is already a player called {cleaned!r}", field="name", code=ErrorCode.DUPLICATE
        )
    return cleaned


def player_search_key(player: Player) -> str:
    """The search key of `player` as it stands: its name and its account's user name folded."""
    return search_key(player.name, player.user.get_username() if player.user is not None else None)


def player_by_name(name: object) -> Player | None:
    """The person of this name, ignoring case in any script (`name_key`), or None; a UserError for a name
    that is no fit name. Bots are never found by name: several authors' bots may share one."""
    return Player.objects.filter(kind=Player.Kind.PERSON, name_key=name_key(clean_player_name(name))).first()


def _free_slug(name: str, exclude_id: int | None) -> str:
    return free_slug(
        name, rows=Player.objects.all(), length=SLUG_LENGTH, fallback="player", exclude_id=exclude_id
    )


def player_create(
    *, name: str, kind: str = Player.Kind.PERSON, user: User | None = None, active: bool = True
) -> Player:
    """Create a player with a slug derived from its name; a person's name is unique among people (ignoring
    case)."""
    if kind not in Player.Kind.values:
        raise UserError(f"kind must be one of {', '.join(Player.Kind.values)}", field="kind")
    cleaned = check_player_name(name, kind=kind)
    if user is not None and Player.objects.filter(user=user).exists():
        raise UserError("that account already belongs to a player", field="user")
    try:
        with transaction.atomic():
            return Player.objects.create(
                name=cleaned,
                name_key=name_key(cleaned),
                search_key=search_key(cleaned, user.get_username() if user is not None else None),
                slug=_free_slug(cleaned, None),
                kind=kind,
                user=user,
                active=active,
            )
    except IntegrityError:  # a concurrent create took the name between the check and the insert
        raise UserError(
            f"there is already a player called {cleaned!r}", field="name", code=ErrorCode.DUPLICATE
        ) from None


# What the apps above keep from a player's name, told of a rename inside its transaction: each is called
# with the player's id (the tournaments app bumps the public version of the events the player entered). The
# players app sits below them and cannot call them; each registers itself when its app is ready.
RENAME_HOOKS: list[Callable[[int], None]] = []


def player_update(*, player: Player, name: str | None = None, active: bool | None = None) -> Player:
    """Rename a player (the slug follows) and/or change the active flag; a rename is told to the apps that
    registered in `RENAME_HOOKS`, in the same transaction."""
    fields = []
    if name is not None:
        cleaned = check_player_name(name, exclude_id=player.pk, kind=player.kind)
        if cleaned != player.name:
            player.name = cleaned
            player.name_key = name_key(cleaned)
            player.search_key = player_search_key(player)
            player.slug = _free_slug(cleaned, player.pk)
            fields += ["name", "name_key", "search_key", "slug"]
    if active is not None:
        if not isinstance(active, bool):
            raise UserError("active must be true or false", field="active")
        player.active = active
        fields.append("active")
    if fields:
        try:
            with transaction.atomic():
                player.save(update_fields=fields)
                if "name" in fields:
                    for hook in RENAME_HOOKS:
                        hook(player.pk)
        except IntegrityError:
            raise UserError(f"there is already a player called {player.name!r}", field="name") from None
    return player


def player_claim(*, player: Player, user: User) -> Player:
    """Link an unclaimed person-player to `user`, an account without a player; never merges two players.

    Call inside a transaction that holds `player`'s row lock (select_for_update): the checks and the link are
    then one step, and the database's one-player-per-account constraint settles a race between two players.
    """
    if player.kind != Player.Kind.PERSON:
        raise UserError(f"{player.name} is a bot: only people can be claimed", field="player")
    if player.user_id is not None:
        raise Conflict(f"{player.name} already belongs to an account")
    if Player.objects.filter(user=user).exists():
        raise Conflict("that account already has a player: an account owns one player")
    player.user = user
    player.search_key = player_search_key(player)
    try:
        with transaction.atomic():
            player.save(update_fields=["user", "search_key"])
    except IntegrityError:  # a concurrent claim or create gave this account a player meanwhile
        raise Conflict("that account already has a player: an account owns one player") from None
    return player


def former_player_name(player: Player) -> str:
    """The name a player takes when its owner deletes their account and asks to be forgotten:
    "former player N" with N the player's id (or the first free "former player N-k" should it be taken)."""
    base = f"former player {player.pk}"
    candidate, suffix = base, 1
    people = Player.objects.filter(kind=Player.Kind.PERSON)
    while people.filter(name_key=name_key(candidate)).exclude(pk=player.pk).exists():
        suffix += 1
        candidate = f"{base}-{suffix}"
    return candidate


def player_release(*, player: Player, forget_name: bool = False) -> Player:
    """Unlink a player from its account (the account is being deleted); its seats and results stay. With
    `forget_name` it is renamed to `former_player_name` (through the same name checks as any rename)."""
    if forget_name:
        player_update(player=player, name=former_player_name(player))
    player.user = None
    player.search_key = player_search_key(player)
    player.save(update_fields=["user", "search_key"])
    return player
