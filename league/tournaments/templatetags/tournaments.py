"""Template filters of the tournament pages."""

from django import template

from league.tournaments import clock

register = template.Library()

COLUMN_TITLES = {
    "opponents_points": ("Opp. pts", "Opponents' points: the total points of everyone met"),
    "wins": ("Wins", "Tables won alone, plus byes"),
    "head_to_head": ("H2H", "Head to head among the players tied so far"),
}


@register.filter
def points(value: float | None) -> str:
    """3.0 → "3", 1.5 → "1.5", None → "–"."""
    if value is None:
        return "–"
    return f"{value:g}"


@register.filter
def column(row: object, name: str):
    """The value of tie-break column `name` of a standings row."""
    value = getattr(row, name)
    return points(value) if isinstance(value, float) else value


@register.filter
def column_title(name: str) -> str:
    return COLUMN_TITLES.get(name, (name, ""))[0]


@register.filter
def column_help(name: str) -> str:
    return COLUMN_TITLES.get(name, ("", name))[1]


TIEBREAK_NAMES = {
    "points": "points",
    "opponents_points": "opponents' points",
    "wins": "wins",
    "head_to_head": "head to head",
    "seed": "seed",
}


@register.filter
def tiebreak_names(names: list[str]) -> str:
    """The tie-break order in words, seed last and once: "points, opponents' points, wins, then seed"."""
    words = [TIEBREAK_NAMES.get(name, name) for name in names if name != "seed"]
    return ", ".join([*words, "then seed"]) if words else "seed"


@register.filter
def event_time(instant, zone_name: str) -> str:
    """An instant in the event's zone, the zone named: "Sat 5 Dec 2026, 10:00 (Europe/Berlin)"."""
    return clock.show(instant, zone_name)


@register.filter
def get_item(mapping: dict, key):
    """mapping[key] in a template (None when missing)."""
    return mapping.get(key)


@register.filter
def table_link(round_url: str, number: int) -> str:
    """The address of table `number` on its round's page (`selectors.table_link`: the page it is on)."""
    from league.tournaments.selectors import table_link as link

    return link(round_url, number)
