"""The workers' cache of uploaded programs: fetched by hash once, checked on every use; a tampered file, an
added file, a link or a damaged cached upload is detected, thrown away and fetched again."""

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings

from league.programs import sandboxing
from league.programs.archives import ArchiveLimits, check_program
from league.programs.program_cache import ProgramCache, ProgramUnavailable
from league.programs.sandbox import SlotUser
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
    assert oct(os.stat(cache.root).st_mode & 0o777) == "0o750"
    assert oct(os.stat(os.path.join(cache.root, "blobs")).st_mode & 0o777) == "0o700"
    assert oct(os.stat(folder).st_mode & 0o777) == "0o755"
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


def mode(path) -> str:
    return oct(os.stat(path).st_mode & 0o777)


def test_the_cache_is_0750_of_the_slot_users_group_and_a_loose_root_is_narrowed(tmp_path):
    # As root any group will do; otherwise one this account is in.
    group = 4242 if os.getuid() == 0 else os.getgid()
    root = tmp_path / "programs"
    root.mkdir(mode=0o777)
    os.chmod(root, 0o777)  # left open by an older version or by hand
    cache = ProgramCache(root=str(root), limits=ArchiveLimits(), group=group)
    folder = cache.folder(CHECKED.sha256, FILES, Store())
    assert (mode(root), os.stat(root).st_gid, os.stat(root).st_uid) == ("0o750", group, os.getuid())
    assert (mode(root / "blobs"), mode(folder), mode(os.path.join(folder, "main.py"))) == (
        "0o700",
        "0o755",
        "0o644",
    )


def test_slot_users_of_groups_of_their_own_may_pass_through_the_cache_but_not_list_it(tmp_path):
    cache = ProgramCache(root=str(tmp_path / "programs"), limits=ArchiveLimits(), mode=0o751)
    cache.folder(CHECKED.sha256, FILES, Store())
    assert mode(cache.root) == "0o751"


def test_a_cache_in_a_folder_every_account_may_write_is_refused(tmp_path):
    """Another account could swap the cache's folder for its own there (a sticky /tmp is fine)."""
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    cache = ProgramCache(root=str(shared / "pecking-order" / "programs"), limits=ArchiveLimits())
    with pytest.raises(OSError) as refused:
        cache.folder(CHECKED.sha256, FILES, Store())
    assert str(refused.value) == f"{shared} is writable by every account"
    os.chmod(shared, 0o1777)
    assert cache.folder(CHECKED.sha256, FILES, Store()) == os.path.join(cache.root, CHECKED.sha256)


def test_a_cache_root_that_is_a_link_is_refused(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "programs").symlink_to(elsewhere)
    cache = ProgramCache(root=str(tmp_path / "programs"), limits=ArchiveLimits())
    with pytest.raises(OSError) as refused:
        cache.folder(CHECKED.sha256, FILES, Store())
    assert str(refused.value) == f"{tmp_path / 'programs'} is not a folder of this account"
    assert os.listdir(elsewhere) == []


@pytest.mark.parametrize(
    "gids, expected",
    [([991, 991, 991], (0o750, 991)), ([995, 994], (0o751, None)), ([], (0o750, None))],
    ids=["one shared group", "groups of their own", "no slot users"],
)
def test_the_cache_is_shown_to_the_group_the_slot_users_share(gids, expected):
    users = [SlotUser(f"po-sandbox-{n}", 990 - n, gid) for n, gid in enumerate(gids)]
    with mock.patch.object(sandboxing, "sandbox", return_value=mock.Mock(slot_users=lambda: users)):
        assert sandboxing.program_cache_access() == expected


def test_the_program_cache_defaults_to_a_folder_of_this_account_under_the_temporary_folder():
    environment = {key: value for key, value in os.environ.items() if key != "PROGRAM_CACHE_DIR"}
    shown = subprocess.run(
        [sys.executable, "-c", "from league.settings import base; print(base.PROGRAM_CACHE_DIR)"],
        cwd=settings.BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    expected = os.path.join(tempfile.gettempdir(), f"pecking-order-{os.getuid()}", "programs")
    assert shown.stdout.strip() == expected
    assert not settings.PROGRAM_CACHE_DIR.startswith(str(settings.VAR_DIR))
