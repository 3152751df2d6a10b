"""The machine's memory budget for sandboxes, without running a program: seats hold their caps as locks in the
lock folder, a seat that does not fit waits (and gives up, handing the batch back, after its wait), room is
found between other seats' holdings, and a crashed holder frees its room. And a bot whose own cap exceeds the
budget is refused when it is registered or uploaded."""

import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from league.bots.models import BotDefinition
from league.bots.services.challenges import challenge_create
from league.bots.services.definitions import bot_register
from league.bots.services.ladders import ladder_create, ladder_enter
from league.bots.uploads import bot_check, bot_upload
from league.core.errors import UserError
from league.programs.sandbox import Sandbox, SandboxConfig, SandboxUnavailable
from tests.league.bots.conftest import make_bots, make_league

ROOT = Path(__file__).resolve().parents[3]


def budget(tmp_path, megabytes: int, processes: int = 4, wait: float = 0.0) -> Sandbox:
    return Sandbox(
        SandboxConfig(
            lock_dir=str(tmp_path / "locks"),
            max_processes=processes,
            memory_budget_mb=megabytes,
            slot_wait_seconds=wait,
        )
    )


def test_a_seats_cap_is_its_process_cap_times_its_memory_and_is_taken_from_the_room(tmp_path):
    sandbox = budget(tmp_path, 1000)
    with sandbox.memory(100) as cap:
        assert cap == 400
        assert sandbox.memory_room() == 600
        with sandbox.memory(150) as second:
            assert second == 600
            assert sandbox.memory_room() == 0
        assert sandbox.memory_room() == 600
    assert sandbox.memory_room() == 1000


def test_a_seat_that_does_not_fit_waits_then_gives_up_without_running(tmp_path):
    sandbox = budget(tmp_path, 1000)
    with sandbox.memory(200):
        with pytest.raises(SandboxUnavailable) as full, sandbox.memory(60):
            pytest.fail("two seats of 800 and 240 MB held a budget of 1000 MB at once")
        assert str(full.value) == (
            "no room for a seat of 240 MB in this machine's memory budget for sandboxes (1000 MB, "
            "SANDBOX_MEMORY_BUDGET_MB): the seats running hold the rest"
        )
        assert sandbox.memory_room() == 200  # the failed claim holds nothing
    with sandbox.memory(60) as cap:
        assert cap == 240


def test_another_process_sharing_the_lock_folder_sees_the_room_taken(tmp_path):
    one, other = budget(tmp_path, 1000), budget(tmp_path, 1000)
    with one.memory(100):
        assert other.memory_room() == 600
        assert other.memory_free_now(600) is True
        assert other.memory_free_now(601) is False


def test_room_is_found_between_other_seats_holdings(tmp_path):
    sandbox = budget(tmp_path, 300, processes=1)
    with sandbox.memory(100), sandbox.memory(100) as middle_cap:
        assert middle_cap == 100
        with sandbox.memory(100):
            assert sandbox.memory_room() == 0
    with sandbox.memory(100):
        hole = sandbox.memory(100)
        hole.__enter__()
        with sandbox.memory(100):
            hole.__exit__(None, None, None)  # the middle seat ends: 100 MB free between two others
            assert sandbox.memory_room() == 100
            assert sandbox.memory_free_now(101) is False
            with sandbox.memory(100):
                assert sandbox.memory_room() == 0


def test_a_seat_larger_than_the_whole_budget_is_refused_at_once(tmp_path):
    sandbox = budget(tmp_path, 1000, wait=60.0)
    with pytest.raises(SandboxUnavailable) as refused, sandbox.memory(300):
        pytest.fail("a seat of 1200 MB ran within a budget of 1000 MB")
    assert str(refused.value) == (
        "a seat of 300 MB per process can hold 1200 MB, more than this machine's memory budget for "
        "sandboxes (1000 MB, SANDBOX_MEMORY_BUDGET_MB)"
    )


def test_a_holder_that_is_killed_frees_its_room(tmp_path):
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from league.programs.sandbox import Sandbox, SandboxConfig\n"
            f"sandbox = Sandbox(SandboxConfig(lock_dir={str(tmp_path / 'locks')!r}, max_processes=4,"
            " memory_budget_mb=1000))\n"
            "with sandbox.memory(200):\n"
            "    print('holding', flush=True)\n"
            "    time.sleep(600)\n",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout.readline() == b"holding\n"
        sandbox = budget(tmp_path, 1000)
        assert sandbox.memory_room() == 200
        holder.kill()
        holder.wait()
        assert sandbox.memory_room() == 1000
        with sandbox.memory(250) as cap:
            assert cap == 1000
    finally:
        holder.kill()
        holder.wait()


