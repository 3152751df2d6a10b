"""Game specs and typed options.

A `GameSpec` names a game (id, version, display name), its player range and its variant options. Options are
typed (`Option`); `GameSpec.validate_options` turns user input (a dict of JSON values, or of strings from a
command line) into a complete, validated dict with every default filled in, and raises `OptionError` with a
clear message on an unknown option or a bad value. Bot parameters use the same `Option` type.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.core.errors import OptionError

OPTION_KINDS = ("bool", "int", "float", "choice", "str")


@dataclass(frozen=True)
class Option:
    """One typed option: `kind` is bool, int, float, choice or str."""

    name: str
    kind: str
    default: Any
    help: str = ""
    choices: tuple[Any, ...] = ()
    min: float | None = None
    max: float | None = None

    def __post_init__(self) -> None:
        if self.kind not in OPTION_KINDS:
            raise ValueError(f"option {self.name}: unknown kind {self.kind!r}")
        self.validate(self.default)

    def validate(self, value: Any) -> Any:
        """Return `value` converted to this option's type, or raise OptionError.

        Strings are accepted for every kind (they come from command lines and forms).
        """
        kind = self.kind
        if kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in (
                "true",
                "yes",
                "on",
                "1",
                "false",
                "no",
                "off",
                "0",
            ):
                return value.lower() in ("true", "yes", "on", "1")
            raise OptionError(f"option {self.name}: expected true or false, got {value!r}")
        if kind == "int":
            if isinstance(value, bool):
                raise OptionError(f"option {self.name}: expected a whole number, got {value!r}")
            if isinstance(value, str):
                try:
                    value = int(value.strip())
                except ValueError:
                    raise OptionError(f"option {self.name}: expected a whole number, got {value!r}") from None
            if not isinstance(value, int):
                raise OptionError(f"option {self.name}: expected a whole number, got {value!r}")
            self._check_range(value)
            return value
        if kind == "float":
            if isinstance(value, bool):
                raise OptionError(f"option {self.name}: expected a number, got {value!r}")
            if isinstance(value, str):
                try:
                    value = float(value.strip())
                except ValueError:
                    raise OptionError(f"option {self.name}: expected a number, got {value!r}") from None
            if not isinstance(value, int | float) or value != value:
                raise OptionError(f"option {self.name}: expected a number, got {value!r}")
            value = float(value)
            self._check_range(value)
            return value
        if kind == "choice":
            for choice in self.choices:
                if value == choice or (isinstance(value, str) and value == str(choice)):
                    return choice
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(f"option {self.name}: {value!r} is not one of {allowed}")
        if not isinstance(value, str):
            raise OptionError(f"option {self.name}: expected text, got {value!r}")
        return value

    def _check_range(self, value: float) -> None:
        if self.min is not None and value < self.min:
            raise OptionError(f"option {self.name}: {value} is below the minimum {self.min:g}")
        if self.max is not None and value > self.max:
            raise OptionError(f"option {self.name}: {value} is above the maximum {self.max:g}")

    def describe(self) -> dict[str, Any]:
        """A JSON description of the option, for the CLI, the API and forms."""
        out: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "default": self.default,
            "help": self.help,
        }
        if self.choices:
            out["choices"] = list(self.choices)
        if self.min is not None:
            out["min"] = self.min
        if self.max is not None:
            out["max"] = self.max
        return out


def validate_options(
    options: tuple[Option, ...], values: Mapping[str, Any] | None, what: str = "option"
) -> dict[str, Any]:
    """Validate `values` against `options`; return a complete dict (defaults filled) in declaration order."""
    if not values:  # every default (each checked when its Option was made)
        return {opt.name: opt.default for opt in options}
    values = dict(values)
    known = {opt.name for opt in options}
    unknown = sorted(set(values) - known)
    if unknown:
        allowed = ", ".join(sorted(known)) or "none"
        raise OptionError(f"unknown {what} {', '.join(unknown)} (allowed: {allowed})")
    return {
        opt.name: opt.validate(values[opt.name]) if opt.name in values else opt.default for opt in options
    }


@dataclass(frozen=True)
class GameSpec:
    """What a game is: id, version, display name, player range and variant options.

    `score_order` says whether the game's single score decides places: "high" (highest total wins),
    "low" (lowest wins, e.g. Chicken Foot) or None (places need more than one number; enter places).
    `player_range` may narrow the player range by option (e.g. a double-six domino set seats at most 4);
    it returns (min, max) for a validated option dict.
    """

    id: str
    version: int
    name: str
    min_players: int
    max_players: int
    options: tuple[Option, ...] = ()
    score_order: str | None = "high"
    summary: str = ""
    player_range: Callable[[Mapping[str, Any]], tuple[int, int]] | None = field(default=None, compare=False)

    def validate_options(
        self, values: Mapping[str, Any] | None = None, num_players: int | None = None
    ) -> dict[str, Any]:
        """Complete and validate variant options; with `num_players`, also check the player count."""
        options = validate_options(self.options, values, "option")
        if num_players is not None:
            self.check_players(num_players, options)
        return options

    def players_allowed(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """(min, max) players for these validated options."""
        return self.player_range(options) if self.player_range else (self.min_players, self.max_players)

    def check_players(self, num_players: int, options: Mapping[str, Any]) -> None:
        low, high = self.players_allowed(options)
        if (
            isinstance(num_players, bool)
            or not isinstance(num_players, int)
            or not low <= num_players <= high
        ):
            raise OptionError(
                f"{self.name} takes {low} to {high} players with these options, not {num_players}"
            )

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "version": self.version,
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "score_order": self.score_order,
            "summary": self.summary,
            "options": [opt.describe() for opt in self.options],
        }
