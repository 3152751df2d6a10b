"""Writes for bot definitions: registering a bot and revising it (a bot that has played gets a new version).
What the workers proved of their sandbox and the programs' logs are written by `league.programs.services`.

Leagues and their rounds are in `league.bots.services.leagues`; the leased work (claim, store, reap) in
`league.bots.services.leases`, and the workers' loop in `league.bots.services.work`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max

from games import registry
from games.core.errors import OptionError, UnknownBot
from games.core.protocol import TIME_BANK_SECONDS as TIME_BANK_DEFAULT
from league.bots.budget import DEFAULT_MEMORY_MB, check_seat_memory
from league.bots.models import BotDefinition
from league.bots.services.ladders import ladders_follow_new_version
from league.core.bounds import Bounds
from league.core.catalogue import game_spec
from league.core.errors import Conflict, ErrorCode, Forbidden, UserError
from league.core.names import check_name, check_text
from league.matches.models import MatchSeat
from league.players.models import Player
from league.players.services import NAME_MAX_LENGTH, player_create, player_update
from league.programs.external import ExternalBotError, resolve_command
from league.programs.sandbox import SandboxRefused
from league.programs.sandboxing import sandbox

MOVE_SECONDS = Bounds(0.01, 600, whole=False)
# An external program's limits per process; its sandbox holds at most SANDBOX_MAX_PROCESSES of them, so the
# whole bot is bounded by that many times memory_mb (docs/bot-protocol.md).
CPU_SECONDS = Bounds(1, 300)
MEMORY_MB = Bounds(64, 2048)
# An external program's time bank per match: answers over the move time draw on it (docs/bot-protocol.md).
TIME_BANK_SECONDS = Bounds(0, 60, whole=False)


@dataclass(frozen=True)
class BotPlan:
    game_id: str
    kind: str
    strategy: str
    params: dict[str, Any]
    command: list[str]
    move_seconds: float
    cpu_seconds: int
    memory_mb: int
    time_bank_seconds: float = TIME_BANK_DEFAULT


def check_bot(
    *,
    game_id: str,
    kind: str,
    strategy: str = "",
    params: Mapping[str, Any] | None = None,
    command: Sequence[str] | str | None = None,
    move_seconds: float = 1.0,
    cpu_seconds: int = 60,
    memory_mb: int = DEFAULT_MEMORY_MB,
    time_bank_seconds: float = TIME_BANK_DEFAULT,
    by: User | None,
) -> BotPlan:
    """Validate a bot definition. Only staff may register external programs (they run on the workers)."""
    spec = game_spec(game_id, field="game")
    if kind not in BotDefinition.Kind.values:
        raise UserError(f"kind must be one of {', '.join(BotDefinition.Kind.values)}", field="kind")
    if params is not None and not isinstance(params, Mapping):
        raise UserError("params must be an object of parameter names and values", field="params")
    move_seconds = float(MOVE_SECONDS.check(move_seconds, "move_seconds"))
    cpu_seconds = CPU_SECONDS.check(cpu_seconds, "cpu_seconds")
    memory_mb = MEMORY_MB.check(memory_mb, "memory_mb")
    bank = float(TIME_BANK_SECONDS.check(time_bank_seconds, "time_bank_seconds"))
    if kind == BotDefinition.Kind.EXTERNAL:
        if by is None or not by.is_staff:
            raise Forbidden(
                "only staff can register external programs: they run on the league's workers", field="kind"
            )
        check_seat_memory(memory_mb=memory_mb)
        if isinstance(command, str):
            command = command.split()
        if not isinstance(command, list | tuple):
            raise UserError("the command is a program followed by its arguments", field="command")
        for part in command:  # NUL would fail the lookup of the program and the JSON column on PostgreSQL
            if isinstance(part, str):
                check_text(part, field="command", max_length=COMMAND_PART_MAX_LENGTH, what="the command")
        try:
            sandbox().bot_folders(resolve_command(list(command)))
        except ExternalBotError as exc:
            raise UserError(f"{exc} (it must exist on every worker)", field="command") from None
        except SandboxRefused as exc:
            raise UserError(str(exc), field="command") from None
        return BotPlan(spec.id, kind, "", {}, list(command), move_seconds, cpu_seconds, memory_mb, bank)
    try:
        cls = registry.bot_class(strategy, spec.id)
        valid = cls.validate_params(params or {})
    except UnknownBot as exc:
        raise UserError(str(exc), field="strategy") from None
    except OptionError as exc:
        raise UserError(str(exc), field="params") from None
    return BotPlan(spec.id, kind, strategy, valid, [], move_seconds, cpu_seconds, memory_mb, bank)


def check_bot_name(name: Any, *, game_id: str, by: User | None) -> str:
    """The cleaned name (`league.core.names.check_name`), or a UserError if it is not a fit name or another
    bot of `by`'s for the game (`game_id`, a registered game's) has it. Other authors' bots, people and this
    author's bots of other games do not block it: a bot's identity is (author, game, name, version)."""
    # A CharField, so its max_length is set.
    cleaned = check_name(
        name, what="a bot", max_length=cast(int, BotDefinition._meta.get_field("name").max_length)
    )
    author_id = by.pk if by is not None else None
    if BotDefinition.objects.filter(created_by_id=author_id, game_id=game_id, name__iexact=cleaned).exists():
        raise UserError(
            f"you already have a bot called {cleaned!r} for this game", field="name", code=ErrorCode.DUPLICATE
        )
    return cleaned


UNOWNED_AUTHOR = "the league"
AUTHOR_SEPARATOR = " by "


def author_name(user: User | None) -> str:
    """How pages name a bot's author: the name of their person on the site, else their username; bots that
    nobody owns (staff's built-ins) are the league's."""
    if user is None:
        return UNOWNED_AUTHOR
    person = Player.objects.filter(user=user).values_list("name", flat=True).first()
    return person or user.get_username()


def bot_player_name(*, name: str, version: int, author: str | None) -> str:
    """A bot version's player name: its label ("Hen Pecker", "Hen Pecker v3"), and "by <author>" when
    another author's bot shares its name; the author is shortened to fit the player's name."""
    label = name if version == 1 else f"{name} v{version}"
    if author is None:
        return label
    room = NAME_MAX_LENGTH - len(label) - len(AUTHOR_SEPARATOR)
    shown = author if len(author) <= room else author[: max(room - 1, 1)] + "…"
    return f"{label}{AUTHOR_SEPARATOR}{shown}"


def bot_player_create(*, name: str, version: int, author: User | None) -> Player:
    """The player of a new version of the bot `name` by `author`. Where another author's bot (of any game)
    has the same name, every version of each of them is named with its author ("Hen Pecker by Ada"), so
    that pages, standings and the API tell them apart. Call inside the transaction creating the version."""
    author_id = author.pk if author is not None else None
    namesakes = list(
        BotDefinition.objects.filter(name__iexact=name).select_related("player", "created_by").order_by("pk")
    )
    shared = any(bot.created_by_id != author_id for bot in namesakes)
    player = player_create(
        name=bot_player_name(name=name, version=version, author=author_name(author) if shared else None),
        kind=Player.Kind.BOT,
    )
    if shared:
        authors: dict[int | None, str] = {}
        for bot in namesakes:
            if bot.created_by_id not in authors:
                authors[bot.created_by_id] = author_name(bot.created_by)
            wanted = bot_player_name(name=bot.name, version=bot.version, author=authors[bot.created_by_id])
            if bot.player.name != wanted:
                player_update(player=bot.player, name=wanted)
    return player


DESCRIPTION_MAX_LENGTH = 5000
COMMAND_PART_MAX_LENGTH = 4096


def check_bot_description(description: Any) -> str:
    """A bot's description as stored (`check_text`), or a UserError on `description`."""
    return check_text(description, field="description", max_length=DESCRIPTION_MAX_LENGTH)


def bot_register(*, name: str, description: str = "", by: User | None, **definition: Any) -> BotDefinition:
    """Register version 1 of a bot (and its player). `definition` is what `check_bot` takes."""
    plan = check_bot(by=by, **definition)
    cleaned = check_bot_name(name, game_id=plan.game_id, by=by)
    description = check_bot_description(description)
    with transaction.atomic():
        player = bot_player_create(name=cleaned, version=1, author=by)
        return BotDefinition.objects.create(
            name=cleaned,
            version=1,
            player=player,
            description=description,
            created_by=by,
            **_plan_fields(plan),
        )


def _plan_fields(plan: BotPlan) -> dict[str, Any]:
    return {
        "game_id": plan.game_id,
        "kind": plan.kind,
        "strategy": plan.strategy,
        "params": plan.params,
        "command": plan.command,
        "move_seconds": plan.move_seconds,
        "cpu_seconds": plan.cpu_seconds,
        "memory_mb": plan.memory_mb,
        "time_bank_seconds": plan.time_bank_seconds,
    }


def bot_has_played(bot: BotDefinition) -> bool:
    """Whether this version has taken a seat (scheduled or played): from then on it is immutable."""
    return MatchSeat.objects.filter(player_id=bot.player_id).exists()


def bot_revise(*, bot: BotDefinition, by: User | None, **changes: Any) -> BotDefinition:
    """Change a bot: in place while it has never taken a seat, else as a new version (a new player).

    `changes` are fields of `check_bot` (kind, strategy, params, command, limits) and `description`.
    An uploaded program changes only by an upload of its next version (`league.bots.uploads`).
    """
    if bot.is_uploaded:
        raise Conflict("an uploaded bot changes only by uploading its next version", field="changes")
    description = check_bot_description(changes.pop("description", bot.description))
    current = {
        "game_id": bot.game_id,
        "kind": bot.kind,
        "strategy": bot.strategy,
        "params": bot.params,
        "command": bot.command,
        "move_seconds": bot.move_seconds,
        "cpu_seconds": bot.cpu_seconds,
        "memory_mb": bot.memory_mb,
        "time_bank_seconds": bot.time_bank_seconds,
    }
    unknown = sorted(set(changes) - set(current) - {"game_id"})
    if unknown or "game_id" in changes:
        raise UserError(f"these cannot be changed: {', '.join(unknown or ['game_id'])}", field="changes")
    plan = check_bot(by=by, **{**current, **changes})
    with transaction.atomic():
        locked = BotDefinition.objects.select_for_update().get(pk=bot.pk)
        if not bot_has_played(locked):
            for field, value in {**_plan_fields(plan), "description": description}.items():
                setattr(locked, field, value)
            locked.save(update_fields=[*_plan_fields(plan), "description"])
            return locked
        version = BotDefinition.objects.filter(**bot.line).aggregate(v=Max("version"))["v"] + 1
        player = bot_player_create(name=bot.name, version=version, author=locked.created_by)
        revised = BotDefinition.objects.create(
            name=bot.name,
            version=version,
            player=player,
            previous=locked,
            description=description,
            created_by=by,
            **_plan_fields(plan),
        )
        ladders_follow_new_version(bot=revised)  # it replaces its predecessor in the ladders
        return revised
