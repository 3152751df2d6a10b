"""Writes of the external programs' own rows: the seats' logs of played matches (`program_logs_add`), what a
worker proved of its sandbox (`worker_probe_record`), and an upload's bytes stored once by their hash
(`program_store`).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from league.core.names import storable_text
from league.programs.archives import CheckedProgram, sha256
from league.programs.models import Program, ProgramLog, WorkerProbe
from league.programs.probe import ProbeResult


def program_logs_add(*, logs: Sequence[ProgramLog]) -> None:
    """Store the seats' logs of played matches (unsaved rows), then keep only each bot version's logs of its
    last BOT_LOG_MATCHES matches (by match id): what authors read (`docs/bot-leagues.md`, "Logs")."""
    if not logs:
        return
    for log in logs:
        log.detail = storable_text(log.detail)
        log.output = storable_text(log.output)
    ProgramLog.objects.bulk_create(logs)
    keep = settings.BOT_LOG_MATCHES
    for bot_id in sorted({log.bot_id for log in logs if log.bot_id is not None}):
        kept = ProgramLog.objects.filter(bot_id=bot_id).order_by("-match_id", "-id")
        old = list(kept.values_list("id", flat=True)[keep:])
        if old:
            ProgramLog.objects.filter(pk__in=old).delete()


def worker_probe_record(
    *, worker: str, hostname: str, result: ProbeResult, seen: bool = False
) -> WorkerProbe:
    """Store what `worker` proved of its sandbox (`league.programs.probe`), replacing what it proved before.

    With `seen`, only mark the worker as looking for work now (storing the result if it has no row yet).
    """
    now = timezone.now()
    if seen and WorkerProbe.objects.filter(worker=worker).update(seen_at=now):
        return WorkerProbe.objects.get(worker=worker)
    probe, _ = WorkerProbe.objects.update_or_create(
        worker=worker,
        defaults={
            "hostname": hostname,
            "isolated": result.isolated,
            "proven": dict(result.proven),
            "detail": dict(result.detail),
            "checked_at": result.checked_at,
            "seen_at": now,
            "runtimes": dict(result.runtimes) if result.runtimes is not None else {},
        },
    )
    return probe


def program_store(checked: CheckedProgram, data: bytes) -> Program:
    """The stored program of these bytes: the row that holds them already, or a new one."""
    program = Program.objects.filter(sha256=checked.sha256).first()
    if program is not None:
        return program
    try:
        with transaction.atomic():
            return Program.objects.create(
                sha256=checked.sha256,
                size=checked.size,
                format=checked.format,
                entry=checked.entry,
                manifest=checked.manifest,
                files=[file.as_list() for file in checked.files],
                extracted_bytes=checked.extracted_bytes,
                content=data,
                runtime=checked.runtime,
            )
    except IntegrityError:  # the same bytes uploaded at the same moment by another request: one row
        return Program.objects.get(sha256=checked.sha256)


def program_checked(*, program: Program, version: str, build: bytes = b"") -> None:
    """Record what the check of `program` found: its runtime's version and, for C, the executable it built
    (kept once: a program shared by two versions is built by the first check)."""
    fields: dict[str, str | bytes] = {"runtime_version": version[:200]}
    if build and not program.build_sha256:
        fields.update(build=build, build_sha256=sha256(build))
    Program.objects.filter(pk=program.pk).update(**fields)
    for name, value in fields.items():
        setattr(program, name, value)
