"""Names that people type, kept from reordering the text around them.

A name in a right-to-left script ("محمد") next to numbers or other names makes the browser's bidirectional
algorithm move them ("1. 25 محمد%"). Pages wrap every user-supplied name (players, bots, tournaments, clubs,
users) in `<bdi>` (the `bdi` template filter of `league.core.templatetags.league`); plain texts (mails, SVG
text) wrap it in the Unicode isolates FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE. CSV exports and API
answers carry the bare name: they are data, not text to lay out.
"""

from __future__ import annotations

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString

FIRST_STRONG_ISOLATE = "\u2068"
POP_DIRECTIONAL_ISOLATE = "\u2069"


def isolated(name: object) -> str:
    """The name between Unicode isolates, for plain text: mails, SVG text, notifications' texts."""
    return f"{FIRST_STRONG_ISOLATE}{name}{POP_DIRECTIONAL_ISOLATE}"


def bdi(name: object) -> SafeString:
    """The name, escaped, in a `<bdi>` element for HTML; an empty or missing name stays empty."""
    if name is None or name == "":
        return SafeString("")
    return format_html("<bdi>{}</bdi>", name)


def bare(text: str) -> str:
    """The text without Unicode isolates (for CSV cells and API values built from isolated texts)."""
    return text.replace(FIRST_STRONG_ISOLATE, "").replace(POP_DIRECTIONAL_ISOLATE, "")


def isolates_as_bdi(text: str) -> SafeString:
    """A plain text with isolated names (a notification's text) for a page: escaped, each isolated name in
    `<bdi>`; an isolate left open (a text cut at its length limit) is closed at the end."""
    parts: list[str] = []
    depth = 0
    for char in text:
        if char == FIRST_STRONG_ISOLATE:
            parts.append("<bdi>")
            depth += 1
        elif char == POP_DIRECTIONAL_ISOLATE:
            if depth:
                parts.append("</bdi>")
                depth -= 1
        else:
            parts.append(escape(char))
    parts.append("</bdi>" * depth)
    return SafeString("".join(parts))
