"""The drawn bracket of an elimination tournament or a top cut: boxes, connectors and their places on an SVG
canvas (`templates/tournaments/_bracket.html` draws them), from a tournament's history and its rounds' views
(`league.tournaments.round_selectors.rounds`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from league.core.bidi import isolated
from league.core.words import person_name
from league.tournaments.bracket_reading import DrawnBracket, bracket_of
from league.tournaments.bracket_selectors import bracket_matches
from league.tournaments.models import Table, Tournament
from league.tournaments.round_selectors import RoundView, table_link

BOX_WIDTH = 170
ROW_HEIGHT = 22
BOX_GAP = 14
COLUMN_GAP = 34
HEADER = 22
TOP_GAP = 8


@dataclass(frozen=True)
class Box:
    """A drawn box of the bracket: its position, title, lines of text (text, won, baseline y) and the link to
    its table."""

    x: int
    y: int
    width: int
    height: int
    title: str
    lines: tuple[tuple[str, bool, int], ...]
    href: str = ""
    muted: bool = False


@dataclass
class Drawing:
    """One section of a drawn bracket (an SVG): boxes, connector paths and the canvas size."""

    title: str
    width: int
    height: int
    boxes: list[Box]
    paths: list[str]
    columns: list[tuple[int, str]]


NAME_CHARACTERS = 20


def _named(name: str, place: int | None) -> str:
    """A box's line: the player's name cut to fit the box and held between Unicode isolates (SVG text
    has no `<bdi>`), so a right-to-left name keeps the place beside it where it belongs; then the place.
    Texts of the site's own ("bye", "Winner of R1-2") are drawn as they are."""
    short = name if len(name) <= NAME_CHARACTERS else name[: NAME_CHARACTERS - 1] + "…"
    return isolated(short) + (f" ({place})" if place else "")


def _column_of(label: str) -> tuple[str, str]:
    """(section, column) of a bracket label: R2-1 → main bracket, R2; W1-3 → winners' bracket, W1."""
    head = label.split("-")[0]
    if head.startswith("R") or head == "F":
        return "Main bracket", head
    if head.startswith("W"):
        return "Winners' bracket", head
    if head.startswith("L"):
        return "Losers' bracket", head
    if head == "3P":
        return "Third place", head
    return "Grand final", head


def _column_title(column: str) -> str:
    names = {"F": "Final", "3P": "Third place", "GF": "Grand final", "GF2": "Reset"}
    if column in names:
        return names[column]
    return f"Round {column[1:]}"


def _lay_out(title: str, columns: list[tuple[str, list[dict]]], links: dict[str, str]) -> Drawing:
    """Place boxes in columns, each column's boxes spread evenly over the tallest column's height, so a
    match sits level with the middle of the two matches that feed it; connect fed matches to their feeders."""
    heights = [sum(item["rows"] * ROW_HEIGHT + HEADER + BOX_GAP for item in items) for _, items in columns]
    canvas = max(heights, default=0)
    boxes: list[Box] = []
    where: dict[str, Box] = {}
    paths: list[str] = []
    titles = []
    for index, (column, items) in enumerate(columns):
        x = index * (BOX_WIDTH + COLUMN_GAP)
        titles.append((x, column))
        slot = canvas / max(len(items), 1)
        for position, item in enumerate(items):
            height = item["rows"] * ROW_HEIGHT + HEADER
            y = round(HEADER + TOP_GAP + position * slot + (slot - height - BOX_GAP) / 2)
            lines = tuple(
                (text, won, y + HEADER + (row + 1) * ROW_HEIGHT - 7)
                for row, (text, won) in enumerate(item["lines"])
            )
            box = Box(
                x,
                y,
                BOX_WIDTH,
                height,
                item["title"],
                lines,
                links.get(item["key"], ""),
                item.get("muted", False),
            )
            boxes.append(box)
            where[item["key"]] = box
            for feeder in item.get("feeders", ()):
                source = where.get(feeder)
                if source is None or source.x >= x:
                    continue
                start_y = source.y + source.height // 2
                end_y = y + height // 2
                middle = x - COLUMN_GAP // 2
                paths.append(f"M{source.x + BOX_WIDTH} {start_y} H{middle} V{end_y} H{x}")
    width = len(columns) * (BOX_WIDTH + COLUMN_GAP) - COLUMN_GAP
    return Drawing(title, max(width, BOX_WIDTH), int(canvas) + HEADER + TOP_GAP, boxes, paths, titles)


