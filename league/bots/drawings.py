"""Replays of bot matches, frame by frame, each game drawn as a person would want to see it.

`replay_frame(record, names, step)` rebuilds a finished match from its record up to one step, with the same
legality checks as `games.core.replay`, and returns a `Frame`: a caption (the step's move or chance draw, in
words) and an HTML drawing of the whole table. A replay of a finished bot match shows every hand (the view of a
spectator after the game), built from each seat's own observation, so it never reads engine internals.

- Nacho Pile: the piles, chips by value in front of and on each plate, this turn's draw, the bag;
- Nobody but Us Chickens: the coop, each hand, the chickens claimed tonight and the totals;
- Chicken Foot: the domino layout as a tree of tiles from the spinner, the open ends, each hand;
- Chickie Nuggs: each tray (nuggets and sauces, points), each hand, the pile and the discard.
Another game gets its engine's text picture.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from games import registry
from games.core.errors import IllegalAction
from games.core.state import Observation, State


class ReplayFailed(Exception):
    """The record does not replay on this engine (another version, or a bad event)."""


@dataclass(frozen=True)
class Frame:
    step: int
    caption: str
    drawing: SafeString


def replay_frame(record: dict, names: Sequence[str], step: int) -> tuple[Frame, int]:
    """The table after `step` events (0 = before the first), and the number of events in the match.

    Replays the record from its start with the engine's legality checks; raises ReplayFailed on a record of
    another version or an event that does not apply. `step` is clamped to the match's length.
    """
    try:
        game = registry.get_game(record["game"])
    except Exception as exc:  # an unknown game id: shown as a message, never a 500
        raise ReplayFailed(str(exc)) from None
    if record.get("version") != game.spec.version:
        raise ReplayFailed(
            f"this record is of {game.spec.name} version {record.get('version')}; the engine is version "
            f"{game.spec.version}, so it cannot be replayed"
        )
    events = record["events"]
    step = max(0, min(step, len(events)))
    num_players = len(record["seats"])
    options = game.spec.validate_options(record["options"], num_players)
    state = game.new_state(num_players, options, random.Random(record["seed"]))
    caption = "The table before the first move"
    for index, (kind, value) in enumerate(events[:step], start=1):
        # Words are read on the state right after the event, as the engines' command-line account does.
        try:
            if kind == "c":
                state.apply_chance(value)
                if index == step:
                    caption = state.describe_chance(value)
            else:
                actions = {int(seat): action for seat, action in value.items()}
                state.apply(actions)
                if index == step:
                    caption = "; ".join(
                        f"{names[seat]}: {state.describe_action(seat, action)}"
                        for seat, action in actions.items()
                    )
        except IllegalAction as exc:
            raise ReplayFailed(f"event {index} does not replay: {exc}") from None
    return Frame(
        step, _with_names(caption, names), DRAWINGS.get(game.spec.id, _draw_text)(state, names)
    ), len(events)


SEAT_WORDS = re.compile(r"\bseat (\d+)\b")


def _with_names(caption: str, names: Sequence[str]) -> str:
    """The engine's words with "seat 2" replaced by the name of the bot in seat 2."""

    def name(match: re.Match) -> str:
        seat = int(match.group(1))
        return names[seat] if seat < len(names) else match.group(0)

    return SEAT_WORDS.sub(name, caption)


def _observations(state: State) -> list[Observation]:
    """Every seat's own observation (a spectator's view of a finished match shows every hand)."""
    first = state.observation(0)
    return [first, *(state.observation(seat) for seat in range(1, first["num_players"]))]


def _draw_text(state: State, names: Sequence[str]) -> SafeString:
    return format_html('<pre class="table-text">{}</pre>', state.render())


def _seat_header(names: Sequence[str], seat: int, detail: str, active: bool) -> SafeString:
    return format_html(
        '<div class="seat-head{}"><strong>{}</strong> <span class="muted">{}</span></div>',
        " active" if active else "",
        names[seat],
        detail,
    )


# ----------------------------------------------------------------------------------------------- Nacho Pile

NACHO_VALUES = range(1, 8)


def _chip(label: str, kind: str, count: int = 1) -> SafeString:
    badge = format_html("<sub>×{}</sub>", count) if count > 1 else ""
    return format_html('<span class="chip {}">{}{}</span>', kind, label, badge)


def _piles(piles: dict, with_specials: bool) -> SafeString:
    chips = []
    for value in NACHO_VALUES:
        numbers, wilds = piles["numbers"][value - 1], piles["wilds"][value - 1]
        if numbers:
            chips.append(_chip(str(value), f"n{value}", numbers))
        if wilds:
            chips.append(_chip(f"W{value}", "wild", wilds))
    if with_specials:
        chips.extend(
            _chip(kind.title(), "special", count) for kind, count in piles["specials"].items() if count
        )
    return mark_safe("".join(chips)) if chips else format_html('<span class="muted">{}</span>', "–")


