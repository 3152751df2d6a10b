"""The names people give players, tournaments, bots and leagues: one check, which every service calls, so
the pages, the API and the admin store names alike; and the check of the free texts people write (a
description, a venue, a reason, a note), `check_text`.

A name is stored in Unicode's composed form (NFC), so "Zoë" typed with a combining diaeresis and typed
with the precomposed ë are one name; runs of spaces become one space and the ends are trimmed. Refused: a
name that is not text, is empty, is longer than its column, has no letter or digit, or holds a character
that does not show as itself:

- control characters (Unicode category Cc: NUL, tab, newline, ...);
- format characters (Cf: the zero-width space, the soft hyphen, the bidirectional embeddings and
  overrides U+202A-U+202E and isolates U+2066-U+2069, which can make a name read as another one), except
  the zero-width non-joiner U+200C and joiner U+200D, which Persian, Indic scripts and emoji sequences need;
- lone surrogates (Cs), which are not characters at all.

A free text keeps its line breaks and tabs and may hold any other character that names may hold and the
format characters too; it is refused when it holds another control character (NUL among them, which
PostgreSQL cannot store in text) or a lone surrogate (which no database can store as UTF-8), so such input
is a clear error instead of a failed write. `storable_text` is for text no person typed (what a bot program
printed): those characters become U+FFFD instead.

Names are unique ignoring case by their key (`name_key`): the name case-folded in Python (Unicode's full
case folding: "Юлия" and "юлия", "Straße" and "STRASSE" share a key), stored in a column with a unique
constraint, because the databases' own lower() differs (SQLite's folds ASCII alone).
"""

from __future__ import annotations

import unicodedata

from league.core.errors import UserError

REFUSED_CATEGORIES = {"Cc", "Cf", "Cs"}
JOINERS = {"\u200c", "\u200d"}
LINE_BREAKS = {"\t", "\n", "\r"}


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


def _refused_in_text(character: str) -> bool:
    return unicodedata.category(character) in ("Cc", "Cs") and character not in LINE_BREAKS


def check_text(text: object, *, field: str, max_length: int, what: str | None = None) -> str:
    """`text` with its ends trimmed, or a UserError on `field`: not text, longer than `max_length` characters
    (trimmed), or holding a control character other than a tab or line break, or a lone surrogate. `what`
    names it in the messages ("the description"; default: the field's name)."""
    what = what or f"the {field}"
    if not isinstance(text, str):
        raise UserError(f"{what} must be text", field=field)
    refused = next((character for character in text if _refused_in_text(character)), None)
    if refused is not None:
        kind = "a lone surrogate" if unicodedata.category(refused) == "Cs" else "a control character"
        raise UserError(f"{what} cannot hold {kind}, such as {_described(refused)}", field=field)
    text = text.strip()
    if len(text) > max_length:
        raise UserError(f"{what} has at most {max_length} characters", field=field)
    return text


def storable_text(text: str) -> str:
    """`text` with every character that `check_text` refuses replaced by U+FFFD, so that it can be stored."""
    if not any(_refused_in_text(character) for character in text):
        return text
    return "".join("\ufffd" if _refused_in_text(character) else character for character in text)


def name_key(name: str) -> str:
    """The key under which a (checked) name is unique ignoring case: its full case folding, composed."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


# Letters that NFKD does not take apart into a base letter and a mark, spelled as people type them on a
# keyboard without them (Łukasz as "lukasz", Søren as "soren", Straße as "strasse").
FOLDED_LETTERS = str.maketrans(
    {
        "ł": "l",
        "Ł": "l",
        "ø": "o",
        "Ø": "o",
        "đ": "d",
        "Đ": "d",
        "ð": "d",
        "Ð": "d",
        "þ": "th",
        "Þ": "th",
        "ß": "ss",
        "ẞ": "ss",
        "æ": "ae",
        "Æ": "ae",
        "œ": "oe",
        "Œ": "oe",
        "ı": "i",
        "ħ": "h",
        "Ħ": "h",
        "ŧ": "t",
        "Ŧ": "t",
    }
)


def fold(text: str) -> str:
    """`text` as searches compare it: compatibility-decomposed (NFKD), its marks removed, a few letters that
    do not decompose spelled out (`FOLDED_LETTERS`), case-folded, and everything but letters, digits and
    single spaces removed (punctuation, apostrophes ’ and ' among it). "O’Brien" folds to "obrien", "Tomás"
    to "tomas", "Łukasz" to "lukasz"; 佐藤健二 stays 佐藤健二. A query is folded the same way and looked for
    inside the folded names."""
    decomposed = unicodedata.normalize("NFKD", text.translate(FOLDED_LETTERS))
    kept = []
    for character in decomposed.casefold().translate(FOLDED_LETTERS):
        category = unicodedata.category(character)
        if category[0] in "LN":
            kept.append(character)
        elif category[0] == "Z" or character in LINE_BREAKS:
            kept.append(" ")
    return " ".join("".join(kept).split())


def search_key(name: str, username: str | None = None) -> str:
    """What a search looks into for a player: the folded name, and the folded user name of their account
    after a "|" (which no folded query holds, so no query matches across the two)."""
    return fold(name) + (f"|{fold(username)}" if username else "")
