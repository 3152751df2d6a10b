"""The range of a number that people set (a tournament's rounds, a bot's memory, a league's batch size): what
the domain allows, and never more than its database column stores.

Each setting has one `Bounds`, next to the service check that enforces it. The service calls `check`; the
page form's and the API serializer's field take `limits` (their `min_value` and `max_value`), so pages,
API and admin accept exactly the same numbers, and the schema documents them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from league.core.checks import is_int, is_number
from league.core.errors import UserError

_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,19}")  # ASCII digits only: int() also reads "²" and "٣"


def whole_number(text: str) -> int | None:
    """The whole number `text` writes in ASCII digits (a minus allowed, at most 19 digits: about what 64 bits
    hold), or None when it writes none."""
    return int(text) if _WHOLE_NUMBER.fullmatch(text) else None


def _shown(number: int | float) -> str:
    return f"{number:g}" if isinstance(number, float) else str(number)


@dataclass(frozen=True)
class Bounds:
    low: int | float
    high: int | float
    whole: bool = True

    @property
    def limits(self) -> dict[str, int | float]:
        """The keyword arguments of a Django form field or a DRF serializer field that take these bounds."""
        return {"min_value": self.low, "max_value": self.high}

    def contains(self, value: Any) -> bool:
        """Whether `value` is a number (`whole`: a whole number; never a bool, see `league.core.checks`) from
        `low` to `high`. NaN is not."""
        return (is_int(value) if self.whole else is_number(value)) and self.low <= value <= self.high

    def check(self, value: Any, field: str) -> Any:
        """`value` if the bounds contain it; else a UserError on `field` saying what they take."""
        if not self.contains(value):
            kind = "a whole number" if self.whole else "a number"
            raise UserError(
                f"{field.replace('_', ' ')} must be {kind} from {_shown(self.low)} to {_shown(self.high)}",
                field=field,
            )
        return value


ROW_IDS = Bounds(
    1, 2**63 - 1
)  # what a 64-bit primary key holds: a larger id names no row, and SQLite refuses it
