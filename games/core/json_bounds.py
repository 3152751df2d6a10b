"""JSON from outside, parsed into plain values within bounds: the league's API bodies and form fields
(`league.core.json_input`) and the answers of bot programs (`games.core.protocol`) go through `parse_json`.

Python's `json` accepts three things that break what comes after (in the league, a 500), and `parse_json`
refuses each with a ValueError that says what is wrong:

- nesting: `json` recurses once per array or object and fails with a RecursionError near 1,000 levels. No
  value the league takes nests anywhere near `MAX_DEPTH` (options and points are two levels deep), so deeper
  text is refused before it is parsed, by a scan linear in the text that keeps a counter instead of recursing;
- a lone UTF-16 surrogate (`"\\ud800"` without its pair): not a character, so no database stores it as
  text and no response can encode it;
- a number too large for a float (`1e999` becomes infinity): JSON has no infinity, so it could never be
  stored in a JSON column or sent back.
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any, cast

MAX_DEPTH = 32

# One whole string literal, escapes included (a quoted bracket is skipped with its string), and the text
# between string literals; every quantifier is possessive, so neither ever backtracks.
_STRING = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"', re.DOTALL)
_OUTSIDE_STRINGS = re.compile(r'(?:[^"]++|"[^"\\]*+(?:\\.[^"\\]*+)*+")*+', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]++")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
# Decoded text holds no surrogates: only a \uD800-\uDFFF escape makes one.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class JSONTooDeep(ValueError):
    """JSON text nests arrays and objects deeper than the bound."""

    def __init__(self, limit: int):
        super().__init__(f"arrays and objects are nested deeper than {limit} levels")
        self.limit = limit


def _brackets(text: str) -> str:
    """The brackets of `text` that stand outside string literals, in order.

    A string literal opens at a quote that stands outside one and closes at the next quote that no backslash
    escapes. If one never closes, every quote after it is escaped inside it (a quote it reaches unescaped
    would have closed it), so no later quote opens a string either: from there on every bracket counts. One
    match finds where such a string opens (or the end), so the work is linear in the text; a scan that tried a
    string at each quote again, as a regular expression's search does, was quadratic on an unterminated string
    of escaped quotes.
    """
    # The pattern matches at any position (it may match nothing), so there is always a match: its end is a
    # quote whose string never closes, or len(text).
    unclosed = cast("re.Match[str]", _OUTSIDE_STRINGS.match(text)).end()
    outside = _STRING.sub("", text[:unclosed]) + text[unclosed + 1 :]
    return _NOT_BRACKET.sub("", outside)


def check_depth(text: str, *, limit: int = MAX_DEPTH) -> None:
    """Raise JSONTooDeep if `text` opens more than `limit` arrays and objects inside each other.

    Brackets inside string literals do not count; a closing bracket with nothing open takes the count below
    zero. Text that is not JSON passes or fails this check by its brackets alone; `json.loads` then names what
    is wrong with it. Linear in the length of the text (see `_brackets`).
    """
    if text.count("[") + text.count("{") <= limit:  # too few brackets to nest that deep: skip the scan
        return
    if max(accumulate(map(_STEP.__getitem__, _brackets(text))), default=0) > limit:
        raise JSONTooDeep(limit)


def _finite(literal: str) -> float:
    number = float(literal)
    if not math.isfinite(number):
        raise ValueError(f"the number {literal} is too large")
    return number


def parse_json(text: str, *, limit: int = MAX_DEPTH, **loads_options: Any) -> Any:
    """`json.loads(text, **loads_options)`, refusing what the module docstring lists; a ValueError
    (JSONTooDeep, json.JSONDecodeError or a plain one) says what is wrong."""
    check_depth(text, limit=limit)
    value = json.loads(text, parse_float=_finite, **loads_options)
    if _SURROGATE_ESCAPE.search(text):  # rare, but common surrogate pairs (emoji as \ud83d\ude00) pass here
        try:
            json.dumps(value, ensure_ascii=False).encode()
        except UnicodeEncodeError:
            raise ValueError(
                "a \\u escape stands for half a UTF-16 surrogate pair, which is not a character"
            ) from None
    return value
