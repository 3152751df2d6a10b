"""The one place that reads the environment.

Every setting that can change between machines comes through here, so `grep env.` in the settings modules
lists every knob. Bad values raise `ImproperlyConfigured` with the variable's name, at startup.
"""

from __future__ import annotations

import os
import re
from typing import overload

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off", "")
# A request rate as Django REST framework's throttles read it: a count per second, minute, hour or day.
RATE = re.compile(r"[0-9]+/(s|sec|second|m|min|minute|h|hour|d|day)")


@overload
def text(name: str, default: str) -> str: ...
@overload
def text(name: str, default: None = None) -> str | None: ...


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
    raise ImproperlyConfigured(
        f"{name} must be one of {', '.join(TRUE_WORDS + FALSE_WORDS[:-1])}, not {raw!r}"
    )


def words(name: str, default: tuple[str, ...] = ()) -> list[str]:
    """A comma-separated list variable, blanks dropped."""
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def number(name: str, default: int, minimum: int = 0) -> int:
    """A whole-number variable, at least `minimum`."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    if not re.fullmatch(r"[0-9]+", raw.strip()) or int(raw) < minimum:
        raise ImproperlyConfigured(f"{name} must be a whole number of at least {minimum}, not {raw!r}")
    return int(raw)


def rate(name: str, default: str) -> str:
    """A request-rate variable such as `600/minute` (a count per s, sec, second, m, min, minute, h, hour, d,
    day)."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    if not RATE.fullmatch(raw.strip()):
        raise ImproperlyConfigured(
            f"{name} must be a count per second, minute, hour or day like 600/minute, not {raw!r}"
        )
    return raw.strip()


SITE_ADDRESS = re.compile(r"https?://[A-Za-z0-9.\-\[\]:]+")


def site_url(name: str, default: str) -> str:
    """The site's address as people reach it (`https://example.org`, `http://localhost:8001`): scheme and
    host, an optional port, no path; a trailing slash is dropped."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().rstrip("/")
    if not SITE_ADDRESS.fullmatch(value):
        raise ImproperlyConfigured(
            f"{name} must be the site's address like https://example.org or http://localhost:8001 (scheme "
            f"and host, an optional port, no path), not {raw!r}"
        )
    return value
