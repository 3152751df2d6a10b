"""The workers' cache of uploaded programs: fetched by hash once, checked on every use; a tampered file, an
added file, a link or a damaged cached upload is detected, thrown away and fetched again."""

import os
from pathlib import Path

import pytest

from league.bots.archives import ArchiveLimits, check_program
from league.bots.program_cache import ProgramCache, ProgramUnavailable
from tests.league.bots.crafted import HELPER, good_tar

DATA = good_tar()
CHECKED = check_program(DATA, ArchiveLimits())
FILES = [file.as_list() for file in CHECKED.files]


class Store:
    def __init__(self, data=DATA):
        self.data = data
        self.fetches = 0

    def __call__(self) -> bytes:
        self.fetches += 1
        return self.data


@pytest.fixture
def cache(tmp_path):
    return ProgramCache(root=str(tmp_path / "programs"), limits=ArchiveLimits())


def test_a_program_is_fetched_once_then_read_from_the_cache(cache):
    store = Store()
    folder = cache.folder(CHECKED.sha256, FILES, store)
    assert folder == os.path.join(cache.root, CHECKED.sha256)
    assert sorted(os.listdir(folder)) == ["bot.toml", "helper.py", "main.py"]
    assert cache.folder(CHECKED.sha256, FILES, store) == folder
    assert store.fetches == 1
    assert oct(os.stat(cache.root).st_mode & 0o777) == "0o755"
    assert [name for name in os.listdir(cache.root) if name.startswith(".tmp")] == []


@pytest.mark.parametrize("tamper", ["change", "add", "remove", "link"])
def test_a_tampered_cached_folder_is_detected_and_unpacked_again(cache, tamper):
    store = Store()
    folder = cache.folder(CHECKED.sha256, FILES, store)
    helper = os.path.join(folder, "helper.py")
    if tamper == "change":
        with open(helper, "wb") as handle:
            handle.write(b"import os; os.system('evil')\n")
    elif tamper == "add":
        Path(folder, "sitecustomize.py").touch()
    elif tamper == "remove":
        os.unlink(helper)
    else:
        os.unlink(helper)
        os.symlink("/etc/passwd", helper)
    assert cache.folder(CHECKED.sha256, FILES, store) == folder
    assert Path(helper).read_bytes() == HELPER and not os.path.islink(helper)
    assert sorted(os.listdir(folder)) == ["bot.toml", "helper.py", "main.py"]
    assert store.fetches == 1  # unpacked again from the cached upload, whose hash still matches


def test_a_tampered_cached_upload_is_fetched_again(cache):
    store = Store()
    folder = cache.folder(CHECKED.sha256, FILES, store)
    blob = os.path.join(cache.root, "blobs", CHECKED.sha256)
    with open(blob, "r+b") as handle:
        handle.seek(20)
        handle.write(b"\xff\xff")
    os.unlink(os.path.join(folder, "main.py"))
    assert cache.folder(CHECKED.sha256, FILES, store) == folder
    assert store.fetches == 2
    assert Path(blob).read_bytes() == DATA


def test_bytes_that_do_not_match_their_hash_are_refused(cache):
    with pytest.raises(ProgramUnavailable) as caught:
        cache.folder(CHECKED.sha256, FILES, Store(good_tar(mode="w")))
    assert str(caught.value) == f"the stored program does not match its hash {CHECKED.sha256[:12]}"
    assert not os.path.exists(os.path.join(cache.root, CHECKED.sha256))
