"""Replays of matches, frame by frame, each game drawn as a person would want to see it: HTML, pure Python.

`replay_frame(record, names, step)` replays a finished match up to one step through the engines' one replay
loop (`games.core.replay.iter_steps`, with its legality checks) and returns a `Frame`: a caption (the step's
move or chance draw, in words) and an HTML drawing of the whole table. Each game's view module
(`games/<id>/view.py`, found by `games.registry.table_view`) turns the state into the plain data drawn here,
so this module is HTML only: a replay of a finished match shows every hand (the view of a spectator after
the game), and nothing here reads an engine's internals. The site's replay page (`league.bots.drawings`) and
the local runner's replay file (`games.viewer.page`) draw through it alike.

- Nacho Pile: the piles, chips by value in front of and on each plate, this turn's draw, the bag;
- Nobody but Us Chickens: the coop, each hand, the chickens claimed tonight and the totals;
- Chicken Foot: the domino layout as a tree of tiles from the spinner, the open ends, each hand;
- Chickie Nuggs: each tray (nuggets and sauces, points), each hand, the pile and the discard.
Another game gets its engine's text picture.

`Html` is markup already escaped; `fmt` and `join` build it as Django's `format_html` and `format_html_join`
do (every argument that is not `Html` escaped, the same five characters).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from games import registry
from games.core.replay import iter_steps
from games.core.state import State


class Html(str):
    """Text that is markup already: `fmt` and `join` insert it as it is."""

    __slots__ = ()

    def __html__(self) -> str:  # what Django's templates insert without escaping
        return str(self)


def _escaped(value: object) -> str:
    return value if isinstance(value, Html) else escape(str(value), quote=True)


def fmt(template: str, *args: object) -> Html:
    """`template` with each `{}` replaced by its argument, escaped unless it is `Html`."""
    return Html(template.format(*(_escaped(arg) for arg in args)))


def join(separator: str, template: str, rows: Iterable[Sequence[object]]) -> Html:
    """`fmt(template, *row)` for each row, joined by `separator`."""
    return Html(_escaped(separator).join(fmt(template, *row) for row in rows))


@dataclass(frozen=True)
class Frame:
    step: int
    caption: str
    drawing: Html


def replay_frame(record: dict[str, Any], names: Sequence[str], step: int) -> tuple[Frame, int]:
    """The table after `step` events (0 = before the first), and the number of events in the match.

    `step` is clamped to the match's length. Raises `games.core.errors.ReplayError` when the record does not
    replay up to that step (another version, a bad event; at the last step, an outcome the events do not
    produce).
    """
    for current in iter_steps(record):
        if current.index >= step:
            break
    return _frame(record["game"], current.state, current.index, current.event, names), len(record["events"])


def replay_frames(record: dict[str, Any], names: Sequence[str]) -> Iterator[Frame]:
    """Every frame of the match, step 0 first, replayed once (`replay_frame` of each step). Raises
    `games.core.errors.ReplayError` when the record does not replay."""
    for current in iter_steps(record):
        yield _frame(record["game"], current.state, current.index, current.event, names)


def _frame(game_id: str, state: State, index: int, event: list[Any] | None, names: Sequence[str]) -> Frame:
    view, draw = registry.table_view(game_id), DRAWINGS.get(game_id)
    drawing = draw(view(state), names) if view and draw else _draw_text(state)
    caption = _with_names(_caption(state, event, names), names)
    return Frame(index, caption, drawing)


def _caption(state: State, event: list[Any] | None, names: Sequence[str]) -> str:
    """The event in words, read on the state right after it, as the engines' command-line account does."""
    if event is None:
        return "The table before the first move"
    kind, value = event
    if kind == "c":
        return state.describe_chance(value)
    return "; ".join(
        f"{names[int(seat)]}: {state.describe_action(int(seat), action)}" for seat, action in value.items()
    )


SEAT_WORDS = re.compile(r"\bseat (\d+)\b")


def _with_names(caption: str, names: Sequence[str]) -> str:
    """The engine's words with "seat 2" replaced by the name of the bot in seat 2."""

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        return names[seat] if seat < len(names) else match.group(0)

    return SEAT_WORDS.sub(name, caption)


def _draw_text(state: State) -> Html:
    return fmt('<pre class="table-text">{}</pre>', state.render())


def _seat_header(names: Sequence[str], seat: int, detail: str, active: bool) -> Html:
    return fmt(
        '<div class="seat-head{}"><strong>{}</strong> <span class="muted">{}</span></div>',
        " active" if active else "",
        names[seat],
        detail,
    )


