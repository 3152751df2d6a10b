"""Hostile programs in the real sandbox (tests/league/bots/hostile/): each tries an escape, each escape fails,
and the match still finishes with a record that replays. And a canary the program prints reaches nothing an
anonymous visitor can read: every public page and every API read of the schema is fetched and searched."""

import contextlib
import json
import os
import re
import shutil
import socket
import tempfile
import uuid
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.test import Client

from games.core.replay import replay
from league.bots.models import BotDefinition, Fixture
from league.bots.playing import SeatBot, play_league_match
from league.bots.services.definitions import bot_register
from league.bots.services.leagues import league_start
from league.bots.services.work import work_play
from league.players.models import Player
from league.programs.external import Limits
from league.programs.models import ProgramLog, WorkerProbe
from league.programs.sandbox import Sandbox, processes_of
from league.programs.sandboxing import sandbox, sandbox_config
from tests.league.bots.conftest import make_bots, make_league

HOSTILE = Path(__file__).parent / "hostile"
PYTHON = "/usr/bin/python3"

pytestmark = pytest.mark.sandbox


def hostile(name: str, targets: dict | None = None, **limits) -> SeatBot:
    command = [PYTHON, str(HOSTILE / f"{name}.py")]
    if targets is not None:
        command.append(json.dumps(targets))  # not a path: the sandbox shows only the bot's own folder
    return SeatBot(label=name, command=tuple(command), limits=Limits(move_seconds=20, **limits))


def play_hostile(seat: SeatBot) -> tuple[dict, dict]:
    """Nacho Pile, the hostile program against two built-in bots: the record and the program's report."""
    played = play_league_match(
        game_id="nacho_pile",
        options={},
        seed=5,
        seats=[seat, SeatBot(label="Dice", strategy="random"), SeatBot(label="Plain", strategy="random")],
        sandbox=sandbox(),
    )
    assert replay(played.record).is_terminal()
    (log,) = [log for log in played.logs if log.seat == 0]
    reports = re.findall(r"^REPORT (.*)$", log.output, re.MULTILINE)
    assert len(reports) == 1, log.output
    return played.record, json.loads(reports[0])


@pytest.fixture
def used_slots(monkeypatch) -> list:
    """The slot users this test's programs ran as (recorded as each slot is claimed). Other jobs on the
    machine may run sandboxes of their own at the same time, as other slot users: only these are checked."""
    used = []
    claim = Sandbox.slot

    @contextlib.contextmanager
    def recording(self):
        with claim(self) as user:
            used.append(user)
            yield user

    monkeypatch.setattr(Sandbox, "slot", recording)
    return used


def slot_processes(used: list) -> list:
    assert used, "no program ran in a sandbox"
    return [process for user in used for process in processes_of(user.uid)]


def test_it_cannot_read_the_services_files_nor_the_workers_environment():
    files = [
        str(settings.BASE_DIR / "league" / "settings" / "base.py"),
        str(settings.BASE_DIR / "manage.py"),
        str(settings.VAR_DIR / "admin-password.txt"),
        f"/proc/{os.getpid()}/environ",
        f"/proc/{os.getppid()}/environ",
        "/proc/1/environ",
        "/etc/shadow",
        "/etc/passwd",
        "/root/.bashrc",
    ]

    record, report = play_hostile(hostile("read_files", {"files": files}))

    assert record["end"] == {"reason": "normal", "forfeits": []}
    assert {path: report[path] for path in files} == {
        **dict.fromkeys(files, "FileNotFoundError"),
        "/proc/1/environ": "read",  # its own sandbox's pid 1 (bubblewrap): PATH only, see below
    }
    assert report["processes"] == [1, 2]  # bubblewrap and itself: no process of the worker's


def test_the_sandboxs_own_pid_one_holds_nothing_of_the_workers_environment(monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "worker-secret-in-the-environment")
    record, report = play_hostile(hostile("read_files", {"files": ["/proc/1/environ", "/proc/self/environ"]}))

    assert report["/proc/self/environ"] == "read"
    assert "worker-secret" not in json.dumps(record)


