"""The bounds of numbers people set (`league.core.bounds`) as the typed keyword arguments of DRF number
fields.

`Bounds.limits` gives `min_value` and `max_value` typed `int | float`; an `IntegerField` takes ints and a
`FloatField` floats. A serializer field spreads `whole_limits(bounds)` or `number_limits(bounds)` instead:
the same dict, typed for its field.
"""

from typing import TypedDict, cast

from league.core.bounds import Bounds


class WholeLimits(TypedDict):
    """The bounds of an `IntegerField`."""

    min_value: int
    max_value: int


class NumberLimits(TypedDict):
    """The bounds of a `FloatField`."""

    min_value: float
    max_value: float


def whole_limits(bounds: Bounds) -> WholeLimits:
    """`bounds.limits` for an `IntegerField`."""
    # A whole number's bounds are ints: every Bounds with whole=True is written with int literals.
    return cast(WholeLimits, bounds.limits)


def number_limits(bounds: Bounds) -> NumberLimits:
    """`bounds.limits` for a `FloatField`."""
    # Every bound is a float to a FloatField: mypy takes an int where a float is expected, but not as the
    # value type of a dict.
    return cast(NumberLimits, bounds.limits)
