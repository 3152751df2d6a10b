"""What a replay draws of a Nobody but Us Chickens table, as plain data read from the public observation.

`table(state)` gives the night and hour (from 1, as a person counts), the coop, the cards just revealed and
each seat's hand, Chickens claimed tonight, points and titles (Fox King, Top Dog), and who takes now.
"""

from __future__ import annotations

from typing import Any

from games.core.state import State


def table(state: State) -> dict[str, Any]:
    """The whole table (every hand is known between two hours: the game deals no hidden cards)."""
    seen = state.observation(0)
    return {
        "night": min(seen["night"] + 1, seen["nights"]),
        "nights": seen["nights"],
        "hour": min(seen["hour"] + 1, seen["hours"]),
        "hours": seen["hours"],
        "coop": list(seen["coop"]),
        "revealed": list(seen["revealed"] or ()),
        "seats": [
            {
                "hand": list(seen["hands"][seat]),
                "claimed": list(seen["claimed"][seat]),
                "points": seen["totals"][seat],
                "fox_king": seat == seen["fox_king"],
                "top_dog": seat == seen["top_dog"],
                "active": seat == seen["taker"],
            }
            for seat in range(seen["num_players"])
        ],
    }
