"""The `bdi` filter, built into every template (`TEMPLATES` in the settings): `{{ player.name|bdi }}` puts a
user-supplied name in `<bdi>` so a right-to-left name does not reorder the text around it
(`league.core.bidi`). Only for element content: attributes, `<title>` and plain-text mails take the bare name
(mails: `|isolated`)."""

from typing import Any

from django import template

from league.core import bidi as bidi_text

register = template.Library()


@register.filter
def bdi(name: Any) -> str:
    """The name, escaped, in `<bdi>`."""
    return bidi_text.bdi(name)


@register.filter
def isolated(name: Any) -> str:
    """The name between Unicode isolates, for plain-text templates (mails)."""
    return bidi_text.isolated(name)


@register.filter
def isolates_as_bdi(text: Any) -> str:
    """A stored plain text with isolated names (a notification's) for a page, each name in `<bdi>`."""
    return bidi_text.isolates_as_bdi(str(text))
