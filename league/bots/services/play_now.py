"""'Play this bot now': from any bot's page, a signed-in author pits one of their ready bots of that game
against it in an unrated challenge.

It is a challenge like any other (`league.bots.services.challenges.challenge_create`): private to its
challenger, the authors of the bots seated and staff; capped at `OPEN_PER_USER` unfinished challenges per
user; played in the challenges' share of the workers. A game whose smallest table is larger than two
(Nobody but Us Chickens seats three) fills the other seats with the game's built-in strategies that the
league or its staff registered (latest versions, lowest id first), so that every match seats the same table.

Refusals: the bot is not the user's (staff may use any), plays another game, is not ready, has a newer
version; the opponent is not ready or has a newer version; no built-in bots to fill a larger table.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q

from league.bots.models import BotDefinition, Challenge
from league.bots.selectors import current_versions
from league.bots.services.challenges import challenge_create
from league.bots.services.leagues import not_ready_message, retired
from league.core.catalogue import game_name, game_spec
from league.core.checks import is_int
from league.core.errors import Forbidden, NotFound, UserError

MATCHES_DEFAULT = 10


def table_fillers(game_id: str, *, apart: set[int], seats: int) -> list[BotDefinition]:
    """The built-in bots that fill a table of the game beyond two seats: `seats` of the current versions of
    the game's built-in strategies registered by the league or staff, none of `apart` (ids), lowest id first
    (empty if there are not enough)."""
    if seats <= 0:
        return []
    fillers = list(
        current_versions()
        .filter(Q(created_by__isnull=True) | Q(created_by__is_staff=True))
        .filter(game_id=game_id, kind=BotDefinition.Kind.BUILTIN)
        .exclude(pk__in=apart)
        .order_by("pk")[:seats]
    )
    return fillers if len(fillers) == seats else []


def play_now(
    *,
    opponent_id: int,
    bot_id: int,
    by: User | AnonymousUser | None,
    matches: int = MATCHES_DEFAULT,
    seed: int | None = None,
) -> Challenge:
    """Queue a challenge of `matches` unrated matches: the user's bot `bot_id` against bot `opponent_id`."""
    if by is None or not by.is_authenticated:
        raise Forbidden("sign in to play your bot against this one")
    opponent = BotDefinition.objects.filter(pk=opponent_id).first() if is_int(opponent_id) else None
    if opponent is None:
        raise NotFound(f"no bot with id {opponent_id}")
    bot = BotDefinition.objects.filter(pk=bot_id).first() if is_int(bot_id) else None
    if bot is None or not (by.is_staff or bot.created_by_id == by.pk):
        raise UserError("choose one of your bots", field="bot")
    if bot.pk == opponent.pk:
        raise UserError(f"{bot.label} cannot play itself: choose another of your bots", field="bot")
    if bot.game_id != opponent.game_id:
        raise UserError(
            f"{bot.label} plays {game_name(bot.game_id)}, {opponent.label} {game_name(opponent.game_id)}: "
            "choose a bot of the same game",
            field="bot",
        )
    if not bot.is_ready:
        raise UserError(not_ready_message([bot]), field="bot")
    if retired(bot):
        raise UserError(f"{bot.label} has a newer version: play with that one", field="bot")
    if not opponent.is_ready:
        raise UserError(not_ready_message([opponent]), field="opponent")
    if retired(opponent):
        raise UserError(f"{opponent.label} has a newer version: play against that one", field="opponent")
    spec = game_spec(bot.game_id)
    smallest = spec.players_allowed(spec.validate_options({}))[0]
    extra = max(smallest - 2, 0)
    fillers = table_fillers(bot.game_id, apart={bot.pk, opponent.pk}, seats=extra)
    if extra and not fillers:
        raise UserError(
            f"{spec.name} seats at least {smallest}, and there are not enough built-in bots to fill "
            "the table: challenge with more opponents instead",
            field="opponent",
        )
    return challenge_create(
        bot_id=bot.pk,
        opponent_ids=[opponent.pk, *(filler.pk for filler in fillers)],
        matches=matches,
        by=by,
        seed=seed,
    )
