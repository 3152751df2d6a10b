"""The upload check (league.programs.archives), pure: every trap a crafted archive carries is refused with a
message saying what and where; good programs pass with their files, manifest and hash."""

import hashlib
import os
import tarfile
import zipfile

import pytest

from league.programs.archives import (
    ArchiveLimits,
    ProgramRefused,
    check_program,
    tree_matches,
    unpack_program,
)
from tests.league.bots import crafted
from tests.league.bots.crafted import (
    BOT,
    HELPER,
    MAIN,
    TOML,
    good_tar,
    tar_bytes,
    tar_file,
    tar_special,
    zip_bytes,
)

LIMITS = ArchiveLimits(
    upload_bytes=64 << 10, total_bytes=256 << 10, entries=10, entry_bytes=128 << 10, ratio=100
)
UNRATIOED = ArchiveLimits(
    upload_bytes=64 << 10, total_bytes=256 << 10, entries=10, entry_bytes=128 << 10, ratio=10**6
)


def refused(data: bytes, limits: ArchiveLimits = LIMITS) -> str:
    with pytest.raises(ProgramRefused) as caught:
        check_program(data, limits)
    return str(caught.value)


def test_one_python_file_is_its_own_entry_point_named_bot_py():
    checked = check_program(BOT, LIMITS)
    assert (checked.format, checked.entry, checked.size) == ("python", "bot.py", len(BOT))
    assert checked.sha256 == hashlib.sha256(BOT).hexdigest()
    assert [file.as_list() for file in checked.files] == [
        ["bot.py", len(BOT), hashlib.sha256(BOT).hexdigest()]
    ]
    assert checked.manifest == {"entry": "bot.py", "runtime": "python"}


@pytest.mark.parametrize("mode", ["w", "w:gz", "w:bz2", "w:xz"])
def test_a_tar_with_bot_toml_names_its_entry_point(mode):
    checked = check_program(good_tar(mode=mode), LIMITS)
    assert (checked.format, checked.entry) == ("tar", "main.py")
    assert [file.path for file in checked.files] == ["bot.toml", "helper.py", "main.py"]
    assert checked.contents["helper.py"] == HELPER


def test_a_zip_with_manifest_json_in_folders():
    data = zip_bytes(
        {
            "manifest.json": b'{"entry": "src/main.py", "description": "mine"}',
            "src/main.py": MAIN,
            "src/": b"",
            "src/helper.py": HELPER,
        }
    )
    checked = check_program(data, LIMITS)
    assert checked.manifest == {"entry": "src/main.py", "runtime": "python", "description": "mine"}
    assert checked.extracted_bytes == len(MAIN) + len(HELPER) + 47