# ----------------------------------------------------------------------------------------------- Nacho Pile


def _chip(chip: dict[str, Any]) -> Html:
    kind = f"n{chip['number']}" if chip["kind"] == "number" else chip["kind"]
    badge = fmt("<sub>×{}</sub>", chip["count"]) if chip["count"] > 1 else ""
    return fmt('<span class="chip {}">{}{}</span>', kind, chip["label"], badge)


def _chips(chips: Sequence[dict[str, Any]]) -> Html:
    return join("", "{}", ((_chip(chip),) for chip in chips))


def draw_nacho_pile(table: dict[str, Any], names: Sequence[str]) -> Html:
    none = fmt('<span class="muted">{}</span>', "–")
    seats = join(
        "",
        '<div class="seat">{}<div class="row"><span class="label">In front</span>{}</div>'
        '<div class="row"><span class="label">Plate</span>{}</div></div>',
        (
            (
                _seat_header(names, index, f"{seat['plate_chips']} chips on the plate", seat["active"]),
                _chips(seat["front"]) or none,
                _chips(seat["plate"]) or none,
            )
            for index, seat in enumerate(table["seats"])
        ),
    )
    last = fmt(" · last chip {}", _chip(table["last_chip"])) if table["last_chip"] is not None else ""
    return fmt(
        '<div class="drawing nacho"><div class="row"><span class="label">Drawn this turn</span>{}</div>'
        '<div class="seats">{}</div><div class="row bag"><span class="label">Bag ({})</span>{}{}</div></div>',
        _chips(table["drawn"]) or fmt('<span class="muted">{}</span>', "nothing yet"),
        seats,
        table["bag_size"],
        _chips(table["bag"]),
        last,
    )


# ------------------------------------------------------------------------------------ Nobody but Us Chickens


def _cards(cards: Sequence[str]) -> Html:
    if not cards:
        return fmt('<span class="muted">{}</span>', "–")
    return join("", '<span class="card {}">{}</span>', ((card, card) for card in cards))


def draw_nobody_but_us_chickens(table: dict[str, Any], names: Sequence[str]) -> Html:
    seats = join(
        "",
        '<div class="seat">{}<div class="row"><span class="label">Hand</span>{}</div>'
        '<div class="row"><span class="label">Claimed tonight</span>{}</div></div>',
        (
            (
                _seat_header(
                    names,
                    index,
                    f"{seat['points']} points"
                    + (" · Fox King" if seat["fox_king"] else "")
                    + (" · Top Dog" if seat["top_dog"] else ""),
                    seat["active"],
                ),
                _cards(seat["hand"]),
                _cards(seat["claimed"]),
            )
            for index, seat in enumerate(table["seats"])
        ),
    )
    return fmt(
        '<div class="drawing chickens"><p>Night {} of {}, hour {} of {}</p>'
        '<div class="coop"><span class="label">The coop</span>{}</div>'
        '<div class="row"><span class="label">Just revealed</span>{}</div><div class="seats">{}</div></div>',
        table["night"],
        table["nights"],
        table["hour"],
        table["hours"],
        _cards(table["coop"]),
        _cards(table["revealed"]),
        seats,
    )


# ------------------------------------------------------------------------------------------- Chicken Foot

PIPS = {
    0: (),
    1: ((2, 2),),
    2: ((1, 1), (3, 3)),
    3: ((1, 1), (2, 2), (3, 3)),
    4: ((1, 1), (1, 3), (3, 1), (3, 3)),
    5: ((1, 1), (1, 3), (2, 2), (3, 1), (3, 3)),
    6: ((1, 1), (1, 2), (1, 3), (3, 1), (3, 2), (3, 3)),
}


def pip_symbols() -> Html:
    """SVG symbols of the domino halves 0-6, defined once per page and used by every tile."""
    symbols = join(
        "",
        '<symbol id="pips-{}" viewBox="0 0 20 20">{}</symbol>',
        (
            (
                value,
                join("", '<circle cx="{}" cy="{}" r="1.7"/>', ((x * 5, y * 5) for x, y in dots)),
            )
            for value, dots in PIPS.items()
        ),
    )
    return fmt('<svg class="symbols" width="0" height="0" aria-hidden="true">{}</svg>', symbols)


def _half(value: int) -> Html:
    if value in PIPS:
        return fmt('<svg class="half" aria-hidden="true"><use href="#pips-{}"/></svg>', value)
    return fmt('<span class="half number">{}</span>', value)


