"""Uploaded programs in the real sandbox: an upload plays real league matches, its standard error reaches its
author's log (and no one else's), and inside its sandbox it sees its own files at /bot, read-only, and
nothing else of the workers' cache."""

import json
import os
import re
from unittest import mock

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games.core.replay import replay
from league.bots.models import BotDefinition, Fixture
from league.bots.playing import SeatBot, play_league_match
from league.bots.services.leagues import league_start
from league.bots.services.work import seat_bot, work_play
from league.bots.uploads import bot_check, bot_upload
from league.programs.models import ProgramLog
from league.programs.programs import program_cache, seats_ready
from league.programs.sandboxing import sandbox
from tests.factories import UserFactory
from tests.league.bots.conftest import make_bots, make_league
from tests.league.bots.crafted import BOT, TOML, good_tar, tar_bytes, tar_file

pytestmark = pytest.mark.sandbox

SNOOP = b"""import json, os, sys
targets = json.loads(open("/bot/targets.json").read())
report = {"cwd": os.getcwd(), "bot": sorted(os.listdir("/bot"))}
for path in targets:
    try:
        os.listdir(path) if os.path.isdir(path) else open(path, "rb").read(1)
        report[path] = "read"
    except OSError as exc:
        report[path] = type(exc).__name__
try:
    open("/bot/written.txt", "w").write("x")
    report["write"] = "written"
except OSError as exc:
    report["write"] = exc.strerror
print("REPORT " + json.dumps(report), file=sys.stderr, flush=True)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        print(json.dumps({"action": message["legal_actions"][0]}), flush=True)
"""


def test_an_upload_plays_league_matches_and_its_author_reads_its_stderr(member, staff):
    author = Client()
    author.force_login(member)
    response = author.post(
        "/bots/bots/upload/",
        {"game": "nacho_pile", "name": "Tarred", "file": SimpleUploadedFile("bot.tar.gz", good_tar())},
    )
    assert response.status_code == 302
    uploaded = BotDefinition.objects.get(name="Tarred")
    assert bot_check(bot_id=uploaded.pk) == "ready"  # what the worker's check task does
    uploaded.refresh_from_db()
    bots = [*make_bots(staff, (("Dice", "random", {}), ("Plain", "random", {}))), uploaded]
    league = make_league(staff, bots, table_size=3, target_value=2, sittings_per_round=1)
    with mock.patch("league.bots.services.leagues.queue_work"):
        league_start(league_id=league.pk)
        work_play(league_id=league.pk, worker="test-upload")
    fixtures = list(Fixture.objects.filter(league=league).select_related("match"))
    assert len(fixtures) == 2 and all(fixture.done for fixture in fixtures)
    for fixture in fixtures:
        record = fixture.match.record_json()
        assert record["end"] == {"reason": "normal", "forfeits": []}
        assert replay(record).is_terminal()
        # the record names the uploaded seat's bot definition and version (strict verification lists it)
        assert [seat.get("external") for seat in record["seats"] if seat["bot"] == "external"] == [
            {"definition": "Tarred", "version": 1}
        ]
    logs = list(ProgramLog.objects.filter(bot=uploaded).order_by("match_id"))
    assert [log.match_id for log in logs] == sorted(fixture.match_id for fixture in fixtures)
    assert all(log.output.startswith("main starting\nchoosing among ") for log in logs)

    page = author.get(f"/bots/bots/{uploaded.pk}/logs/").content.decode()
    assert page.count("main starting") == 2 and "0% errors" in page and "0% time-outs" in page
    stranger = Client()
    stranger.force_login(UserFactory())
    assert stranger.get(f"/bots/bots/{uploaded.pk}/logs/").status_code == 403
    assert "main starting" not in stranger.get(f"/bots/bots/{uploaded.pk}/").content.decode()


def test_inside_its_sandbox_an_upload_sees_only_its_own_files_read_only(member):
    other = bot_upload(by=member, game_id="nacho_pile", name="Other", data=BOT)
    other_seat = seats_ready([seat_bot(other)])[0]  # the other program is in this worker's cache too
    cache_root = program_cache().root
    targets = [
        other_seat.program_dir,
        os.path.join(other_seat.program_dir, "bot.py"),
        cache_root,
        os.path.join(cache_root, "blobs", other.program.sha256),
        str(settings.VAR_DIR),
        str(settings.BASE_DIR / "manage.py"),
    ]
    data = tar_bytes(
        [
            tar_file("bot.toml", TOML),
            tar_file("main.py", SNOOP),
            tar_file("targets.json", json.dumps(targets).encode()),
        ]
    )
    snoop = bot_upload(by=member, game_id="nacho_pile", name="Snoop", data=data)
    seat = seats_ready([seat_bot(snoop)])[0]
    assert seat.program_dir == os.path.join(cache_root, snoop.program.sha256)
    played = play_league_match(
        game_id="nacho_pile",
        options={},
        seed=3,
        seats=[seat, SeatBot(label="Dice", strategy="random"), SeatBot(label="Plain", strategy="random")],
        sandbox=sandbox(),
    )
    assert played.record["end"] == {"reason": "normal", "forfeits": []}
    (log,) = [log for log in played.logs if log.seat == 0]
    report = json.loads(re.search(r"^REPORT (.*)$", log.output, re.MULTILINE).group(1))
    assert report == {
        "cwd": "/bot",
        "bot": ["bot.toml", "main.py", "targets.json"],
        **dict.fromkeys(targets, "FileNotFoundError"),
        "write": "Read-only file system",
    }
    assert not os.path.exists(os.path.join(seat.program_dir, "written.txt"))
