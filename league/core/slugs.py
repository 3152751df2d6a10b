"""URL slugs derived from names, unique within their table, and the one path converter every page URL
naming a player or a tournament uses (`<name_slug:...>`).

One rule (`slug_of`): the name lower-cased; letters of any script with their combining marks, digits and
underscores kept; the zero-width joiners dropped (they sit inside words); every run of other characters
(spaces, punctuation) one hyphen, none at the ends.
"Юлия" → "юлия", "محمد علي" → "محمد-علي", "李雷" → "李雷", "Zoë Smith" → "zoë-smith". Django's `<slug:...>`
takes ASCII alone, so a page listing a player named in another script could not even link to them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection

from django.db.models import QuerySet

HYPHENS = re.compile(r"-{2,}")
JOINERS = {"\u200c", "\u200d"}


def _kept(character: str) -> bool:
    return character == "_" or unicodedata.category(character)[0] in "LMN"


def slug_of(name: str) -> str:
    """The slug of `name` (see the module docstring); empty when it has no letter or digit."""
    lowered = unicodedata.normalize("NFC", name).lower()
    kept = "".join(
        character if _kept(character) else "-" for character in lowered if character not in JOINERS
    )
    return HYPHENS.sub("-", kept).strip("-")


def is_slug(value: str) -> bool:
    """Whether `value` is a slug the rule makes (older ASCII slugs included)."""
    return bool(value) and slug_of(value) == value


class NameSlugConverter:
    """The path converter `<name_slug:...>`: any slug of `slug_of`, in any script (percent-encoded in
    URLs)."""

    regex = r"[^/]+"

    def to_python(self, value: str) -> str:
        if not is_slug(value):
            raise ValueError(f"{value!r} is not a slug")
        return value

    def to_url(self, value: str) -> str:
        return value


def free_slug(
    name: str,
    *,
    rows: QuerySet,
    length: int,
    fallback: str = "name",
    exclude_id: int | None = None,
    reserved: Collection[str] = (),
) -> str:
    """The slug of `name` (`slug_of`, cut to `length` characters) if no row of `rows` but `exclude_id` has
    it and it is not `reserved`; otherwise the first free one of that slug followed by -2, -3, ...
    A name that gives no slug takes `fallback` ("player") instead.

    Callers keep `length` a few characters below the slug column's size, so that the suffix fits. Two
    concurrent callers may pick the same slug: the column's unique constraint then refuses the second.
    """
    base = slug_of(name)[:length].strip("-") or fallback
    taken = set(rows.filter(slug__startswith=base).exclude(pk=exclude_id).values_list("slug", flat=True))
    taken.update(reserved)
    if base not in taken:
        return base
    suffix = 2
    while f"{base}-{suffix}" in taken:
        suffix += 1
    return f"{base}-{suffix}"
