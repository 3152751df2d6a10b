"""Pre-match chances in templates: `{% load forecasts %}`, then `{% with f=forecasts|forecast_of:seat %}` for
a match seat (anything with `match_id` and `seat`), and `{{ f.p_first|chance }}` for a percentage."""

from django import template

register = template.Library()


@register.filter
def forecast_of(forecasts, seat):
    """The stored prediction of a seat, from `selectors.predictions_by_seat`; None without one."""
    if not forecasts or seat is None:
        return None
    return forecasts.get((seat.match_id, seat.seat))


@register.filter
def chance(value) -> str:
    """A probability as a percentage: one decimal under 10%, "<0.1%" below that, whole numbers above."""
    if value is None:
        return "–"
    percent = value * 100
    if percent < 0.1:
        return "<0.1%"
    if percent < 10:
        return f"{percent:.1f}%"
    return f"{percent:.0f}%"
