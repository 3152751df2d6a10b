"""How often `manage.py serve` has restarted the worker and beat, shared with the web process's `/health/`.

`serve` writes the counts to `settings.SERVE_RESTARTS_FILE` (in var/) when it starts (all zero) and after each
restart, and removes the file when it stops; without the file (a deployment that runs its processes another
way) the health page shows no count. The file is replaced whole, so a reader never sees half of it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from django.conf import settings

RESTARTED_PROCESSES = ("worker", "beat")
# The backoff before a restart: the base delay doubled after each restart in a row, at most this long.
MAX_RESTART_DELAY_SECONDS = 60.0
# A process that ran at least this long before it died starts the backoff again from the base delay.
STABLE_RUN_SECONDS = 60.0


def restart_delay(*, base: float, restarts_in_a_row: int) -> float:
    """Seconds to wait before the next restart: base, 2 × base, 4 × base ..., at most 60 s."""
    return min(base * 2**restarts_in_a_row, MAX_RESTART_DELAY_SECONDS)


def restarts_file() -> Path:
    return Path(settings.SERVE_RESTARTS_FILE)


def restart_counts_write(counts: dict[str, int]) -> None:
    path = restarts_file()
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps({name: counts.get(name, 0) for name in RESTARTED_PROCESSES}))
    os.replace(partial, path)


def restart_counts_clear() -> None:
    restarts_file().unlink(missing_ok=True)


def restart_counts() -> dict[str, int] | None:
    """The restarts of each process by the running `serve`, or None when no `serve` shares them."""
    try:
        stored = json.loads(restarts_file().read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(stored, dict):
        return None
    return {name: int(stored.get(name, 0)) for name in RESTARTED_PROCESSES}
