"""The `bdi` filter and the `person` tag, built into every template (`TEMPLATES` in the settings).

`{{ tournament.name|bdi }}` puts a user-supplied name in `<bdi>` so a right-to-left name does not reorder the
text around it (`league.core.bidi`); `{% person seat.name %}` does the same for a player's name, shortened
to first name and initial where the page says so. Only for element content: attributes, `<title>` and
plain-text mails take the bare name (mails: `|isolated`)."""

from typing import Any

from django import template

from league.core import bidi as bidi_text
from league.core.words import person_name

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


@register.simple_tag(takes_context=True)
def person(context, name: Any) -> str:
    """`{% person seat.name %}`: a player's name in `<bdi>`, as "Fatima K." on a tournament page that shows
    this visitor short names (`short_names` in the context), whole otherwise."""
    return bidi_text.bdi(person_name(name, bool(context.get("short_names"))))
