"""The caps of an uploaded program from the settings: its archive's (BOT_UPLOAD_*,
`league.programs.archives`), the check of its modules' (BOT_CHECK_*, `league.programs.checking`) and the check
in the sandbox of a C or JavaScript program (BOT_BUILD_*, `league.programs.building`: `sandbox_check`). The
upload of a bot version is `league.bots.uploads`.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile

from django.conf import settings

from league.programs import sandboxing
from league.programs.archives import ArchiveLimits, CheckedProgram
from league.programs.building import BuildLimits, BuildUnavailable, Built, build_c, check_node
from league.programs.checking import CheckLimits, CheckUnavailable
from league.programs.runtimes import NODE, RUNTIME_NAMES, C
from league.programs.sandbox import SAFE_PATH, SandboxUnavailable


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


def build_limits() -> BuildLimits:
    return BuildLimits(
        cpu_seconds=settings.BOT_BUILD_CPU_SECONDS,
        memory_mb=settings.BOT_BUILD_MEMORY_MB,
        wall_seconds=settings.BOT_BUILD_WALL_SECONDS,
    )


def sandbox_check(checked: CheckedProgram) -> Built:
    """The check of a C program (compiled by `cc`) or a JavaScript one (`node --check`) in this worker's
    sandbox (`league.programs.building`): its verdict. CheckUnavailable when this worker cannot run it (its
    sandbox is not proven, or its probe found no such runtime): the version stays checking for another try."""
    runtime = checked.runtime
    verdict = sandboxing.verdict()
    if not verdict.isolated:
        raise CheckUnavailable("this worker's sandbox is not proven: a C or JavaScript check waits for one")
    if verdict.runtimes is not None and runtime not in verdict.runtimes:
        raise CheckUnavailable(f"this worker's sandbox has no {RUNTIME_NAMES[runtime]}")
    folder = tempfile.mkdtemp(prefix="pecking-check-")
    try:
        os.chmod(folder, 0o755)
        if runtime == C:
            return build_c(sandboxing.sandbox(), checked.contents, build_limits(), folder)
        if runtime == NODE:
            return check_node(sandboxing.sandbox(), checked.contents, checked.entry, build_limits(), folder)
        raise ValueError(f"no check in the sandbox for {runtime}")
    except (BuildUnavailable, SandboxUnavailable) as exc:
        raise CheckUnavailable(str(exc)) from None
    finally:
        shutil.rmtree(folder, ignore_errors=True)