TRAPS = {
    "absolute path in a tar": (
        lambda: good_tar([tar_file("/etc/cron.d/evil", b"x")]),
        "the entry '/etc/cron.d/evil' has an absolute path: paths must be relative",
    ),
    "dot-dot in a tar": (
        lambda: good_tar([tar_file("lib/../../evil.py", b"x")]),
        "the entry 'lib/../../evil.py' climbs out of the program's folder with ..",
    ),
    "dot-dot in a zip": (
        lambda: zip_bytes({"bot.toml": TOML, "main.py": BOT, "../evil.py": b"x"}),
        "the entry '../evil.py' climbs out of the program's folder with ..",
    ),
    "absolute path in a zip": (
        lambda: zip_bytes({"bot.toml": TOML, "main.py": BOT, "/tmp/evil.py": b"x"}),
        "the entry '/tmp/evil.py' has an absolute path: paths must be relative",
    ),
    "backslash in a zip": (
        lambda: zip_bytes({"bot.toml": TOML, "main.py": BOT, "..\\evil.py": b"x"}),
        "the entry name '..\\\\evil.py' holds a backslash: use / between folders",
    ),
    "symlink in a tar": (
        lambda: good_tar([tar_special("secrets", tarfile.SYMTYPE, "/etc/shadow")]),
        "the entry 'secrets' is a symbolic link: only files and folders are allowed",
    ),
    "hard link in a tar": (
        lambda: good_tar([tar_special("again.py", tarfile.LNKTYPE, "main.py")]),
        "the entry 'again.py' is a hard link: only files and folders are allowed",
    ),
    "device in a tar": (
        lambda: good_tar([tar_special("null", tarfile.CHRTYPE)]),
        "the entry 'null' is a device file: only files and folders are allowed",
    ),
    "block device in a tar": (
        lambda: good_tar([tar_special("disk", tarfile.BLKTYPE)]),
        "the entry 'disk' is a device file: only files and folders are allowed",
    ),
    "FIFO in a tar": (
        lambda: good_tar([tar_special("pipe", tarfile.FIFOTYPE)]),
        "the entry 'pipe' is a FIFO: only files and folders are allowed",
    ),
    "symlink attribute in a zip": (
        lambda: crafted.zip_symlink(),
        "the entry 'link' is a symbolic link: only files and folders are allowed",
    ),
    "too many entries in a zip": (
        lambda: zip_bytes({"bot.toml": TOML, "main.py": BOT, **{f"m{n}.py": b"" for n in range(9)}}),
        "the archive has more than 10 entries (11)",
    ),
    "too many entries in a tar": (
        lambda: good_tar([tar_file(f"m{n}.py", b"") for n in range(8)]),
        "the archive has more than 10 entries",
    ),
    "zip bomb by ratio": (
        lambda: zip_bytes({"bot.toml": TOML, "main.py": BOT, "zeros.bin": b"\0" * (100 << 10)}),
        "'zeros.bin' is compressed more than 100 to 1: that is a zip bomb, not a program",
    ),
    "zip entry over the per-entry size": (
        lambda: zip_bytes(
            {"bot.toml": TOML, "main.py": BOT, "big.bin": os.urandom(129 << 10)}, method=zipfile.ZIP_STORED
        ),
        "the upload is larger than 64 KiB",
    ),
    "zip declaring fewer bytes than it holds": (
        lambda: crafted.zip_lying_size(10, BOT),
        "'main.py' is damaged (its size or checksum does not match what the archive declares: Bad CRC-32 for "
        "file 'main.py')",
    ),
    "zip declaring more bytes than it holds": (
        lambda: crafted.zip_lying_size(len(BOT) + 5, BOT),
        "'main.py' holds fewer bytes than the archive declares",
    ),
    "zip declaring more than the per-entry cap": (
        lambda: crafted.zip_lying_size(200 << 10, BOT),
        "'main.py' is larger than 128 KiB (each file's limit)",
    ),
    "tar.gz bomb by ratio": (
        lambda: tar_bytes(
            [tar_file("bot.toml", TOML), tar_file("main.py", BOT), tar_file("z", b"\0" * (100 << 10))]
        ),
        "the archive is compressed more than 100 to 1: that is a bomb, not a program",
    ),
    "tar.gz bomb by size": (
        lambda: tar_bytes(
            [tar_file("bot.toml", TOML), tar_file("main.py", BOT)]
            + [tar_file(f"z{n}", b"\0" * (100 << 10)) for n in range(3)]
        ),
        "the program unpacks to more than 256 KiB (the limit for all its files)",
        UNRATIOED,
    ),
    "tar entry over the per-entry size": (
        lambda: tar_bytes(
            [tar_file("bot.toml", TOML), tar_file("main.py", BOT), tar_file("z", os.urandom(10) * (13 << 10))]
        ),
        "'z' is larger than 128 KiB (each file's limit)",
        UNRATIOED,
    ),
    "oversized upload": (lambda: os.urandom(65 << 10), "the upload is larger than 64 KiB"),
    "empty upload": (lambda: b"", "the upload is empty"),
    "missing manifest": (
        lambda: zip_bytes({"main.py": BOT}),
        'the archive has no manifest: put a bot.toml (entry = "main.py") or a manifest.json ({"entry": '
        '"main.py"}) at its top, beside the entry point',
    ),
    "manifest not TOML": (
        lambda: zip_bytes({"bot.toml": b"entry = main.py", "main.py": BOT}),
        "bot.toml is not valid TOML: Invalid value (at line 1, column 9)",
    ),
    "manifest not JSON": (
        lambda: zip_bytes({"manifest.json": b"{entry: 1}", "main.py": BOT}),
        "manifest.json is not valid JSON: Expecting property name enclosed in double quotes: line 1 column 2 "
        "(char 1)",
    ),
    "manifest without entry": (
        lambda: zip_bytes({"bot.toml": b'runtime = "python3"', "main.py": BOT}),
        'bot.toml must name the entry point: entry = "main.py"',
    ),
    "manifest with an unknown key": (
        lambda: zip_bytes({"bot.toml": TOML + b"command = 'rm -rf /'\n", "main.py": BOT}),
        "bot.toml has keys the league does not know: command (known: description, entry, runtime)",
    ),
    "manifest with a runtime not offered": (
        lambda: zip_bytes({"bot.toml": TOML + b"runtime = 'ruby'\n", "main.py": BOT}),
        "bot.toml: runtime 'ruby' is not offered (only python, node, c)",
    ),
    "manifest whose runtime is not its entry point's": (
        lambda: zip_bytes({"bot.toml": TOML + b"runtime = 'node'\n", "main.py": BOT}),
        "bot.toml: the entry point 'main.py' of a Node.js program must end in .js or .mjs or .cjs",
    ),
    "manifest whose entry point's extension names no runtime": (
        lambda: zip_bytes({"bot.toml": b'entry = "main.rb"', "main.rb": BOT}),
        'bot.toml: say the runtime (runtime = "python", "node" or "c"), or name an entry point whose '
        "extension says it (.py, .js, .c), not 'main.rb'",
    ),
    "two manifests": (
        lambda: zip_bytes({"bot.toml": TOML, "manifest.json": b'{"entry": "main.py"}', "main.py": BOT}),
        "the archive has both bot.toml and manifest.json: keep one",
    ),
    "entry point not in the archive": (
        lambda: zip_bytes({"bot.toml": b'entry = "run.py"', "main.py": BOT}),
        "bot.toml names the entry point 'run.py', which is not a file in the archive",
    ),
    "entry point outside the archive": (
        lambda: zip_bytes({"bot.toml": b'entry = "../main.py"', "main.py": BOT}),
        "bot.toml: entry '../main.py' is not a path inside the archive (the entry '../main.py' climbs out of "
        "the program's folder with ..)",
    ),
    "entry point not Python": (
        lambda: zip_bytes({"bot.toml": b'entry = "run.sh"', "run.sh": b"#!/bin/sh\n"}),
        'bot.toml: say the runtime (runtime = "python", "node" or "c"), or name an entry point whose '
        "extension says it (.py, .js, .c), not 'run.sh'",
    ),
    "a module not UTF-8": (
        lambda: zip_bytes({"bot.toml": TOML, "main.py": BOT, "lib/util.py": b"x = '\xe9'\n"}),
        "lib/util.py is not UTF-8 text (byte 5)",
    ),
    "single file not UTF-8": (lambda: b"print('\xff')\n", "bot.py is not UTF-8 text (byte 7)"),
    "non-UTF-8 name in a zip": (
        lambda: crafted.zip_raw_name(b"caf\xe9-bot.py"),
        "the entry name 'caf\\xe9-bot.py' is not UTF-8: name files in UTF-8",
    ),
    "non-UTF-8 name in a tar": (
        lambda: tar_bytes(
            [tar_file("bot.toml", TOML), tar_file("main.py", BOT), tar_file("caf\udce9.py", b"")], mode="w"
        ),
        "the entry name 'caf\\xe9.py' is not UTF-8: name files in UTF-8",
    ),
    "duplicate entry": (
        lambda: good_tar([tar_file("main.py", b"print(1)\n")]),
        "the archive holds 'main.py' twice",
    ),
    "a file that is also a folder": (
        lambda: good_tar([tar_file("main.py/x.py", b"")]),
        "'main.py' is both a file and a folder",
    ),
    "control character in a name": (
        lambda: zip_bytes({"bot.toml": TOML, "main.py": BOT, "a\nb.py": b""}),
        "the entry name 'a\\nb.py' holds a control character",
    ),
}


