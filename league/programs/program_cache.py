"""Each worker's cache of uploaded programs, by SHA-256: the upload's bytes and its unpacked files.

Pure Python: no Django (the worker passes the folder from its settings and a `fetch` that reads the bytes
from the database). Layout under the cache's root:

    blobs/<sha256>     the upload's bytes, as stored (checked against the hash whenever it is read)
    <sha256>/          its files, unpacked (checked file by file against the program's list whenever used)
    build-<sha256>/    a C program's executable alone (`bot`, 0755), by the build's SHA-256 (checked on use)

Everything is written under a temporary name and renamed into place, so a reader never sees half a program;
whatever fails a check (a file changed, added, removed, a link put in) is thrown away and fetched again.
Only the one folder of the program a seat plays is shown to its sandbox (`league.programs.sandbox`),
read-only.
The root is the worker account's, 0750 and of the slot users' group (`group`, when they share one; `mode`
and `group` come from `league.programs.sandboxing.program_cache_access`); the programs' folders in it are 0755
and their files 0644 (the slot users read them, nobody but the worker writes them), `blobs/` is 0700. Every
folder above the root must belong to the worker's account or root, and be writable by no other account
unless sticky (/tmp): otherwise another account could swap the cache, and the cache refuses (OSError).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from league.programs.archives import ArchiveLimits, ProgramRefused, sha256, tree_matches, unpack_program
from league.programs.runtimes import BUILT


class ProgramUnavailable(Exception):
    """The program's bytes cannot be had or do not match their hash: the seat cannot play (its fault lies with
    the stored program, not the worker)."""


def check_ancestors(path: str) -> None:
    """OSError unless every folder above `path` is this account's or root's, and writable by no one else
    unless sticky."""
    for folder in reversed(_parents(path)):
        info = os.stat(folder)
        if info.st_uid not in (0, os.getuid()):
            raise OSError(f"{folder} belongs to another account (uid {info.st_uid})")
        if info.st_mode & stat.S_IWOTH and not info.st_mode & stat.S_ISVTX:
            raise OSError(f"{folder} is writable by every account")


def _parents(path: str) -> list[str]:
    """The folders above `path`, nearest first, up to /."""
    parents, folder = [], os.path.dirname(os.path.abspath(path))
    while True:
        parents.append(folder)
        if folder == os.path.dirname(folder):
            return parents
        folder = os.path.dirname(folder)


@dataclass
class ProgramCache:
    root: str
    limits: ArchiveLimits
    mode: int = 0o750
    group: int | None = None

    def _prepare(self) -> None:
        os.makedirs(os.path.dirname(os.path.abspath(self.root)), exist_ok=True)
        check_ancestors(self.root)
        with contextlib.suppress(FileExistsError):
            os.mkdir(self.root, 0o700)
        info = os.lstat(self.root)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            raise OSError(f"{self.root} is not a folder of this account")
        if self.group is not None and info.st_gid != self.group:
            os.chown(self.root, -1, self.group)
        os.chmod(self.root, self.mode)
        blobs = os.path.join(self.root, "blobs")
        os.makedirs(blobs, mode=0o700, exist_ok=True)
        os.chmod(blobs, 0o700)

    def _temporary(self, name: str) -> str:
        return os.path.join(self.root, f".tmp-{name}-{uuid.uuid4().hex}")

    def _discard(self, path: str) -> None:
        """Move `path` aside atomically, then delete it."""
        if not os.path.lexists(path):
            return
        trash = self._temporary("trash")
        try:
            os.rename(path, trash)
        except FileNotFoundError:
            return  # another process discarded it first
        if os.path.isdir(trash) and not os.path.islink(trash):
            shutil.rmtree(trash, ignore_errors=True)
        else:
            os.unlink(trash)

    def blob(self, digest: str, fetch: Callable[[], bytes]) -> bytes:
        """The program's bytes: from the cache if they match `digest`, else fetched (and checked) and
        cached."""
        path = os.path.join(self.root, "blobs", digest)
        with contextlib.suppress(FileNotFoundError, IsADirectoryError):
            with open(path, "rb") as handle:
                data = handle.read(self.limits.upload_bytes + 1)
            if sha256(data) == digest:
                return data
            self._discard(path)
        data = fetch()
        if sha256(data) != digest:
            raise ProgramUnavailable(f"the stored program does not match its hash {digest[:12]}")
        temporary = self._temporary(digest)
        with open(temporary, "xb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
        return data

    def folder(
        self, digest: str, files: Sequence[Sequence[Any]], fetch: Callable[[], bytes], runtime: str = ""
    ) -> str:
        """The folder holding the program's files, exactly `files` (path, size, SHA-256 each): the cached
        one if it matches, else unpacked anew from its bytes (`blob`; one file alone as a program of
        `runtime`). Raises ProgramUnavailable."""
        _check_digest(digest)
        self._prepare()
        final = os.path.join(self.root, digest)
        if os.path.isdir(final) and not os.path.islink(final) and tree_matches(final, files):
            return final
        self._discard(final)
        data = self.blob(digest, fetch)
        temporary = self._temporary(digest)
        os.mkdir(temporary, 0o755)
        try:
            checked = unpack_program(data, temporary, self.limits, runtime)
            if not tree_matches(temporary, files) or checked.sha256 != digest:
                raise ProgramUnavailable("the program's files do not match its stored list")
            try:
                os.rename(temporary, final)
            except OSError:
                # Another process put it in place meanwhile: use theirs if it is whole.
                if not (os.path.isdir(final) and tree_matches(final, files)):
                    raise
        except ProgramRefused as exc:
            raise ProgramUnavailable(f"the program cannot be unpacked: {exc}") from None
        finally:
            if os.path.lexists(temporary):
                shutil.rmtree(temporary, ignore_errors=True)
        return final

    def build_folder(self, digest: str, fetch: Callable[[], bytes]) -> str:
        """The folder holding a C program's executable (`BUILT`, 0755) alone, whose SHA-256 is `digest`: the
        cached one if it matches, else written anew from `fetch()` (the build its check stored). Raises
        ProgramUnavailable."""
        _check_digest(digest)
        self._prepare()
        final = os.path.join(self.root, f"build-{digest}")
        if _build_matches(final, digest):
            return final
        self._discard(final)
        data = fetch()
        if sha256(data) != digest:
            raise ProgramUnavailable(f"the stored build does not match its hash {digest[:12]}")
        temporary = self._temporary(digest)
        os.mkdir(temporary, 0o755)
        try:
            target = os.path.join(temporary, BUILT)
            with open(target, "xb") as handle:
                handle.write(data)
            os.chmod(target, 0o755)
            try:
                os.rename(temporary, final)
            except OSError:
                if not _build_matches(final, digest):
                    raise
        finally:
            if os.path.lexists(temporary):
                shutil.rmtree(temporary, ignore_errors=True)
        return final


def _check_digest(digest: str) -> None:
    if len(digest) != 64 or not all(char in "0123456789abcdef" for char in digest):
        raise ProgramUnavailable(f"{digest!r} is not a SHA-256")


def _build_matches(folder: str, digest: str) -> bool:
    """Whether `folder` (not a link) holds exactly the executable of SHA-256 `digest`, mode 0755."""
    if os.path.islink(folder) or not os.path.isdir(folder) or os.listdir(folder) != [BUILT]:
        return False
    path = os.path.join(folder, BUILT)
    info = os.lstat(path)
    if not stat.S_ISREG(info.st_mode) or stat.S_IMODE(info.st_mode) != 0o755:
        return False
    with open(path, "rb") as handle:
        return sha256(handle.read()) == digest
