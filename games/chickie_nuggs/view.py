"""What a replay draws of a Chickie Nuggs table, as plain data read from the seats' observations.

`table(state)` gives the pile's and the discard's sizes and, for each seat, its tray as its owner sees it
(nuggets, face-down ones with their value when the owner knows it, sauces, points), its hand (card names
with counts, from the seat's own observation) and whether it is to act.
A nugget is `{"value": 1-4 or None (face down, value unknown), "face_down": bool}`.
"""

from __future__ import annotations

from typing import Any

from games.core.state import State


def nugget(seen: int | dict[str, Any]) -> dict[str, Any]:
    """A nugget of a tray in an observation: a value, or `{"face_down": [the values it may have]}`."""
    if isinstance(seen, dict):
        values = seen.get("face_down", [])
        return {"value": values[0] if len(values) == 1 else None, "face_down": True}
    return {"value": seen, "face_down": False}


def table(state: State) -> dict[str, Any]:
    """The table after the last event, each tray and hand as its owner sees it."""
    seen = [state.observation(seat) for seat in range(state.num_players)]
    public = seen[0]
    seats = []
    for seat in range(public["num_players"]):
        tray = seen[seat]["trays"][seat]
        seats.append(
            {
                "nuggets": [nugget(value) for value in tray["nuggets"]],
                "sauces": list(tray["sauces"]),
                "points": public["tray_points"][seat],
                "hand": [
                    {"card": name, "count": count} for name, count in seen[seat]["hand"].items() if count
                ],
                "active": seat in public.get("to_act", []),
            }
        )
    return {"pile_size": public["pile_size"], "discard_size": sum(public["discard"].values()), "seats": seats}