@pytest.mark.parametrize("trap", list(TRAPS))
def test_each_trap_is_refused_with_a_clear_message(trap):
    make, message, *limits = TRAPS[trap]
    assert refused(make(), *limits) == message


def test_a_zip_bomb_read_stops_at_the_cap_whatever_it_declares(monkeypatch):
    """An entry declaring a small size inflates no further than it: the reader never holds the bomb."""
    data = crafted.zip_lying_size(100, b"\0" * (1 << 20))
    reads = []
    original = zipfile.ZipExtFile.read

    def counting(self, n=-1):
        chunk = original(self, n)
        reads.append(len(chunk))
        return chunk

    monkeypatch.setattr(zipfile.ZipExtFile, "read", counting)
    message = refused(data, ArchiveLimits(upload_bytes=1 << 20))
    assert message.startswith("'main.py' is damaged (its size or checksum does not match")
    assert sum(reads) <= 100


def test_unpack_writes_the_checked_files_read_only_for_others(tmp_path):
    folder = tmp_path / "program"
    folder.mkdir()
    checked = unpack_program(good_tar(), str(folder), LIMITS)
    assert sorted(os.listdir(folder)) == ["bot.toml", "helper.py", "main.py"]
    assert (folder / "helper.py").read_bytes() == HELPER
    assert oct((folder / "main.py").stat().st_mode & 0o777) == "0o644"
    assert tree_matches(str(folder), checked.files)
    (folder / "extra.py").write_bytes(b"")
    assert not tree_matches(str(folder), checked.files)


