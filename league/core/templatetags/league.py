"""Template filters of the league pages: game names, and plain words for internal terms
(`league.core.words`)."""

from typing import Any

from django import template

from league.core import words
from league.core.catalogue import game_name as catalogue_game_name

register = template.Library()


@register.filter
def game_name(game_id: str) -> str:
    """A game's display name from the registry (the id itself for a game no longer registered)."""
    return catalogue_game_name(game_id)


@register.filter
def rating_model(model_name: str) -> str:
    """`{{ pool.model_name|rating_model }}`: how the pool rates, in a sentence."""
    return words.rating_model_words(model_name)


@register.filter
def end_reason(reason: str | None) -> str:
    """`{{ record.end.reason|end_reason }}`: how a recorded match ended."""
    return words.end_words(reason)


@register.filter
def protocol_seat(seat: int) -> str:
    """`{{ seat|protocol_seat }}` for a 0-based seat as authors read it: "seat 1 (protocol seat 0)". Pages
    number seats from 1; the bot protocol, the API and records from 0."""
    return words.protocol_seat_words(seat)


@register.filter
def bot_plays(bot: Any) -> str:
    """`{{ bot|bot_plays }}`: how a bot definition plays ("Search bot, 25 iterations a move")."""
    return words.bot_play_words(bot.strategy, bot.params, external=bot.is_external)


@register.filter
def exact_terms(params: dict | None) -> str:
    """`{{ bot.params|exact_terms }}`: stored settings as `key=value` (for a <details> element)."""
    return words.exact_terms(params)


@register.filter
def option_words(match: Any) -> list[str]:
    """`{{ match|option_words }}`: the match's variant options that differ from the standard rules."""
    return words.option_words(match.game_id, match.options)
