"""Checks of plain values that arrive from JSON bodies, forms and service callers.

Python counts `True` as the int 1; a person who sent `true` for a place, a seed or an id did not mean 1, so
these checks refuse booleans.
"""

from __future__ import annotations

from typing import Any


def is_int(value: Any) -> bool:
    """Whether `value` is a whole number (an int, not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> bool:
    """Whether `value` is a number (an int or a float, not a bool)."""
    return isinstance(value, int | float) and not isinstance(value, bool)
