"""URL slugs derived from names, unique within their table."""

from __future__ import annotations

from collections.abc import Collection

from django.db.models import QuerySet
from django.utils.text import slugify


def free_slug(
    name: str,
    *,
    rows: QuerySet,
    length: int,
    fallback: str = "name",
    exclude_id: int | None = None,
    reserved: Collection[str] = (),
) -> str:
    """The slug of `name` (cut to `length` characters) if no row of `rows` but `exclude_id` has it and it is
    not `reserved`; otherwise the first free one of that slug followed by -2, -3, ...

    Slugs are ASCII (page URLs match them so): a name without an ASCII letter or digit, e.g. a Persian one,
    takes the slug `fallback` ("player") instead.

    Callers keep `length` a few characters below the slug column's size, so that the suffix fits. Two
    concurrent callers may pick the same slug: the column's unique constraint then refuses the second.
    """
    base = slugify(name)[:length] or fallback
    taken = set(rows.filter(slug__startswith=base).exclude(pk=exclude_id).values_list("slug", flat=True))
    taken.update(reserved)
    if base not in taken:
        return base
    suffix = 2
    while f"{base}-{suffix}" in taken:
        suffix += 1
    return f"{base}-{suffix}"
