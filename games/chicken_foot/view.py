"""What a replay draws of a Chicken Foot table, as plain data read from the seats' observations.

`table(state)` gives the round, the yard's size, the layout as trees of tiles from the lead double, the open
ends and each seat's hand (from that seat's own observation: a spectator of a finished match sees every hand).
A tile is `{"bone": "6-1", "ends": [6, 1], "double": False, "seat": 2, "children": [...]}`: `ends` puts first
the number that joins the tile it was played onto (a bone in hand: the high end first), `seat` is who played
it (None in a hand), and `children` are the tiles played onto it, in the order they were played.
"""

from __future__ import annotations

from typing import Any

from games.core.state import State


def bone(name: str, joins: int | None = None, seat: int | None = None) -> dict[str, Any]:
    """A bone "high-low", its joining end first."""
    high, low = (int(part) for part in name.split("-"))
    ends = [high, low] if joins is None or joins == high else [low, high]
    return {"bone": name, "ends": ends, "double": high == low, "seat": seat, "children": []}


def table(state: State) -> dict[str, Any]:
    """The table after the last event, every hand shown."""
    seen = [state.observation(seat) for seat in range(state.num_players)]
    public = seen[0]
    tiles: dict[str | None, list[dict[str, Any]]] = {}
    for tile in public["layout"]:
        tiles.setdefault(tile["onto"], []).append(tile)

    def grow(tile: dict[str, Any]) -> dict[str, Any]:
        out = bone(tile["bone"], tile["joins"], tile["seat"])
        out["children"] = [grow(child) for child in tiles.get(tile["bone"], [])]
        return out

    return {
        "round": public["round"],
        "rounds_total": public["rounds_total"],
        "yard_size": public["yard_size"],
        "lines": [grow(root) for root in tiles.get(None, [])],
        "open_ends": [{"number": end["number"], "onto": end["onto"]} for end in public["open_ends"]],
        "seats": [
            {
                "hand": [bone(name) for name in seen[seat]["hand"]],
                "points": public["scores"][seat],
                "active": seat == public.get("turn"),
            }
            for seat in range(public["num_players"])
        ],
    }