def test_the_packaged_example_packs_into_an_upload_that_passes(tmp_path):
    folder = os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples", "packaged_bot")
    archive = tmp_path / "packaged_bot.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for name in ("bot.toml", "main.py", "strategy.py"):
            tar.add(os.path.join(folder, name), arcname=name)
    checked = check_program(archive.read_bytes(), ArchiveLimits())
    assert (checked.entry, [file.path for file in checked.files]) == (
        "main.py",
        ["bot.toml", "main.py", "strategy.py"],
    )


def _patched_zip(*, method: int | None = None, flags: int | None = None) -> bytes:
    """A one-entry zip whose headers (local and central) claim another compression method or flag bits."""
    data = bytearray(crafted.zip_bytes({"bot.py": crafted.BOT}, method=zipfile.ZIP_STORED))
    for signature, method_at, flags_at in ((b"PK\x03\x04", 8, 6), (b"PK\x01\x02", 10, 8)):
        start = data.index(signature)
        if method is not None:
            data[start + method_at : start + method_at + 2] = method.to_bytes(2, "little")
        if flags is not None:
            data[start + flags_at : start + flags_at + 2] = flags.to_bytes(2, "little")
    return bytes(data)


def test_a_zip_entry_of_an_unknown_compression_method_is_refused_by_name():
    assert refused(_patched_zip(method=99)) == (
        "the entry 'bot.py' is compressed with method 99: only stored, deflate, bzip2 and lzma entries are "
        "read"
    )


def test_an_encrypted_zip_entry_is_refused():
    assert refused(_patched_zip(flags=0x1)) == "the entry 'bot.py' is encrypted"
