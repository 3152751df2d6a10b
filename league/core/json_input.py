"""JSON that arrives from outside (API bodies, JSON typed into form fields), parsed with a bound on nesting.

Python's `json` recurses once per array or object and fails with a RecursionError (a 500) near 1,000
levels. No value the league takes nests anywhere near `MAX_DEPTH` (options and points are two levels deep),
so deeper text is refused before it is parsed, by a scan that keeps a counter instead of recursing.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 32

# A whole string literal (escapes included, so a quoted bracket is skipped with its string), or one bracket.
_STRING_OR_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)


class JSONTooDeep(ValueError):
    """JSON text nests arrays and objects deeper than the bound."""

    def __init__(self, limit: int):
        super().__init__(f"arrays and objects are nested deeper than {limit} levels")
        self.limit = limit


def check_depth(text: str, *, limit: int = MAX_DEPTH) -> None:
    """Raise JSONTooDeep if `text` opens more than `limit` arrays and objects inside each other.

    Brackets inside string literals do not count. Text that is not JSON passes or fails this check by
    its brackets alone; `json.loads` then names what is wrong with it.
    """
    if text.count("[") + text.count("{") <= limit:  # too few brackets to nest that deep: skip the scan
        return
    depth = 0
    for token in _STRING_OR_BRACKET.finditer(text):
        match token.group():
            case "[" | "{":
                depth += 1
                if depth > limit:
                    raise JSONTooDeep(limit)
            case "]" | "}":
                depth -= 1


def parse_json(text: str, *, limit: int = MAX_DEPTH, **loads_options: Any) -> Any:
    """`json.loads(text, **loads_options)` once `text` has passed `check_depth`; a ValueError (JSONTooDeep
    or json.JSONDecodeError) says what is wrong."""
    check_depth(text, limit=limit)
    return json.loads(text, **loads_options)
