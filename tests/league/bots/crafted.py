"""Crafted uploads: good programs, and archives built to carry each trap an upload check must catch."""

from __future__ import annotations

import io
import stat
import struct
import tarfile
import zipfile
import zlib

BOT = b"""import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        print(json.dumps({"action": message["legal_actions"][0]}), flush=True)
"""
HELPER = b"def pick(actions):\n    return actions[-1]\n"
MAIN = b"""import json, sys
from helper import pick
print("main starting", file=sys.stderr, flush=True)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        print("choosing among", len(message["legal_actions"]), file=sys.stderr, flush=True)
        print(json.dumps({"action": pick(message["legal_actions"])}), flush=True)
"""
TOML = b'entry = "main.py"\n'


def zip_bytes(entries: dict[str, bytes], *, method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, content in entries.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def zip_with(info: zipfile.ZipInfo, content: bytes, extra: dict[str, bytes] | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
        archive.writestr(info, content)
    return buffer.getvalue()


def zip_symlink(name: str = "link", target: str = "/etc/passwd") -> bytes:
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return zip_with(info, target.encode(), {"bot.toml": TOML, "main.py": BOT})


def zip_lying_size(declared: int, actual: bytes) -> bytes:
    """A zip whose main.py declares `declared` bytes (in both headers) but inflates to `actual`."""
    good = zip_bytes({"bot.toml": TOML, "main.py": actual})
    real = struct.pack("<I", len(actual))
    fake = struct.pack("<I", declared)
    # The uncompressed size sits in the local header (offset 22) and the central directory (offset 24).
    data = bytearray(good)
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        start = 0
        while (start := data.find(signature, start)) != -1:
            name_length = struct.unpack("<H", data[start + (26 if signature == b"PK\x03\x04" else 28) :][:2])[
                0
            ]
            name_at = start + (30 if signature == b"PK\x03\x04" else 46)
            if data[name_at : name_at + name_length] == b"main.py":
                assert data[start + offset : start + offset + 4] == real
                data[start + offset : start + offset + 4] = fake
            start += 4
    return bytes(data)


def zip_raw_name(raw_name: bytes, content: bytes = b"x = 1\n") -> bytes:
    """A zip holding an entry whose name is `raw_name`'s bytes, not flagged UTF-8."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("bot.toml", TOML)
        archive.writestr("main.py", BOT)
        archive.writestr("PLACEHOLDER" + "_" * (len(raw_name) - 11), content)
    return buffer.getvalue().replace(b"PLACEHOLDER" + b"_" * (len(raw_name) - 11), raw_name)


def tar_bytes(members: list[tuple[tarfile.TarInfo, bytes | None]], mode: str = "w:gz") -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode, format=tarfile.PAX_FORMAT) as archive:
        for info, content in members:
            if content is not None:
                info.size = len(content)
                archive.addfile(info, io.BytesIO(content))
            else:
                archive.addfile(info)
    return buffer.getvalue()


def tar_file(name: str, content: bytes) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.mode = 0o644
    return info, content


def tar_special(name: str, kind: bytes, linkname: str = "") -> tuple[tarfile.TarInfo, None]:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = linkname
    if kind in (tarfile.CHRTYPE, tarfile.BLKTYPE):
        info.devmajor, info.devminor = 1, 3
    return info, None


def good_tar(extra: list | None = None, mode: str = "w:gz") -> bytes:
    return tar_bytes(
        [
            tar_file("bot.toml", TOML),
            tar_file("main.py", MAIN),
            tar_file("helper.py", HELPER),
            *(extra or []),
        ],
        mode,
    )


def deflate_bomb(size: int) -> bytes:
    return zlib.compress(b"\0" * size, 9)