def bracket(history, round_views: list[RoundView], *, round_url, short_names: bool = False) -> list[Drawing]:
    """The drawn bracket of an elimination tournament or top cut, one drawing per section; [] otherwise.

    2-seat brackets are drawn in full from the start (future matches name where their players come from);
    multi-seat elimination draws each round's tables as they are generated, marking who goes through.
    With `short_names`, players are named by first name and initial.
    """
    tournament = history.tournament
    names = {reg.player_id: person_name(reg.player.name, short_names) for reg in history.registrations}
    links = {}
    by_label = {}
    for view in round_views:
        for table in view.tables:
            if table.label and table.closed_as != Table.Closed.RESET:
                links[table.label] = table_link(round_url(view.number), table.number)
                by_label[table.label] = table
    matches = bracket_matches(history, names)
    if matches is not None:
        drawn = cast(DrawnBracket, bracket_of(history))  # bracket_matches found the bracket
        feeders = {match.label: match for match in drawn.bracket.matches}
        sections: dict[str, dict[str, list[dict]]] = {}
        for match in matches:
            section, column = _column_of(match.label)
            shown = by_label.get(match.label)
            places: dict[int | None, int | None] = (
                {seat.player_id: seat.place for seat in shown.seats} if shown else {}
            )
            lines = []
            for slot in match.slots:
                place = places.get(slot.player_id)
                text = _named(slot.text, place) if slot.player_id is not None else slot.text
                lines.append((text, slot.won))
            item = {
                "key": match.label,
                "title": match.label + (" · not needed" if match.skipped else ""),
                "rows": 2,
                "lines": lines,
                "muted": match.skipped,
                "feeders": [source.ref for source in feeders[match.label].sources if source.kind == "winner"],
            }
            sections.setdefault(section, {}).setdefault(column, []).append(item)
        return [
            _lay_out(title, [(_column_title(column), items) for column, items in columns.items()], links)
            for title, columns in sections.items()
        ]
    if tournament.table_size == 2 or not (
        tournament.format == Tournament.Format.SINGLE_ELIMINATION
        or (tournament.format == Tournament.Format.STAGES and tournament.cut_format == "single_elimination")
    ):
        return []
    first = 1 if tournament.format == Tournament.Format.SINGLE_ELIMINATION else (tournament.rounds or 0) + 1
    columns = []
    for view in round_views:
        if view.number < first:
            continue
        items = []
        for table in view.tables:
            ranked = sorted(table.seats, key=lambda seat: seat.place or 99)
            through = {seat.player_id for seat in ranked[: tournament.advance]} if table.has_result else set()
            if table.label == "Final":
                through = {ranked[0].player_id} if table.has_result else set()
            lines = [
                (_named(person_name(seat.name, short_names), seat.place), seat.player_id in through)
                for seat in table.seats
            ]
            items.append({"key": table.label, "title": table.label, "rows": len(lines), "lines": lines})
        if view.advanced:
            items.append(
                {
                    "key": f"bye-{view.number}",
                    "title": "Through without playing",
                    "rows": len(view.advanced),
                    "lines": [
                        (_named(person_name(name, short_names), None), True) for _, name in view.advanced
                    ],
                }
            )
        columns.append((f"Round {view.number - first + 1}", items))
    return [_lay_out("Bracket", columns, links)] if columns else []
