"""The caps of an uploaded program from the settings: its archive's (BOT_UPLOAD_*, `league.programs.archives`)
and the check of its modules' (BOT_CHECK_*, `league.programs.checking`). The upload of a bot version is
`league.bots.uploads`.
"""

from __future__ import annotations

import functools
import shutil
import subprocess

from django.conf import settings

from league.programs.archives import ArchiveLimits
from league.programs.checking import CheckLimits
from league.programs.sandbox import SAFE_PATH


def upload_limits() -> ArchiveLimits:
    return ArchiveLimits(
        upload_bytes=settings.BOT_UPLOAD_MAX_BYTES,
        total_bytes=settings.BOT_UPLOAD_MAX_EXTRACTED_BYTES,
        entries=settings.BOT_UPLOAD_MAX_ENTRIES,
        entry_bytes=settings.BOT_UPLOAD_MAX_ENTRY_BYTES,
        ratio=settings.BOT_UPLOAD_MAX_RATIO,
    )


def check_limits() -> CheckLimits:
    """The check's bounds, and the bots' interpreter: the `python3` an uploaded program runs with in the
    sandbox (`league.programs.archives.program_command`, found on the sandbox's PATH)."""
    return CheckLimits(
        cpu_seconds=settings.BOT_CHECK_CPU_SECONDS,
        memory_mb=settings.BOT_CHECK_MEMORY_MB,
        wall_seconds=settings.BOT_CHECK_WALL_SECONDS,
        runtime=shutil.which("python3", path=SAFE_PATH) or "",
    )


@functools.cache
def bots_python() -> str:
    """The version of the bots' Python ("3.11.2"): the `python3` an uploaded program runs with in the
    sandbox, asked once per process; empty where this machine has none."""
    runtime = shutil.which("python3", path=SAFE_PATH)
    if runtime is None:
        return ""
    try:
        answer = subprocess.run(
            [runtime, "-I", "-S", "-c", "import platform; print(platform.python_version())"],
            capture_output=True,
            timeout=10,
            check=False,
            env={},
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return answer.stdout.decode("ascii", "replace").strip() if answer.returncode == 0 else ""