def _bone(tile: dict[str, Any]) -> Html:
    """A tile drawn with the end that joins the layout first; doubles stand across the line."""
    first, second = tile["ends"]
    double = " double" if tile["double"] else ""
    owner = f" s{tile['seat']}" if tile["seat"] is not None else ""
    return fmt(
        '<span class="bone{}{}" title="{}">{}{}</span>',
        double,
        owner,
        tile["bone"],
        _half(first),
        _half(second),
    )


def _branch(tile: dict[str, Any]) -> Html:
    """A tile and what was played onto it: a lone follower continues the line, a fork opens an arm each."""
    below = tile["children"]
    if len(below) == 1 and not tile["double"]:
        return fmt("{}{}", _bone(tile), _branch(below[0]))
    if not below:
        return _bone(tile)
    nested = join("", "<li>{}</li>", ((_branch(child),) for child in below))
    return fmt('{}<ul class="arm">{}</ul>', _bone(tile), nested)


def draw_chicken_foot(table: dict[str, Any], names: Sequence[str]) -> Html:
    layout = join("", '<div class="line">{}</div>', ((_branch(root),) for root in table["lines"]))
    ends = join(
        " ", '<span class="end">{} on {}</span>', ((end["number"], end["onto"]) for end in table["open_ends"])
    )
    seats = join(
        "",
        '<div class="seat">{}<div class="row hand">{}</div></div>',
        (
            (
                _seat_header(names, index, f"{seat['points']} points so far", seat["active"]),
                join("", "{}", ((_bone(bone),) for bone in seat["hand"])) or "–",
            )
            for index, seat in enumerate(table["seats"])
        ),
    )
    return fmt(
        '<div class="drawing dominoes">{}<p>Round {} of {} · yard {}</p><div class="layout">{}</div>'
        '<div class="row"><span class="label">Open ends</span>{}</div><div class="seats">{}</div></div>',
        pip_symbols(),
        table["round"],
        table["rounds_total"],
        table["yard_size"],
        layout or fmt('<span class="muted">{}</span>', "no tile yet"),
        ends or "–",
        seats,
    )


# ------------------------------------------------------------------------------------------ Chickie Nuggs


def _nugget(nugget: dict[str, Any]) -> Html:
    """A nugget on a tray: its value, or face down (its value shown when the owner's view knows it)."""
    if nugget["face_down"]:
        return fmt(
            '<span class="nugget face-down" title="face down">{}</span>',
            nugget["value"] if nugget["value"] is not None else "?",
        )
    return fmt('<span class="nugget">{}</span>', nugget["value"])


def _hand(hand: Sequence[dict[str, Any]]) -> Html:
    if not hand:
        return fmt('<span class="muted">{}</span>', "–")
    return join(
        "",
        '<span class="card">{}<sub>×{}</sub></span>',
        ((card["card"].replace("_", " "), card["count"]) for card in hand),
    )


def draw_chickie_nuggs(table: dict[str, Any], names: Sequence[str]) -> Html:
    seats = []
    for index, seat in enumerate(table["seats"]):
        nuggets = join("", "{}", ((_nugget(nugget),) for nugget in seat["nuggets"]))
        sauces = join(
            "",
            '<span class="sauce {}">{}</span>',
            ((sauce, sauce.replace("_", " ")) for sauce in seat["sauces"]),
        )
        seats.append(
            fmt(
                '<div class="seat">{}<div class="tray">{}{}</div>'
                '<div class="row"><span class="label">Hand</span>{}</div></div>',
                _seat_header(names, index, f"tray worth {seat['points']}", seat["active"]),
                nuggets or fmt('<span class="muted">{}</span>', "empty tray"),
                sauces,
                _hand(seat["hand"]),
            )
        )
    return fmt(
        '<div class="drawing nuggs"><p>Pile {} · discard {}</p><div class="seats">{}</div></div>',
        table["pile_size"],
        table["discard_size"],
        Html("".join(seats)),
    )


# Each game's drawing of the plain data its view module gives (`games.registry.table_view`).
DRAWINGS: dict[str, Callable[[dict[str, Any], Sequence[str]], Html]] = {
    "nacho_pile": draw_nacho_pile,
    "nobody_but_us_chickens": draw_nobody_but_us_chickens,
    "chicken_foot": draw_chicken_foot,
    "chickie_nuggs": draw_chickie_nuggs,
}
