"""Template filters of the tournament pages."""

from django import template

from league.tournaments import clock

register = template.Library()

COLUMN_TITLES = {
    "opponents_points": ("Opp. pts", "Opponents' points: the total points of everyone met"),
    "opponents_points_average": ("Opp. avg", "Opponents' points per opponent met"),
    "buchholz_cut1": ("Bch −1", "Buchholz cut 1: opponents' points without the lowest opponent"),
    "buchholz_median": ("Bch med", "Median Buchholz: opponents' points without the lowest and the highest"),
    "sonneborn_berger": ("SB", "Sonneborn–Berger: points of opponents finished ahead of, half for a shared place"),
    "opponents_match_win_percentage": ("OMW%", "Opponents' match-win percentage, each at least 33%"),
    "cumulative": ("Cumul.", "The running total after each round, summed"),
    "wins": ("Wins", "Tables won alone, plus byes"),
    "head_to_head": ("H2H", "Head to head among the players tied so far"),
}
PERCENT_COLUMNS = ("opponents_match_win_percentage",)


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
    if name in PERCENT_COLUMNS:
        return f"{value * 100:.1f}%"
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
    "opponents_points_average": "opponents' points per opponent",
    "buchholz_cut1": "Buchholz cut 1",
    "buchholz_median": "median Buchholz",
    "sonneborn_berger": "Sonneborn–Berger",
    "opponents_match_win_percentage": "opponents' match-win percentage",
    "cumulative": "cumulative score",
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
