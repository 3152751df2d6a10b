"""What a replay draws of a Nacho Pile table, as plain data read from the public observation.

`table(state)` gives every seat's chips in front and on the plate, this turn's draw, the bag and the last
chip. A chip (or a stack of one kind) is `{"label": "3" | "W3" | "W" | "Steal" | ..., "kind": "number" |
"wild" | "special", "number": the value it counts as (0 for a special or an unvalued Wild), "count": how
many}`.
"""

from __future__ import annotations

from typing import Any

from games.core.state import State

VALUES = range(1, 8)


def chip(label: int | str, count: int = 1) -> dict[str, Any]:
    """A chip by its label in an observation (1-7, "W", a special's name; the bag's keys are their text)."""
    text = str(label)
    if text.isdigit():
        return {"label": text, "kind": "number", "number": int(text), "count": count}
    return {"label": text, "kind": "wild" if text == "W" else "special", "number": 0, "count": count}


def pile(chips: dict[str, Any]) -> list[dict[str, Any]]:
    """A front or a plate: by value its numbers then the Wilds given that value, then its specials."""
    out = []
    for value in VALUES:
        numbers, wilds = chips["numbers"][value - 1], chips["wilds"][value - 1]
        if numbers:
            out.append({"label": str(value), "kind": "number", "number": value, "count": numbers})
        if wilds:
            out.append({"label": f"W{value}", "kind": "wild", "number": value, "count": wilds})
    for name, count in chips.get("specials", {}).items():
        if count:
            out.append({"label": name.title(), "kind": "special", "number": 0, "count": count})
    return out


def table(state: State) -> dict[str, Any]:
    """The whole table (Nacho Pile hides nothing): seats, this turn's draw, the bag, the last chip."""
    seen = state.observation(0)
    seats = []
    for seat in range(seen["num_players"]):
        plate = seen["plates"][seat]
        seats.append(
            {
                "front": pile(seen["fronts"][seat]),
                "plate": pile(plate),
                "plate_chips": sum(plate["numbers"]) + sum(plate["wilds"]) + sum(plate["specials"].values()),
                "active": seat == seen["current"] and seen["phase"] != "over",
            }
        )
    last = seen["last_chip"]
    return {
        "seats": seats,
        "drawn": [chip(label) for label in seen["drawn"]],
        "bag": [chip(label, count) for label, count in seen["bag"].items() if count],
        "bag_size": sum(seen["bag"].values()),
        "last_chip": chip(last) if last is not None else None,
    }
