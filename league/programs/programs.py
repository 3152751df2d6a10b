"""The worker's side of uploaded programs: each seat's files fetched by hash from the database into this
worker's cache (`league.programs.program_cache`, under PROGRAM_CACHE_DIR), checked on every use.

`seats_ready` turns the seats of one match into seats that can play: an uploaded program's seat gets the
folder its sandbox shows at /bot (its files; a C program's, the executable its check built, alone), or, if
its stored program cannot be unpacked, the reason (it forfeits, `crashed`, and its author reads why in its
log). A cache the worker cannot write is the worker's fault: it
raises SandboxUnavailable, and the match is handed back for another worker.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, ClassVar, Protocol, TypeVar

from django.conf import settings

from league.programs.models import Program
from league.programs.program_cache import ProgramCache, ProgramUnavailable
from league.programs.runtimes import C
from league.programs.sandbox import SandboxUnavailable
from league.programs.sandboxing import program_cache_access
from league.programs.uploads import upload_limits


class ProgramSeat(Protocol):
    """A seat of a match as the worker plays it (`league.bots.playing.SeatBot`, a frozen dataclass): an
    uploaded program's hash and files, and the two fields `seat_ready` fills."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def program_sha256(self) -> str: ...

    @property
    def program_files(self) -> tuple[Any, ...]: ...

    @property
    def runtime(self) -> str: ...

    @property
    def program_build_sha256(self) -> str: ...


Seat = TypeVar("Seat", bound=ProgramSeat)


def program_cache() -> ProgramCache:
    mode, group = program_cache_access()
    return ProgramCache(root=str(settings.PROGRAM_CACHE_DIR), limits=upload_limits(), mode=mode, group=group)


def fetch_program(digest: str) -> bytes:
    """The stored bytes of the program with this SHA-256."""
    content = Program.objects.filter(sha256=digest).values_list("content", flat=True).first()
    if content is None:
        raise ProgramUnavailable(f"no stored program {digest[:12]}")
    return bytes(content)


def fetch_build(digest: str) -> bytes:
    """The executable the check built of the C program with this SHA-256."""
    build = Program.objects.filter(sha256=digest).values_list("build", flat=True).first()
    if not build:
        raise ProgramUnavailable(f"no executable built of the program {digest[:12]}")
    return bytes(build)


def seat_ready(seat: Seat, cache: ProgramCache | None = None) -> Seat:
    if not seat.program_sha256:
        return seat
    cache = cache or program_cache()
    try:
        if seat.runtime == C:
            if not seat.program_build_sha256:
                raise ProgramUnavailable("it has no executable: its check did not build it")
            folder = cache.build_folder(seat.program_build_sha256, lambda: fetch_build(seat.program_sha256))
        else:
            folder = cache.folder(
                seat.program_sha256,
                seat.program_files,
                lambda: fetch_program(seat.program_sha256),
                seat.runtime,
            )
    except ProgramUnavailable as exc:
        return dataclasses.replace(seat, program_error=f"its program could not be had: {exc}")
    except OSError as exc:
        raise SandboxUnavailable(f"the program cache {cache.root} cannot be written: {exc}") from None
    return dataclasses.replace(seat, program_dir=folder)


def seats_ready(seats: Sequence[Seat]) -> list[Seat]:
    """The seats with each uploaded program's files in place (see the module docstring)."""
    cache = program_cache()
    return [seat_ready(seat, cache) for seat in seats]