def draw_nacho_pile(state: State, names: Sequence[str]) -> SafeString:
    table = state.observation(0)
    seats = []
    for seat in range(table["num_players"]):
        plate_total = sum(table["plates"][seat]["numbers"]) + sum(table["plates"][seat]["wilds"])
        plate_total += sum(table["plates"][seat]["specials"].values())
        seats.append(
            format_html(
                '<div class="seat">{}<div class="row"><span class="label">In front</span>{}</div>'
                '<div class="row"><span class="label">Plate</span>{}</div></div>',
                _seat_header(
                    names,
                    seat,
                    f"{plate_total} chips on the plate",
                    seat == table["current"] and table["phase"] != "over",
                ),
                _piles(table["fronts"][seat], False),
                _piles(table["plates"][seat], True),
            )
        )
    drawn = format_html_join("", "{}", ((_chip(str(label), _chip_kind(label)),) for label in table["drawn"]))
    bag = format_html_join(
        "",
        "{}",
        ((_chip(str(label), _chip_kind(label), count),) for label, count in table["bag"].items() if count),
    )
    last = (
        format_html(" · last chip {}", _chip(str(table["last_chip"]), _chip_kind(table["last_chip"])))
        if table["last_chip"] is not None
        else ""
    )
    return format_html(
        '<div class="drawing nacho"><div class="row"><span class="label">Drawn this turn</span>{}</div>'
        '<div class="seats">{}</div><div class="row bag"><span class="label">Bag ({})</span>{}{}</div></div>',
        drawn or format_html('<span class="muted">{}</span>', "nothing yet"),
        mark_safe("".join(seats)),
        sum(table["bag"].values()),
        bag,
        last,
    )


def _chip_kind(label) -> str:
    if isinstance(label, int):
        return f"n{label}"
    return "wild" if label == "W" else "special"


# ------------------------------------------------------------------------------------ Nobody but Us Chickens


def _cards(cards: Sequence[str]) -> SafeString:
    if not cards:
        return format_html('<span class="muted">{}</span>', "–")
    return format_html_join("", '<span class="card {}">{}</span>', ((card, card) for card in cards))


def draw_nobody_but_us_chickens(state: State, names: Sequence[str]) -> SafeString:
    table = state.observation(0)
    seats = format_html_join(
        "",
        '<div class="seat">{}<div class="row"><span class="label">Hand</span>{}</div>'
        '<div class="row"><span class="label">Claimed tonight</span>{}</div></div>',
        (
            (
                _seat_header(
                    names,
                    seat,
                    f"{table['totals'][seat]} points"
                    + (" · Fox King" if seat == table["fox_king"] else "")
                    + (" · Top Dog" if seat == table["top_dog"] else ""),
                    seat == table["taker"],
                ),
                _cards(table["hands"][seat]),
                _cards(table["claimed"][seat]),
            )
            for seat in range(table["num_players"])
        ),
    )
    revealed = (
        _cards(table["revealed"]) if table["revealed"] else format_html('<span class="muted">{}</span>', "–")
    )
    return format_html(
        '<div class="drawing chickens"><p>Night {} of {}, hour {} of {}</p>'
        '<div class="coop"><span class="label">The coop</span>{}</div>'
        '<div class="row"><span class="label">Just revealed</span>{}</div><div class="seats">{}</div></div>',
        min(table["night"] + 1, table["nights"]),
        table["nights"],
        min(table["hour"] + 1, table["hours"]),
        table["hours"],
        _cards(table["coop"]),
        revealed,
        seats,
    )


# ------------------------------------------------------------------------------------------- Chicken Foot

PIPS = {
    0: (), 1: ((2, 2),), 2: ((1, 1), (3, 3)), 3: ((1, 1), (2, 2), (3, 3)), 4: ((1, 1), (1, 3), (3, 1), (3, 3)),
    5: ((1, 1), (1, 3), (2, 2), (3, 1), (3, 3)), 6: ((1, 1), (1, 2), (1, 3), (3, 1), (3, 2), (3, 3)),
}  # fmt: skip


def pip_symbols() -> SafeString:
    """SVG symbols of the domino halves 0-6, defined once per page and used by every tile."""
    symbols = format_html_join(
        "",
        '<symbol id="pips-{}" viewBox="0 0 20 20">{}</symbol>',
        (
            (
                value,
                format_html_join("", '<circle cx="{}" cy="{}" r="1.7"/>', ((x * 5, y * 5) for x, y in dots)),
            )
            for value, dots in PIPS.items()
        ),
    )
    return format_html(
        '<svg width="0" height="0" style="position:absolute" aria-hidden="true">{}</svg>', symbols
    )


def _half(value: int) -> SafeString:
    if value in PIPS:
        return format_html('<svg class="half" aria-hidden="true"><use href="#pips-{}"/></svg>', value)
    return format_html('<span class="half number">{}</span>', value)