def test_it_cannot_reach_the_database_or_the_broker_by_unix_socket_or_tcp():
    unix = ["/var/run/postgresql/.s.PGSQL.5432", "/run/postgresql/.s.PGSQL.5432", "/tmp/.s.PGSQL.5432"]
    tcp = [["127.0.0.1", 5432], ["127.0.0.1", 6379], ["::1", 5432], [socket.gethostname(), 5432]]

    record, report = play_hostile(hostile("connect", {"unix": unix, "tcp": tcp}))

    assert record["end"] == {"reason": "normal", "forfeits": []}
    assert {key: value for key, value in report.items() if value == "connected"} == {}
    assert report["/var/run/postgresql/.s.PGSQL.5432"] == "FileNotFoundError"
    # Its own network namespace: 127.0.0.1 is its own loopback, where nothing listens.
    assert report["127.0.0.1:5432"] in ("ConnectionRefusedError", "OSError")


def test_it_cannot_write_outside_its_private_tmp(tmp_path):
    outside = [
        str(settings.BASE_DIR / "league" / "bots" / "planted.py"),
        str(settings.VAR_DIR / "planted.txt"),
        "/usr/lib/python3/dist-packages/planted.py",
        "/etc/planted",
        "/planted",
        "/var/tmp/planted",
        "/dev/shm/planted",
    ]

    record, report = play_hostile(hostile("write_files", {"paths": outside}))

    own = str(HOSTILE / "written-by-a-bot.py")
    assert record["end"] == {"reason": "normal", "forfeits": []}
    # Inside the sandbox /tmp is its own small tmpfs: where the project itself lives under /tmp (a clone in
    # /tmp, as CI may make), the program may create those paths there, in its tmpfs, never on the host.
    expected = {path: "written" if path.startswith("/tmp/") else "OSError" for path in outside}
    assert {path: report[path] for path in [*outside, own]} == {**expected, own: "OSError"}
    assert report["/tmp/scratch.txt"] == "written"
    assert [path for path in [*outside, own] if Path(path).exists()] == []


def test_a_daemon_it_leaves_is_gone_when_the_match_ends(used_slots):
    record, report = play_hostile(hostile("daemon"))

    assert report == {"daemon": "started"}
    assert record["end"] == {"reason": "normal", "forfeits": []}
    assert slot_processes(used_slots) == []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                command = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            assert b"hostile/daemon.py" not in command


def test_two_hundred_forks_fail_under_the_process_cap(used_slots):
    record, report = play_hostile(hostile("fork_bomb"))

    cap = sandbox_config().max_processes
    # The cap counts every process of the slot user: bubblewrap's two, the program, its children.
    assert report == {"started": cap - 3, "refused": 200 - (cap - 3)}
    assert record["end"] == {"reason": "normal", "forfeits": []}
    assert slot_processes(used_slots) == []


def test_memory_past_the_bound_across_several_children_is_refused():
    memory_mb = 64
    record, report = play_hostile(hostile("memory", {"children": 20, "try_mb": 256}, memory_mb=memory_mb))

    cap = sandbox_config().max_processes
    held = [mib for mib, _ in report["held_mb"]]
    assert report["limit_mb"] == memory_mb
    assert report["children"] == cap - 3 and report["refused_forks"] == 1
    assert all(refused for _, refused in report["held_mb"])  # every child ran into its limit
    assert all(0 < mib < memory_mb for mib in held)
    # The whole bot: at most the process cap times the per-process limit (bubblewrap's processes included).
    assert sum(held) + memory_mb < cap * memory_mb
    assert record["end"] == {"reason": "normal", "forfeits": []}


CANARY_PROGRAM = """
import json, sys
sys.stderr.write("{canary} on standard error\\n")
sys.stderr.flush()
for line in sys.stdin:
    if json.loads(line)["type"] == "act":
        print("{canary} instead of an answer", flush=True)
"""


@pytest.fixture
def canary_program():
    """A program that prints a canary of its own (in a folder the slot users can read, outside the tree;
    the canary is in the program, not in its command, which the bot's public page shows)."""
    canary = f"CANARY-{uuid.uuid4().hex}"
    folder = Path(tempfile.mkdtemp(prefix="pecking-canary-"))
    folder.chmod(0o755)
    (folder / "canary.py").write_text(CANARY_PROGRAM.format(canary=canary))
    (folder / "canary.py").chmod(0o644)
    yield folder / "canary.py", canary
    shutil.rmtree(folder)


