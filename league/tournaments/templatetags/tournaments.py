"""Template filters of the tournament pages."""

from urllib.parse import quote

from django import template
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe

from league.core.bidi import bdi
from league.core.words import counted, person_name
from league.ratings.templatetags.forecasts import chance
from league.tournaments import clock, round_selectors
from league.tournaments.models import Tournament

register = template.Library()

COLUMN_TITLES = {
    "opponents_points": ("Opp. pts", "Opponents' points: the total points of everyone met"),
    "opponents_points_average": ("Opp. avg", "Opponents' points per opponent met"),
    "buchholz_cut1": ("Bch −1", "Buchholz cut 1: opponents' points without the lowest opponent"),
    "buchholz_median": ("Bch med", "Median Buchholz: opponents' points without the lowest and the highest"),
    "sonneborn_berger": (
        "SB",
        "Sonneborn–Berger: points of opponents finished ahead of, half for a shared place",
    ),
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


def _stage_name(value: str) -> str:
    """A stage's format in a sentence: "Swiss", "round robin", "single elimination"."""
    if value not in Tournament.Format.values:
        return value.replace("_", " ")
    label = Tournament.Format(value).label
    return label if value == Tournament.Format.SWISS else label.lower()


@register.filter
def stages_words(tournament) -> str:
    """A stage sequence in words: "1 round of Swiss, top 8 to single elimination"."""
    rounds = tournament.rounds or 0
    first = _stage_name(tournament.first_stage or "swiss")
    cut = _stage_name(tournament.cut_format or "single_elimination")
    return f"{counted(rounds, 'round')} of {first}, top {tournament.cut_size} to {cut}"


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
    """The address of table `number` on its round's page (`round_selectors.table_link`: the page it is on)."""
    return round_selectors.table_link(round_url, number)


def _path_prefix(tournament_slug: str) -> str:
    """The address of a player's path through the tournament, without the player's slug (one `reverse` per
    page instead of one per row)."""

    return reverse("tournaments:path", args=[tournament_slug, "x"])[: -len("x/")]


@register.simple_tag(takes_context=True)
def standings_rows(context, standings, tiebreak_columns, tournament) -> str:
    """The body rows of the standings table, written in Python: a page of 100 rows through the template engine
    cost most of the tournament page's time. Each row: rank, name (a link to the player's path, the status
    when not active; first name and initial where the page shows short names), points, each tie-break
    column, tables played, seed; a group's heading row where an elimination's placement starts a new
    group."""

    prefix = _path_prefix(tournament.slug)
    short = bool(context.get("short_names"))
    columns = list(tiebreak_columns)
    span = len(columns) + 5
    parts, last_group = [], None
    for row in standings:
        if row.group and row.group != last_group:
            parts.append(
                f'\n<tr class="group"><th colspan="{span}" scope="rowgroup">{escape(row.group)}</th></tr>'
            )
            last_group = row.group
        status = (
            "" if row.status == "Active" else f' <span class="muted">({escape(row.status.lower())})</span>'
        )
        cells = "".join(f'<td class="num">{escape(column(row, name))}</td>' for name in columns)
        href = escape(prefix + quote(row.slug, safe="!$&'()*+,;=~:@") + "/")
        parts.append(
            f'\n<tr><td class="num">{escape(row.rank)}</td>'
            f'<td class="name"><a href="{href}">{bdi(person_name(row.name, short))}</a>{status}</td>\n'
            f'<td class="num">{points(row.points)}{_penalty_mark(row)}</td>{cells}'
            f'<td class="num">{escape(row.played)}</td>'
            f'<td class="num wide-only">{escape(row.seed)}</td></tr>\n'
        )
    return mark_safe("".join(parts))


def _penalty_mark(row) -> str:
    """After a player's points, the points penalties took off them (the reason is listed under the
    standings: `floor.standings_penalties`)."""
    taken = getattr(row, "penalty", 0)
    return f' <small class="penalty-mark">(−{points(taken)} penalty)</small>' if taken else ""


ORDINAL_ENDINGS = {1: "st", 2: "nd", 3: "rd"}


@register.simple_tag
def table_seats(table, chances: bool = False, short: bool = False) -> str:
    """The seats of a table on a round's page as list items, written in Python (a page of 100 tables has
    hundreds of seats): the name, with `chances` (for those who run the event: a player needs no number
    telling them they will lose) the stored chance of finishing first, labelled (with "upset" for a long
    shot who won), the place and points once played, and "goes through" for a player the result advances;
    with `short`, names as first name and initial."""

    advancing = table.advancing or ()
    parts = []
    for seat in table.seats:
        parts.append('<li class="absent">' if getattr(seat, "absent", False) else "<li>")
        parts.append(bdi(person_name(seat.name, short)))
        forecast = getattr(seat, "forecast", None)
        if forecast:
            if chances:
                expected = floatformat(forecast.expected_place, 2)
                parts.append(
                    f' <span class="chance" title="expected place {escape(expected)}">'
                    f"chance of 1st {escape(chance(forecast.p_first))}</span>"
                )
            if seat.place == 1 and forecast.long_shot:
                parts.append(' <span class="badge upset">upset</span>')
        if seat.place:
            ending = ORDINAL_ENDINGS.get(seat.place, "th")
            parts.append(
                f'<span class="place">{escape(seat.place)}{ending} · {escape(points(seat.points))} pt</span>'
            )
        if seat.player_id in advancing:
            parts.append(' <span class="muted">· goes through</span>')
        before = getattr(seat, "before", None)
        if before is not None:
            parts.append(f' <span class="before">{escape(points(before))} pt</span>')
        if getattr(seat, "repeat", False):
            parts.append(' <span class="badge repeat">met before</span>')
        parts.append("</li>")
    return mark_safe("".join(parts))


def my_table_mark(number: int) -> str:
    """The mark in a round page's table card where its seated player's own link goes."""
    return f"<!--my-table:{number}-->"


def my_table_link(slug: str, round_number: int, number: int) -> str:
    """A seated player's link to their table's page (report, confirm or dispute), under self-report."""
    url = reverse("tournaments:table", args=[slug, round_number, number])
    return (
        f'<p class="table-link"><a class="my-table" href="{escape(url)}">Your table: '
        "report, confirm or dispute the result</a></p>"
    )


@register.simple_tag(takes_context=True)
def table_cards(context) -> str:
    """The table cards of a round's page (`round.tables`), written in Python: each table's number, label and
    state badge (void, done, disputed, reported, playing), its seats (`table_seats`), and the links to report
    (a seated player, under self-report) or to enter the result (a scorekeeper)."""

    tournament, view, reports = context["tournament"], context["round"], context.get("reports")
    disputed = reports.disputed_tables if reports else set()
    reported = reports.open if reports else {}
    my_player_id = context.get("my_player_id") if context.get("self_report") else None
    can_score = context.get("can_score")
    short = bool(context.get("short_names"))
    parts = []
    for table in view.tables:
        number = table.number
        label = f' <span class="muted">{escape(table.label)}</span>' if table.label else ""
        # the number in the room heads the card; the rank order shows where it differs
        rank = f' <span class="muted">(rank {number})</span>' if table.physical != number else ""
        if table.closed_as:
            badge = f'<span class="badge void">{escape(table.closed_label)}</span>'
        elif table.match_status == "finished":
            badge = '<span class="badge finished">done</span>'
        elif number in disputed:
            badge = '<span class="badge disputed">disputed</span>'
        elif number in reported:
            badge = '<span class="badge scheduled">reported</span>'
        elif table.match_id:
            badge = '<span class="badge scheduled">playing</span>'
        else:
            badge = ""
        if number in disputed and table.match_status == "finished":
            badge += ' <span class="badge disputed">disputed</span>'
        parts.append(
            f'\n<section class="table-card" id="table-{number}">\n'
            f"<h3>Table {table.physical}{rank}{label}\n{badge}</h3>\n"
            f'<ol start="1">{table_seats(table, chances=bool(can_score), short=short)}</ol>\n'
        )
        if context.get("self_report") and table.match_id:
            # Where a seated player's link goes: the shared copy of the page has the mark alone, and a
            # signed-in player's copy gets their link after it (`league.web.tournaments.shared`).
            parts.append(my_table_mark(number))
            if my_player_id and any(seat.player_id == my_player_id for seat in table.seats):
                parts.append(my_table_link(tournament.slug, view.number, number))
        parts.append("\n")
        if can_score and table.match_id:
            url = reverse("tournaments:result", args=[tournament.slug, view.number, number])
            words = "Correct the result" if table.result_version else "Enter the result"
            parts.append(f'<p class="table-link"><a href="{escape(url)}">{words}</a></p>')
        parts.append("\n</section>\n")
    return mark_safe("".join(parts))
