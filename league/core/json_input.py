"""JSON that arrives from outside (API bodies, JSON typed into form fields), parsed into values the league can
store and send back: the bounded parse of `games.core.json_bounds`, the very one with which the workers read
the bots' answers (`games.core.protocol`). Its module docstring lists what it refuses, and why."""

from games.core.json_bounds import MAX_DEPTH, JSONTooDeep, check_depth, parse_json

__all__ = ["MAX_DEPTH", "JSONTooDeep", "check_depth", "parse_json"]