def _bone(bone: str, joins: int | None = None, seat: int | None = None) -> SafeString:
    """A tile drawn with the end that joins the layout first; doubles stand across the line."""
    high, low = (int(part) for part in bone.split("-"))
    first, second = (high, low) if joins is None or joins == high else (low, high)
    double = " double" if high == low else ""
    owner = f" s{seat}" if seat is not None else ""
    return format_html(
        '<span class="bone{}{}" title="{}">{}{}</span>', double, owner, bone, _half(first), _half(second)
    )


def draw_chicken_foot(state: State, names: Sequence[str]) -> SafeString:
    observations = _observations(state)
    table = observations[0]
    children: dict[str | None, list[dict]] = {}
    for tile in table["layout"]:
        children.setdefault(tile["onto"], []).append(tile)

    def branch(tile: dict) -> SafeString:
        below = children.get(tile["bone"], [])
        if tile["bone"].split("-")[0] == tile["bone"].split("-")[1] or len(below) != 1:
            nested = format_html_join("", "<li>{}</li>", ((branch(child),) for child in below))
            return (
                format_html(
                    '{}<ul class="arm">{}</ul>', _bone(tile["bone"], tile["joins"], tile["seat"]), nested
                )
                if below
                else _bone(tile["bone"], tile["joins"], tile["seat"])
            )
        return format_html("{}{}", _bone(tile["bone"], tile["joins"], tile["seat"]), branch(below[0]))

    roots = children.get(None, [])
    layout = format_html_join("", '<div class="line">{}</div>', ((branch(root),) for root in roots))
    ends = format_html_join(
        " ", '<span class="end">{} on {}</span>', ((end["number"], end["onto"]) for end in table["open_ends"])
    )
    seats = format_html_join(
        "",
        '<div class="seat">{}<div class="row hand">{}</div></div>',
        (
            (
                _seat_header(
                    names, seat, f"{table['scores'][seat]} points so far", seat == table.get("turn")
                ),
                format_html_join("", "{}", ((_bone(bone),) for bone in observations[seat]["hand"])) or "–",
            )
            for seat in range(table["num_players"])
        ),
    )
    return format_html(
        '<div class="drawing dominoes">{}<p>Round {} of {} · yard {}</p><div class="layout">{}</div>'
        '<div class="row"><span class="label">Open ends</span>{}</div><div class="seats">{}</div></div>',
        pip_symbols(),
        table["round"],
        table["rounds_total"],
        table["yard_size"],
        layout or format_html('<span class="muted">{}</span>', "no tile yet"),
        ends or "–",
        seats,
    )


# ------------------------------------------------------------------------------------------ Chickie Nuggs


def _nugget(nugget) -> SafeString:
    """A nugget on a tray: its value, or face down (its value shown when the owner's view knows it)."""
    if isinstance(nugget, dict):
        values = nugget.get("face_down", [])
        return format_html(
            '<span class="nugget face-down" title="face down">{}</span>',
            values[0] if len(values) == 1 else "?",
        )
    return format_html('<span class="nugget">{}</span>', nugget)


def _hand(hand: dict) -> SafeString:
    cards = [(name, count) for name, count in hand.items() if count]
    if not cards:
        return format_html('<span class="muted">{}</span>', "–")
    return format_html_join(
        "",
        '<span class="card">{}<sub>×{}</sub></span>',
        ((name.replace("_", " "), count) for name, count in cards),
    )


def draw_chickie_nuggs(state: State, names: Sequence[str]) -> SafeString:
    observations = _observations(state)
    table = observations[0]
    seats = []
    for seat in range(table["num_players"]):
        tray = observations[seat]["trays"][seat]  # the owner's view: face-down nuggets shown
        nuggets = format_html_join("", "{}", ((_nugget(nugget),) for nugget in tray["nuggets"]))
        sauces = format_html_join(
            "",
            '<span class="sauce {}">{}</span>',
            ((sauce, sauce.replace("_", " ")) for sauce in tray["sauces"]),
        )
        seats.append(
            format_html(
                '<div class="seat">{}<div class="tray">{}{}</div><div class="row"><span class="label">Hand</span>{}</div></div>',
                _seat_header(
                    names, seat, f"tray worth {table['tray_points'][seat]}", seat in table.get("to_act", [])
                ),
                nuggets or format_html('<span class="muted">{}</span>', "empty tray"),
                sauces,
                _hand(observations[seat]["hand"]),
            )
        )
    return format_html(
        '<div class="drawing nuggs"><p>Pile {} · discard {}</p><div class="seats">{}</div></div>',
        table["pile_size"],
        sum(table["discard"].values()),
        mark_safe("".join(seats)),
    )


DRAWINGS: dict[str, Callable[[State, Sequence[str]], SafeString]] = {
    "nacho_pile": draw_nacho_pile,
    "nobody_but_us_chickens": draw_nobody_but_us_chickens,
    "chicken_foot": draw_chicken_foot,
    "chickie_nuggs": draw_chickie_nuggs,
}
