"""Suite-wide test setup: deselect tests whose machinery this machine lacks, and say so.

Tests that need PostgreSQL, a real Celery worker, headless Chromium or the bot sandbox (bubblewrap and the
slot users, run as root), Node.js or a C compiler (the JavaScript and C starter kits) carry the markers
`postgres`, `worker`, `browser`, `sandbox`, `node`, `c_compiler` and `qr_decoder` (zbarimg). When the machine
lacks what a marker needs, its tests are deselected (not skipped) and the
run ends with a line saying how many and how to run them. With PECKING_ORDER_REQUIRE_ALL_MARKERS=1 (CI)
a missing capability is an error instead.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
from urllib.parse import urlparse

import pytest

CHROMIUM = "/usr/bin/chromium"
CAPABILITY_MARKERS = (
    "postgres",
    "worker",
    "browser",
    "sandbox",
    "slow",
    "filesystem_broker",
    "node",
    "c_compiler",
    "qr_decoder",
)
# A run on another broker cannot run the embedded filesystem broker's own tests, whatever the machine has:
# CI runs them in its first stage (make test, on the embedded defaults), not in its Redis stage.
BROKER_OF_THE_RUN = ("filesystem_broker",)
HOW_TO_RUN = {
    "postgres": (
        "run them with DATABASE_URL=postgres://postgres@127.0.0.1:5432/pecking_order (or bash .ci/run)"
    ),
    "worker": "start the broker named by CELERY_BROKER_URL (the default filesystem broker needs nothing)",
    "browser": "install Debian's chromium (apt-get install chromium) and the dev requirements (make install)",
    "sandbox": "as root, run bash .ci/sandbox-users (installs bubblewrap, creates the slot users "
    "po-sandbox-0..15) and run the tests as root",
    "filesystem_broker": "run them with the embedded filesystem broker (make test, CELERY_BROKER_URL unset)",
    "node": "install Node.js (apt-get install nodejs): the JavaScript starter kits run on the system's node",
    "c_compiler": "install a C compiler (apt-get install gcc): the C starter kits are compiled with cc",
    "qr_decoder": "install zbarimg (apt-get install zbar-tools): the slips' QR codes are decoded with it",
    "slow": (
        "they need nothing but time (every machine runs them unless PECKING_ORDER_DEFER_MARKERS names them)"
    ),
}


DEFERRED = "this run defers them (PECKING_ORDER_DEFER_MARKERS)"


def _broker_reachable(url: str) -> bool:
    if url.startswith("filesystem://") or url.startswith("memory://"):
        return True
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or 6379), timeout=1):
            return True
    except OSError:
        return False


def missing_capabilities() -> dict[str, str]:
    """Marker → why this machine cannot run its tests, for each marker it cannot run."""
    from django.conf import settings

    missing = {}
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        missing["postgres"] = "the database is not PostgreSQL"
    if not _broker_reachable(settings.CELERY_BROKER_URL):
        missing["worker"] = f"the broker {settings.CELERY_BROKER_URL} does not answer"
    if not settings.CELERY_BROKER_URL.startswith("filesystem://"):
        missing["filesystem_broker"] = (
            f"this run's broker is {settings.CELERY_BROKER_URL.split(':')[0]}, not the filesystem"
        )
    if not os.access(CHROMIUM, os.X_OK) or importlib.util.find_spec("playwright") is None:
        missing["browser"] = f"{CHROMIUM} or the playwright package is missing"
    if shutil.which("node") is None:
        missing["node"] = "there is no node on the PATH"
    if shutil.which("cc") is None:
        missing["c_compiler"] = "there is no cc on the PATH"
    if shutil.which("zbarimg") is None:
        missing["qr_decoder"] = "there is no zbarimg on the PATH"
    from league.programs.sandboxing import sandbox

    problems = sandbox().problems()
    if problems:
        missing["sandbox"] = "; ".join(problems)
    # CI runs the slow browser tests once, in its PostgreSQL stage: its first stage defers them by name.
    for marker in filter(None, os.environ.get("PECKING_ORDER_DEFER_MARKERS", "").split(",")):
        if marker not in CAPABILITY_MARKERS:
            raise pytest.UsageError(f"PECKING_ORDER_DEFER_MARKERS names an unknown marker: {marker}")
        missing.setdefault(marker, DEFERRED)
    return missing


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    missing = missing_capabilities()
    if not missing:
        return
    required = {marker: why for marker, why in missing.items() if marker not in BROKER_OF_THE_RUN}
    if os.environ.get("PECKING_ORDER_REQUIRE_ALL_MARKERS") == "1" and required:
        reasons = "; ".join(f"{marker}: {why}" for marker, why in required.items())
        raise pytest.UsageError(f"PECKING_ORDER_REQUIRE_ALL_MARKERS=1 but this machine cannot run: {reasons}")
    kept, deselected = [], []
    counts = dict.fromkeys(missing, 0)
    for item in items:
        lacking = [marker for marker in missing if item.get_closest_marker(marker)]
        if lacking:
            deselected.append(item)
            for marker in lacking:
                counts[marker] += 1
        else:
            kept.append(item)
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = kept
    config.stash[DESELECTED_KEY] = {
        marker: (count, missing[marker]) for marker, count in counts.items() if count
    }


DESELECTED_KEY = pytest.StashKey[dict]()


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    for marker, (count, why) in config.stash.get(DESELECTED_KEY, {}).items():
        terminalreporter.write_line(
            f"deselected {count} test(s) marked '{marker}' because {why}: "
            + (
                "unset it to run them here (CI runs them in its PostgreSQL stage)"
                if why == DEFERRED
                else HOW_TO_RUN[marker]
            ),
            yellow=True,
        )


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove this run's database file, broker folder and program cache (see league.settings.test)."""
    from django.conf import settings

    run_dir = getattr(settings, "TEST_RUN_DIR", None)
    if run_dir is not None and "PECKING_ORDER_TEST_RUN_DIR" not in os.environ:
        shutil.rmtree(run_dir, ignore_errors=True)
        shutil.rmtree(settings.PROGRAM_CACHE_RUN_DIR, ignore_errors=True)
