"""The names people give players, tournaments, bots and leagues: one check, which every service calls, so
the pages, the API and the admin store names alike.

A name is stored in Unicode's composed form (NFC), so "Zoë" typed with a combining diaeresis and typed
with the precomposed ë are one name; runs of spaces become one space and the ends are trimmed. Refused: a
name that is not text, is empty, is longer than its column, has no letter or digit, or holds a character
that does not show as itself:

- control characters (Unicode category Cc: NUL, tab, newline, ...);
- format characters (Cf: the zero-width space, the soft hyphen, the bidirectional embeddings and
  overrides U+202A-U+202E and isolates U+2066-U+2069, which can make a name read as another one), except
  the zero-width non-joiner U+200C and joiner U+200D, which Persian, Indic scripts and emoji sequences need;
- lone surrogates (Cs), which are not characters at all.

Names are unique ignoring case by their key (`name_key`): the name case-folded in Python (Unicode's full
case folding: "Юлия" and "юлия", "Straße" and "STRASSE" share a key), stored in a column with a unique
constraint, because the databases' own lower() differs (SQLite's folds ASCII alone).
"""

from __future__ import annotations

import unicodedata

from league.core.errors import UserError

REFUSED_CATEGORIES = {"Cc", "Cf", "Cs"}
JOINERS = {"\u200c", "\u200d"}


def _refused(character: str) -> bool:
    return unicodedata.category(character) in REFUSED_CATEGORIES and character not in JOINERS


def _described(character: str) -> str:
    name = unicodedata.name(character, "")  # control characters have no name in Unicode's table
    return f"U+{ord(character):04X}" + (f" ({name})" if name else "")


def check_name(name: object, *, what: str, max_length: int, field: str = "name") -> str:
    """`name` as it is stored (see the module docstring), or a UserError on `field`. `what` is the thing
    named ("a player") in the message for a missing name; `max_length` is its column's."""
    if not isinstance(name, str) or not name.strip():
        raise UserError(f"{what} needs a name", field=field)
    refused = next((character for character in name if _refused(character)), None)
    if refused is not None:
        raise UserError(
            f"a name cannot hold control or invisible formatting characters, such as {_described(refused)}",
            field=field,
        )
    cleaned = " ".join(unicodedata.normalize("NFC", name).split())
    if len(cleaned) > max_length:
        raise UserError(f"a name has at most {max_length} characters", field=field)
    if not any(character.isalnum() for character in cleaned):
        raise UserError("a name needs at least one letter or digit", field=field)
    return cleaned


def name_key(name: str) -> str:
    """The key under which a (checked) name is unique ignoring case: its full case folding, composed."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())
