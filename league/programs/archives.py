"""Uploaded bot programs: one Python file, or a zip or tar archive with a manifest naming its entry point.

Pure Python: no Django (the league reads the limits from its settings, `league.bots.uploads`). Everything an
author uploads is hostile: `check_program` reads it under caps (compressed size, extracted size, entry count,
size of each entry, compression ratio) and refuses, with a message that says what and where, every name that
is absolute, holds `..`, a backslash, a control character or bytes that are not UTF-8; every link (symbolic
or hard), device file, FIFO or other special file; every entry whose bytes do not match its declared size or
checksum (a zip reader stops at the cap whatever the entry declares). `unpack_program` writes a checked
program into an empty folder: zip entries by hand from what was checked, tar members with
`tarfile`'s `filter='data'` after the same checks; then it verifies each file against its SHA-256.

The manifest sits at the top of an archive: `bot.toml` (`entry = "main.py"`) or `manifest.json`
(`{"entry": "main.py"}`), with an optional `runtime` (`python`, `node` or `c`: `league.programs.runtimes`;
without one, the entry point's extension says it) and `description`. A single file needs none: it is stored
as `bot.py`, `bot.js` or `bot.c` by its runtime (the upload's file name's extension, or the form's choice;
Python when neither says), its own entry point.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import hashlib
import io
import json
import lzma
import os
import stat
import tarfile
import tomllib
import zipfile
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from league.core.errors import UserError
from league.core.names import check_text
from league.programs.runtimes import (
    PYTHON,
    RUNTIME_NAMES,
    RUNTIMES,
    SINGLE_FILES,
    extensions_of,
    runtime_by_extension,
    runtime_of,
)
from league.programs.runtimes import program_command as program_command

# The compression methods entries may use (Python's zipfile reads these, and no others).
ZIP_METHODS = frozenset({zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA})

MANIFESTS = ("bot.toml", "manifest.json")
MANIFEST_KEYS = {"entry", "runtime", "description"}
SINGLE_FILE = SINGLE_FILES[PYTHON]
MANIFEST_BYTES = 16 << 10
RATIO_FLOOR = 64 << 10  # entries smaller than this are not held to the compression ratio
CHUNK = 64 << 10
# Tar headers and padding: each member takes a 512-byte header (and pax or GNU headers for long names) and
# pads its data to 512 bytes; the archive ends in two zero blocks, padded to the record size.
TAR_OVERHEAD_PER_ENTRY = 4 << 10
TAR_OVERHEAD = 32 << 10


class ProgramRefused(Exception):
    """The upload is not a program the league runs: the message says why, for the author."""


@dataclass(frozen=True)
class ArchiveLimits:
    upload_bytes: int = 1 << 20
    total_bytes: int = 8 << 20
    entries: int = 200
    entry_bytes: int = 2 << 20
    ratio: int = 100


@dataclass(frozen=True)
class ProgramFile:
    path: str
    size: int
    sha256: str

    def as_list(self) -> list:
        return [self.path, self.size, self.sha256]


@dataclass(frozen=True)
class CheckedProgram:
    """A program that passed every check: its hash and size (of the upload's bytes), format, entry point,
    manifest and files (path, size, SHA-256), and the files' contents."""

    sha256: str
    size: int
    format: str  # "python" (one Python file), "file" (one JavaScript or C file), "zip" or "tar"
    entry: str
    manifest: dict
    files: tuple[ProgramFile, ...]
    contents: dict[str, bytes]

    @property
    def extracted_bytes(self) -> int:
        return sum(file.size for file in self.files)

    @property
    def runtime(self) -> str:
        return str(self.manifest.get("runtime", PYTHON))


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _size(number: int) -> str:
    if number >= 1 << 20 and number % (1 << 20) == 0:
        return f"{number >> 20} MiB"
    if number >= 1 << 10 and number % (1 << 10) == 0:
        return f"{number >> 10} KiB"
    return f"{number} bytes"


def _shown(name: str) -> str:
    return repr(name if len(name) <= 80 else name[:77] + "...")


def clean_name(name: str) -> str:
    """An entry's path inside the program, normalised (no `./`, no trailing `/`), or ProgramRefused."""
    if any(0xDC80 <= ord(char) <= 0xDCFF for char in name):  # tarfile's surrogateescape of a byte
        raw = name.encode("utf-8", "surrogateescape")
        raise ProgramRefused(
            f"the entry name '{raw.decode('utf-8', 'backslashreplace')}' is not UTF-8: name files in UTF-8"
        )
    if any(ord(char) < 32 or ord(char) == 127 for char in name):
        raise ProgramRefused(f"the entry name {_shown(name)} holds a control character")
    if "\\" in name:
        raise ProgramRefused(f"the entry name {_shown(name)} holds a backslash: use / between folders")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise ProgramRefused(f"the entry {_shown(name)} has an absolute path: paths must be relative")
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise ProgramRefused(f"the entry {_shown(name)} climbs out of the program's folder with ..")
    if not parts:
        raise ProgramRefused(f"the entry name {_shown(name)} names no file")
    if any(len(part.encode()) > 255 for part in parts) or len(name.encode()) > 1024:
        raise ProgramRefused(f"the entry name {_shown(name)} is too long")
    return "/".join(parts)


class _Tree:
    """The names seen so far: no duplicate, no file where a folder is (or the other way)."""

    def __init__(self, limits: ArchiveLimits):
        self.limits = limits
        self.files: dict[str, int] = {}
        self.folders: set[str] = set()
        self.total = 0
        self.entries = 0

    def count(self) -> None:
        self.entries += 1
        if self.entries > self.limits.entries:
            raise ProgramRefused(f"the archive has more than {self.limits.entries} entries")

    def folder(self, path: str) -> None:
        if path in self.files:
            raise ProgramRefused(f"{_shown(path)} is both a file and a folder")
        self.folders.add(path)

    def file(self, path: str, declared: int) -> None:
        if path in self.files or path in self.folders:
            raise ProgramRefused(f"the archive holds {_shown(path)} twice")
        parents = path.split("/")[:-1]
        for depth in range(1, len(parents) + 1):
            parent = "/".join(parents[:depth])
            if parent in self.files:
                raise ProgramRefused(f"{_shown(parent)} is both a file and a folder")
            self.folders.add(parent)
        self.check_size(path, declared)
        self.files[path] = declared

    def check_size(self, path: str, size: int) -> None:
        if size > self.limits.entry_bytes:
            raise ProgramRefused(
                f"{_shown(path)} is larger than {_size(self.limits.entry_bytes)} (each file's limit)"
            )

    def add_bytes(self, count: int) -> None:
        self.total += count
        if self.total > self.limits.total_bytes:
            raise ProgramRefused(
                f"the program unpacks to more than {_size(self.limits.total_bytes)} "
                "(the limit for all its files)"
            )


def _zip_name(info: zipfile.ZipInfo) -> str:
    name = info.filename
    if not info.flag_bits & 0x800:  # not flagged UTF-8: zipfile decoded the raw bytes as cp437
        raw = name.encode("cp437")
        try:
            name = raw.decode("utf-8")
        except UnicodeError:
            shown = raw.decode("utf-8", "backslashreplace")
            raise ProgramRefused(f"the entry name '{shown}' is not UTF-8: name files in UTF-8") from None
    return name


def _zip_kind(info: zipfile.ZipInfo) -> str:
    mode = info.external_attr >> 16
    if info.create_system == 3 and mode:  # made on Unix: the high bits hold the file's mode
        kind = stat.S_IFMT(mode)
        if kind == stat.S_IFLNK:
            return "a symbolic link"
        if kind in (stat.S_IFCHR, stat.S_IFBLK):
            return "a device file"
        if kind == stat.S_IFIFO:
            return "a FIFO"
        if kind == stat.S_IFSOCK:
            return "a socket"
        if kind == stat.S_IFDIR:
            return "folder"
        if kind not in (0, stat.S_IFREG):
            return "a special file"
    return "folder" if info.filename.endswith("/") else "file"


def _read_zip(data: bytes, limits: ArchiveLimits) -> dict[str, bytes]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as exc:
        raise ProgramRefused(f"this is not a zip archive that can be read: {exc}") from None
    with archive:
        infos = archive.infolist()
        tree = _Tree(limits)
        if len(infos) > limits.entries:
            raise ProgramRefused(f"the archive has more than {limits.entries} entries ({len(infos)})")
        plan = []
        for info in infos:
            tree.count()
            name = _zip_name(info)
            path = clean_name(name)
            kind = _zip_kind(info)
            if kind == "folder":
                tree.folder(path)
                continue
            if kind != "file":
                raise ProgramRefused(
                    f"the entry {_shown(name)} is {kind}: only files and folders are allowed"
                )
            if info.flag_bits & 0x1:
                raise ProgramRefused(f"the entry {_shown(name)} is encrypted")
            if info.compress_type not in ZIP_METHODS:
                raise ProgramRefused(
                    f"the entry {_shown(name)} is compressed with method {info.compress_type}: only stored, "
                    "deflate, bzip2 and lzma entries are read"
                )
            tree.file(path, info.file_size)
            if info.file_size > RATIO_FLOOR and info.file_size > limits.ratio * max(info.compress_size, 1):
                raise ProgramRefused(
                    f"{_shown(path)} is compressed more than {limits.ratio} to 1: "
                    "that is a zip bomb, not a program"
                )
            tree.add_bytes(info.file_size)
            plan.append((info, path))
        contents = {}
        for info, path in plan:
            contents[path] = _read_zip_entry(archive, info, path, tree)
        return contents


def _read_zip_entry(archive: zipfile.ZipFile, info: zipfile.ZipInfo, path: str, tree: _Tree) -> bytes:
    """The entry's bytes, read in chunks and stopped at the caps whatever it declares."""
    cap = min(info.file_size, tree.limits.entry_bytes)
    got = bytearray()
    try:
        with archive.open(info) as handle:
            while True:
                chunk = handle.read(CHUNK)
                if not chunk:
                    break
                got += chunk
                if len(got) > cap:
                    raise ProgramRefused(f"{_shown(path)} holds more bytes than the archive declares")
    except (zipfile.BadZipFile, EOFError, zlib.error, lzma.LZMAError, OSError) as exc:
        raise ProgramRefused(
            f"{_shown(path)} is damaged "
            f"(its size or checksum does not match what the archive declares: {exc})"
        ) from None
    if len(got) != info.file_size:
        raise ProgramRefused(f"{_shown(path)} holds fewer bytes than the archive declares")
    return bytes(got)


def _decompressed(data: bytes, limits: ArchiveLimits) -> bytes:
    """The tar stream inside a gzip, bzip2 or xz layer (or `data` itself), read no further than a tar of
    the allowed size can be."""
    if data[:2] == b"\x1f\x8b":
        opener: Callable[[io.BytesIO], io.BufferedIOBase] = lambda raw: gzip.GzipFile(fileobj=raw)  # noqa: E731
    elif data[:3] == b"BZh":
        opener = bz2.BZ2File
    elif data[:6] == b"\xfd7zXZ\x00":
        opener = lzma.LZMAFile
    else:
        return data
    cap = limits.total_bytes + limits.entries * TAR_OVERHEAD_PER_ENTRY + TAR_OVERHEAD
    out = bytearray()
    try:
        with opener(io.BytesIO(data)) as stream:
            while True:
                chunk = stream.read(CHUNK)
                if not chunk:
                    break
                out += chunk
                if len(out) > cap:
                    raise ProgramRefused(
                        f"the program unpacks to more than {_size(limits.total_bytes)} "
                        "(the limit for all its files)"
                    )
    except (OSError, EOFError, lzma.LZMAError, zlib.error) as exc:
        raise ProgramRefused(f"the compressed archive is damaged: {exc}") from None
    if len(out) > RATIO_FLOOR and len(out) > limits.ratio * len(data):
        raise ProgramRefused(
            f"the archive is compressed more than {limits.ratio} to 1: that is a bomb, not a program"
        )
    return bytes(out)


def _tar_kind(member: tarfile.TarInfo) -> str:
    if member.isreg():
        return "file"
    if member.isdir():
        return "folder"
    if member.issym():
        return "a symbolic link"
    if member.islnk():
        return "a hard link"
    if member.ischr() or member.isblk():
        return "a device file"
    if member.isfifo():
        return "a FIFO"
    return "a special file"


@contextlib.contextmanager
def _open_tar(raw: bytes) -> Iterator[tarfile.TarFile]:
    try:
        archive = tarfile.open(  # noqa: SIM115 - closed by the with below
            fileobj=io.BytesIO(raw), mode="r:", encoding="utf-8", errors="surrogateescape"
        )
    except (tarfile.TarError, EOFError, ValueError, OSError) as exc:
        raise ProgramRefused(f"this is not a tar archive that can be read: {exc}") from None
    with archive:
        yield archive


def _tar_members(archive: tarfile.TarFile, limits: ArchiveLimits) -> list[tuple[tarfile.TarInfo, str]]:
    tree = _Tree(limits)
    members = []
    try:
        for member in archive:
            tree.count()
            path = clean_name(member.name)
            kind = _tar_kind(member)
            if kind == "folder":
                tree.folder(path)
                continue
            if kind != "file":
                raise ProgramRefused(
                    f"the entry {_shown(member.name)} is {kind}: only files and folders are allowed"
                )
            if member.sparse is not None:
                raise ProgramRefused(f"the entry {_shown(member.name)} is a sparse file")
            tree.file(path, member.size)
            tree.add_bytes(member.size)
            members.append((member, path))
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise ProgramRefused(f"the tar archive is damaged: {exc}") from None
    return members


def _read_tar(data: bytes, limits: ArchiveLimits) -> dict[str, bytes]:
    raw = _decompressed(data, limits)
    with _open_tar(raw) as archive:
        members = _tar_members(archive, limits)
        contents = {}
        try:
            for member, path in members:
                handle = archive.extractfile(member)
                content = handle.read(member.size + 1) if handle is not None else b""
                if len(content) != member.size:
                    raise ProgramRefused(f"{_shown(path)} is cut short: the archive is damaged")
                contents[path] = content
        except (tarfile.TarError, EOFError, OSError) as exc:
            raise ProgramRefused(f"the tar archive is damaged: {exc}") from None
        return contents


def _is_tar(data: bytes) -> bool:
    if data[:2] == b"\x1f\x8b" or data[:3] == b"BZh" or data[:6] == b"\xfd7zXZ\x00":
        return True
    return len(data) >= 512 and data[257:262] == b"ustar"


def _manifest(contents: dict[str, bytes], chosen: str = "") -> dict:
    found = [name for name in MANIFESTS if name in contents]
    if not found:
        raise ProgramRefused(
            'the archive has no manifest: put a bot.toml (entry = "main.py") or a manifest.json '
            '({"entry": "main.py"}) at its top, beside the entry point'
        )
    if len(found) > 1:
        raise ProgramRefused("the archive has both bot.toml and manifest.json: keep one")
    name = found[0]
    raw = contents[name]
    if len(raw) > MANIFEST_BYTES:
        raise ProgramRefused(f"{name} is larger than {_size(MANIFEST_BYTES)}")
    try:
        text = raw.decode("utf-8")
        manifest = tomllib.loads(text) if name == "bot.toml" else json.loads(text)
    except UnicodeDecodeError:
        raise ProgramRefused(f"{name} is not UTF-8 text") from None
    except (tomllib.TOMLDecodeError, ValueError, RecursionError) as exc:
        raise ProgramRefused(
            f"{name} is not valid {'TOML' if name == 'bot.toml' else 'JSON'}: {exc}"
        ) from None
    if not isinstance(manifest, dict):
        raise ProgramRefused(f"{name} must be a table of keys (entry, runtime, description)")
    unknown = sorted(set(manifest) - MANIFEST_KEYS)
    if unknown:
        raise ProgramRefused(
            f"{name} has keys the league does not know: {', '.join(map(str, unknown))} "
            f"(known: {', '.join(sorted(MANIFEST_KEYS))})"
        )
    entry = manifest.get("entry")
    if not isinstance(entry, str) or not entry:
        raise ProgramRefused(f'{name} must name the entry point: entry = "main.py"')
    declared = manifest.get("runtime")
    runtime = runtime_of(declared) if declared is not None else ""
    if declared is not None and not runtime:
        raise ProgramRefused(f"{name}: runtime {declared!r} is not offered (only {', '.join(RUNTIMES)})")
    description = manifest.get("description", "")
    if not isinstance(description, str) or len(description) > 2000:
        raise ProgramRefused(f"{name}: description must be text of at most 2000 characters")
    try:
        description = check_text(description, field="description", max_length=2000)
    except UserError as exc:
        raise ProgramRefused(f"{name}: {exc.message}") from None
    try:
        entry_path = clean_name(entry)
    except ProgramRefused as exc:
        raise ProgramRefused(f"{name}: entry {entry!r} is not a path inside the archive ({exc})") from None
    if entry_path not in contents:
        raise ProgramRefused(f"{name} names the entry point {entry!r}, which is not a file in the archive")
    if chosen and runtime and chosen != runtime:
        raise ProgramRefused(
            f"{name} says runtime {declared!r}, but the upload chose {RUNTIME_NAMES[chosen]}: choose one"
        )
    runtime = runtime or chosen or runtime_by_extension(entry_path)
    if not runtime:
        raise ProgramRefused(
            f'{name}: say the runtime (runtime = "python", "node" or "c"), or name an entry point '
            f"whose extension says it (.py, .js, .c), not {entry!r}"
        )
    if runtime_by_extension(entry_path) != runtime:
        raise ProgramRefused(
            f"{name}: the entry point {entry!r} of a {RUNTIME_NAMES[runtime]} program must end in "
            + " or ".join(extensions_of(runtime))
        )
    return {"entry": entry_path, "runtime": runtime, **({"description": description} if description else {})}


def _check_text(path: str, source: bytes) -> None:
    try:
        source.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProgramRefused(f"{path} is not UTF-8 text (byte {exc.start})") from None


def single_runtime(filename: str = "", runtime: str = "") -> str:
    """The runtime of one file uploaded alone: the upload's choice, else its name's extension, else Python."""
    return runtime or runtime_by_extension(filename or "") or PYTHON


def check_program(
    data: bytes, limits: ArchiveLimits, *, filename: str = "", runtime: str = ""
) -> CheckedProgram:
    """Check an upload (its bytes) and read its files, or raise ProgramRefused saying why.

    A zip (by its signature) or tar archive (plain, gzip, bzip2 or xz: by its signature) must carry a
    manifest; anything else must be one file, stored as `bot.py`, `bot.js` or `bot.c` by its runtime
    (`runtime`, the upload's choice, else its `filename`'s extension, else Python). Every source (`.py`, `.js`
    or `.c` file) must be UTF-8 text; none is compiled here (compiling is not linear in the source):
    `league.programs.checking` does that in a bounded child process, `league.programs.building` in the
    sandbox.
    """
    if runtime and runtime not in RUNTIMES:
        raise ProgramRefused(f"the runtime {runtime!r} is not offered (only {', '.join(RUNTIMES)})")
    if len(data) > limits.upload_bytes:
        raise ProgramRefused(f"the upload is larger than {_size(limits.upload_bytes)}")
    if not data:
        raise ProgramRefused("the upload is empty")
    if data[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        fmt, contents = "zip", _read_zip(data, limits)
    elif _is_tar(data):
        fmt, contents = "tar", _read_tar(data, limits)
    else:
        if len(data) > limits.entry_bytes:
            raise ProgramRefused(
                f"the program is larger than {_size(limits.entry_bytes)} (each file's limit)"
            )
        alone = single_runtime(filename, runtime)
        fmt, contents = ("python" if alone == PYTHON else "file"), {SINGLE_FILES[alone]: data}
    manifest = (
        {"entry": SINGLE_FILES[alone], "runtime": alone}
        if fmt in ("python", "file")
        else _manifest(contents, runtime)
    )
    for path, content in sorted(contents.items()):
        if runtime_by_extension(path) or path.endswith(".h"):
            _check_text(path, content)
    files = tuple(
        ProgramFile(path, len(content), sha256(content)) for path, content in sorted(contents.items())
    )
    return CheckedProgram(
        sha256=sha256(data),
        size=len(data),
        format=fmt,
        entry=manifest["entry"],
        manifest=manifest,
        files=files,
        contents=contents,
    )


def tree_matches(folder: str, files: Sequence[Sequence[Any] | ProgramFile]) -> bool:
    """Whether `folder` holds exactly `files` (path, size, SHA-256): no file missing, changed or added, no
    link or special file anywhere."""
    expected = {}
    for item in files:
        path, size, digest = item.as_list() if isinstance(item, ProgramFile) else item
        expected[path] = (size, digest)
    seen = set()
    for top, folders, names in os.walk(folder):
        for name in folders:
            if os.path.islink(os.path.join(top, name)):
                return False
        for name in names:
            full = os.path.join(top, name)
            path = os.path.relpath(full, folder).replace(os.sep, "/")
            info = os.lstat(full)
            if not stat.S_ISREG(info.st_mode) or path not in expected:
                return False
            size, digest = expected[path]
            if info.st_size != size:
                return False
            with open(full, "rb") as handle:
                if sha256(handle.read(size + 1)) != digest:
                    return False
            seen.add(path)
    return seen == set(expected)


def unpack_program(data: bytes, folder: str, limits: ArchiveLimits, runtime: str = "") -> CheckedProgram:
    """Check `data` again (a single file as a program of `runtime`) and write its files into `folder` (empty,
    existing), read-only for everyone but the owner: folders 0755, files 0644. A tar's members go through
    `tarfile`'s `filter='data'`."""
    checked = check_program(data, limits, runtime=runtime)
    if checked.format == "tar":
        with _open_tar(_decompressed(data, limits)) as archive:
            members = [member for member, _ in _tar_members(archive, limits)]
            archive.extractall(folder, members=members, filter="data")
    else:
        _write_files(checked.contents, folder)
    _read_only(folder)
    if not tree_matches(folder, checked.files):
        raise ProgramRefused("the unpacked files do not match the checked ones")
    return checked


def _write_files(contents: Mapping[str, bytes], folder: str) -> None:
    for path, content in contents.items():
        target = os.path.join(folder, *path.split("/"))
        os.makedirs(os.path.dirname(target), mode=0o755, exist_ok=True)
        with open(target, "xb") as handle:
            handle.write(content)


def _read_only(folder: str) -> None:
    for top, _folders, names in os.walk(folder):
        os.chmod(top, 0o755)
        for name in names:
            os.chmod(os.path.join(top, name), 0o644)


def unpack_program_files(contents: Mapping[str, bytes], folder: str) -> None:
    """Write a checked program's files (path → bytes, paths from `clean_name`) into `folder` (empty,
    existing): folders 0755, files 0644."""
    _write_files(contents, folder)
    _read_only(folder)
