"""A rating as pages show it: `{% load rating_values %}`, then `{{ rating|rating_value }}` (or
`{{ rating|rating_value:1 }}` for one decimal). Before `PROVISIONAL_MATCHES` rated matches in its pool a
rating reads "provisional" (a new player's conservative value is below zero and says nothing yet); the API
keeps the numbers."""

from django import template
from django.template.defaultfilters import floatformat

from league.ratings.models import PROVISIONAL_MATCHES

register = template.Library()


@register.filter
def rating_value(rating, decimals: int = 2) -> str:
    """The rating's conservative value, or "provisional" before its pool's fifth rated match."""
    if rating.matches < PROVISIONAL_MATCHES:
        return "provisional"
    return floatformat(rating.conservative, decimals)
