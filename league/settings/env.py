"""The one place that reads the environment.

Every setting that can change between machines comes through here, so `grep env.` in the settings modules
lists every knob. Bad values raise `ImproperlyConfigured` with the variable's name, at startup.
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off", "")


def text(name: str, default: str | None = None) -> str | None:
    """The variable's value, or `default` when it is unset."""
    return os.environ.get(name, default)


def flag(name: str, default: bool = False) -> bool:
    """A boolean variable: 1/true/yes/on or 0/false/no/off (case-insensitive)."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(f"{name} must be one of {', '.join(TRUE_WORDS + FALSE_WORDS[:-1])}, not {raw!r}")


def words(name: str, default: tuple[str, ...] = ()) -> list[str]:
    """A comma-separated list variable, blanks dropped."""
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]
