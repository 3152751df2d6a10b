"""Plain words for the internal terms a page would otherwise show a visitor.

Rating models, how a bot plays, how a recorded match ended, a match's variant options: each function turns
the stored term into a phrase a newcomer reads; the page keeps the exact term in a <details> element for
those who want it (the template tags in `league.core.templatetags.league`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from league.core.catalogue import game_spec
from league.core.errors import UserError

RATING_MODELS = {
    "BradleyTerryFull": "Rated by places: each finish counts against every other player at the table",
    "BradleyTerryPart": "Rated by places: each finish counts against the players just above and below",
    "PlackettLuce": "Rated by places: the whole finishing order counts at once",
    "ThurstoneMostellerFull": "Rated by places: each finish counts against every other player at the table",
}

END_REASONS = {
    "normal": "Played to the end",
    "forfeit": "Ended by a forfeit",
    "turn_cap": "Stopped at the turn limit",
}

STRATEGIES = {
    "random": "Random bot: picks any legal move",
    "greedy": "Greedy bot: takes the best-looking move now",
    "heuristic": "Rule-of-thumb bot",
    "search": "Search bot",
}


def rating_model_words(model_name: str) -> str:
    """How a pool's rating model rates, in a sentence (the model's name for one not listed)."""
    return RATING_MODELS.get(model_name, f"Rated by places ({model_name})")


def end_words(reason: str | None) -> str:
    """How a recorded match ended."""
    if not reason:
        return "Not finished"
    return END_REASONS.get(reason, reason.replace("_", " ").capitalize())


def bot_play_words(strategy: str, params: Mapping[str, Any] | None, *, external: bool = False) -> str:
    """How a bot plays: "Search bot, 25 iterations a move", "External program"."""
    if external:
        return "External program"
    words = STRATEGIES.get(strategy, f"{strategy.replace('_', ' ').capitalize()} bot")
    params = params or {}
    if strategy == "search":
        iterations = params.get("iterations")
        if iterations:
            words += f", {iterations} iterations a move"
        time_limit = params.get("time_limit") or 0
        if time_limit:
            words += f", at most {time_limit:g} s a move"
    return words


def exact_terms(params: Mapping[str, Any] | None) -> str:
    """The stored settings as `key=value`, space-separated, by name (what the <details> element shows; by
    name, since PostgreSQL's jsonb keeps its own order of an object's keys)."""
    return " ".join(f"{key}={value}" for key, value in sorted((params or {}).items()))


def _said(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value).replace("_", " ")


def option_words(game_id: str, options: Mapping[str, Any] | None) -> list[str]:
    """A match's variant options that differ from the game's standard rules, as "Lead policy: skip unheld";
    [] when it plays the standard rules."""
    options = options or {}
    try:
        spec = game_spec(game_id)
    except UserError:
        return [f"{_said(key).capitalize()}: {_said(value)}" for key, value in options.items()]
    changed = []
    for option in spec.options:
        if option.name in options and options[option.name] != option.default:
            changed.append(f"{_said(option.name).capitalize()}: {_said(options[option.name])}")
    return changed


def counted(count: int, singular: str, plural: str | None = None) -> str:
    """A count with its noun in the right number: "1 table", "2 tables", "0 tables" ("1 match", "2 matches"
    with `plural`)."""
    return f"{count} {singular if count == 1 else plural or singular + 's'}"


def first_name_and_initial(name: str) -> str:
    """A person's name shortened for public pages: the first word and the last word's initial ("Fatima
    Khalil" → "Fatima K.", "Jean-Luc de la Tour" → "Jean-Luc T."); a one-word name stays whole."""
    words = name.split()
    if len(words) < 2:
        return name.strip()
    return f"{words[0]} {words[-1][0]}."


def person_name(name: object, short: bool) -> str:
    """A player's name as a page shows it: first name and initial where the page shows short names."""
    text = "" if name is None else str(name)
    return first_name_and_initial(text) if short and text else text


def protocol_seat_words(seat: int) -> str:
    """A 0-based seat as a bot's author reads it: "seat 1 (protocol seat 0)"."""
    return f"seat {seat + 1} (protocol seat {seat})"