@pytest.mark.django_db(transaction=True)
def test_what_a_program_prints_reaches_only_staff_never_an_anonymous_visitor(staff, canary_program):
    path, canary = canary_program
    program = bot_register(
        name="Chatty",
        game_id="nacho_pile",
        kind="external",
        command=[PYTHON, str(path)],
        move_seconds=5,
        by=staff,
    )
    bots = [*make_bots(staff, (("Dice", "random", {}), ("Plain", "random", {}))), program]
    league = make_league(staff, bots, table_size=3, target_value=2, sittings_per_round=1)
    with mock.patch("league.bots.services.leagues.queue_work"):
        league_start(league_id=league.pk)
        work_play(league_id=league.pk, worker="test-canary")
    fixtures = list(Fixture.objects.filter(league=league).select_related("match"))

    # It played, forfeited on its first answer, and what it printed is in the staff's log.
    assert len(fixtures) == 2 and all(fixture.done for fixture in fixtures)
    for fixture in fixtures:
        record = fixture.match.record_json()
        assert [forfeit["reason"] for forfeit in record["end"]["forfeits"]] == ["protocol_error"]
        assert replay(record).is_terminal()
    logs = list(ProgramLog.objects.filter(bot=program))
    assert len(logs) == 2
    assert all(f"{canary} on standard error" in log.output for log in logs)
    assert all(canary in log.detail for log in logs)
    assert WorkerProbe.objects.get(worker="test-canary").isolated

    visitor = Client()
    pages = ["/", "/players/", "/matches/", "/games/nacho_pile/", "/tournaments/", "/bots/", "/bots/bots/"]
    pages += [f"/bots/{league.pk}/", f"/bots/{league.pk}/live/", "/health/", "/health/?format=json"]
    pages += [
        "/api/",
        "/api/schema/",
        "/api/docs/",
        "/admin/",
        f"/admin/programs/programlog/{logs[0].pk}/change/",
    ]
    pages += [player.get_absolute_url() for player in Player.objects.all()]
    pages += [bot.get_absolute_url() for bot in BotDefinition.objects.all()]
    for fixture in fixtures:
        pages.append(f"/matches/{fixture.match_id}/")
        events = len(fixture.match.record_json()["events"])
        pages += [f"/bots/matches/{fixture.match_id}/replay/?step={step}" for step in range(events + 1)]
        pages.append(f"/bots/matches/{fixture.match_id}/replay/?step=1&fragment=1")

    schema = json.loads(visitor.get("/api/schema/?format=json").content)
    ids = {
        "id": {
            "/api/bot-leagues/": league.pk,
            "/api/bots/": program.pk,
            "/api/matches/": fixtures[0].match_id,
            "/api/players/": program.player_id,
        },
        "match_id": fixtures[0].match_id,
    }
    operations = 0
    for path, methods in schema["paths"].items():
        if "get" not in methods:
            continue
        operations += 1
        prefix = path.split("{")[0]
        url = path.replace("{match_id}", str(ids["match_id"]))
        url = url.replace(
            "{id}", str(next((pk for start, pk in ids["id"].items() if prefix.startswith(start)), 1))
        )
        pages.append(url)
        if "{id}" in path and "/matches/" in prefix and "bot-leagues" not in prefix:
            pages += [
                url.replace(str(fixtures[0].match_id), str(fixture.match_id)) for fixture in fixtures[1:]
            ]
    pages += [f"/api/bot-leagues/{league.pk}/matches/{fixture.match_id}/record/" for fixture in fixtures]
    pages += [f"/api/matches/{fixture.match_id}/results/" for fixture in fixtures]

    fetched = {}
    for url in pages:
        response = visitor.get(url, follow=True)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        fetched[url] = (response.status_code, canary.encode() in body)
    assert operations >= 20
    assert fetched[f"/api/bot-leagues/{league.pk}/matches/{fixtures[0].match_id}/record/"] == (200, False)
    assert fetched[f"/bots/matches/{fixtures[0].match_id}/replay/?step=0"] == (200, False)
    assert [url for url, (_, leaked) in fetched.items() if leaked] == []