@pytest.mark.django_db
def test_a_program_whose_own_cap_exceeds_the_budget_is_refused_when_registered(staff, settings):
    settings.SANDBOX_MAX_PROCESSES = 8
    settings.SANDBOX_MEMORY_BUDGET_MB = 2048
    with pytest.raises(UserError) as refused:
        bot_register(
            name="Hog",
            game_id="nacho_pile",
            kind="external",
            command=["/usr/bin/python3", str(ROOT / "examples" / "random_bot.py")],
            memory_mb=257,
            by=staff,
        )
    assert refused.value.field == "memory_mb"
    assert refused.value.message == (
        "a seat of this bot can hold 2056 MB (8 processes of 257 MB), more than a worker's memory budget for "
        "bots (2048 MB): at most 256 MB per process fits"
    )
    fits = bot_register(
        name="Fits",
        game_id="nacho_pile",
        kind="external",
        command=["/usr/bin/python3", str(ROOT / "examples" / "random_bot.py")],
        memory_mb=256,
        by=staff,
    )
    assert fits.memory_mb == 256


@pytest.mark.django_db
def test_an_upload_is_refused_where_the_budget_cannot_hold_one_seat_of_it(member, settings):
    settings.SANDBOX_MAX_PROCESSES = 8
    settings.SANDBOX_MEMORY_BUDGET_MB = 4095
    program = (ROOT / "examples" / "random_bot.py").read_bytes()
    with pytest.raises(UserError) as refused:
        bot_upload(by=member, game_id="nacho_pile", name="Uploaded", data=program)
    assert refused.value.message == (
        "a seat of this bot can hold 4096 MB (8 processes of 512 MB), more than a worker's memory budget for "
        "bots (4095 MB): at most 511 MB per process fits"
    )
    settings.SANDBOX_MEMORY_BUDGET_MB = 4096
    assert bot_upload(by=member, game_id="nacho_pile", name="Uploaded", data=program).version == 1


TABLE_REFUSED = (
    "a table of 3 of these bots can hold 12288 MB of external programs at once, more than a worker's memory "
    "budget for bots (8192 MB): seat fewer external programs together, or ones with less memory"
)


@pytest.fixture
def three_programs(member, staff, settings):
    """Three uploaded programs (4096 MB a seat: 8 processes of 512 MB) and a built-in, in a budget of 8192 MB:
    a table of three holds two of the programs at most."""
    settings.SANDBOX_MAX_PROCESSES = 8
    settings.SANDBOX_MEMORY_BUDGET_MB = 8192
    program = (ROOT / "examples" / "random_bot.py").read_bytes()
    others = [get_user_model().objects.create_user(f"author{n}", password="pw-author-12345") for n in (2, 3)]
    uploaded = [
        bot_upload(by=author, game_id="nacho_pile", name=f"P{n}", data=program)
        for n, author in enumerate([member, *others], start=1)
    ]
    for bot in uploaded:  # their checks pass (a worker's task after the upload's commit)
        assert bot_check(bot_id=bot.pk) == "ready"
        bot.refresh_from_db()
    return uploaded, make_bots(staff)[0]


@pytest.mark.django_db
def test_a_league_a_ladder_or_a_challenge_whose_table_cannot_fit_the_budget_is_refused(staff, three_programs):
    (first, second, third), builtin = three_programs
    with pytest.raises(UserError) as refused:
        make_league(staff, [first, second, third, builtin], table_size=3)
    assert (refused.value.field, refused.value.message) == ("bots", TABLE_REFUSED)
    assert make_league(staff, [first, second, third, builtin], table_size=2).entries.count() == 4

    ladder = ladder_create(name="Ladder", game_id="nacho_pile", table_size=3, by=staff)
    for bot in (first, second):
        ladder_enter(ladder_id=ladder.pk, bot_id=bot.pk, by=staff)
    with pytest.raises(UserError) as refused:
        ladder_enter(ladder_id=ladder.pk, bot_id=third.pk, by=staff)
    assert (refused.value.field, refused.value.message) == ("bot", TABLE_REFUSED)
    assert ladder_enter(ladder_id=ladder.pk, bot_id=builtin.pk, by=staff).bot == builtin

    with pytest.raises(UserError) as refused:
        challenge_create(bot_id=first.pk, opponent_ids=[second.pk, third.pk], matches=2, by=first.created_by)
    assert (refused.value.field, refused.value.message) == ("opponents", TABLE_REFUSED)
    challenge = challenge_create(
        bot_id=first.pk, opponent_ids=[second.pk, builtin.pk], matches=2, by=first.created_by
    )
    assert sorted(challenge.opponents.values_list("name", flat=True)) == ["P2", "Random"]


@pytest.mark.django_db
def test_the_api_answers_400_naming_memory_mb_and_stores_nothing(staff, settings):
    settings.SANDBOX_MAX_PROCESSES = 8
    settings.SANDBOX_MEMORY_BUDGET_MB = 2048
    client = APIClient()
    client.force_authenticate(staff)
    command = ["/usr/bin/python3", str(ROOT / "examples" / "random_bot.py")]
    body = {"name": "Hog", "game": "nacho_pile", "kind": "external", "command": command, "memory_mb": 512}
    response = client.post("/api/bots/", body, format="json")
    assert response.status_code == 400
    assert (response.json()["field"], response.json()["detail"]) == (
        "memory_mb",
        "a seat of this bot can hold 4096 MB (8 processes of 512 MB), more than a worker's memory budget for "
        "bots (2048 MB): at most 256 MB per process fits",
    )
    assert not BotDefinition.objects.exists()
