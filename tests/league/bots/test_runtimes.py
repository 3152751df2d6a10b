"""Uploaded programs on three runtimes (Python, JavaScript on Node, C), without the sandbox: how an upload's
runtime is found (the form's choice, the manifest, the entry point's extension, the file's name), that a
worker whose probe lacks a runtime takes none of its seats, and that the bot's page and the API say so."""

from unittest import mock

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.core.protocol import Limits
from league.bots.models import BotDefinition
from league.bots.services.challenges import challenge_create
from league.bots.services.leases import Kind, leases_claim, open_owner
from league.bots.services.work import work_claim
from league.bots.uploads import bot_check, bot_upload
from league.core.errors import UserError
from league.programs.archives import ArchiveLimits, ProgramRefused, check_program
from league.programs.checking import CheckUnavailable
from league.programs.probe import PROTECTIONS, ProbeResult, failed_probe
from league.programs.runtimes import program_command, runtime_limits
from league.programs.services import worker_probe_record
from tests.league.bots.conftest import make_bots
from tests.league.bots.crafted import BOT, zip_bytes

JS = b'process.stdin.on("data", () => {});\n'
C = b"int main(void) { return 0; }\n"
LIMITS = ArchiveLimits()


def runtime(data: bytes, **given: str) -> tuple[str, str, str]:
    checked = check_program(data, LIMITS, **given)
    return checked.runtime, checked.entry, checked.format


def test_one_file_alone_runs_on_the_runtime_its_name_or_the_choice_says():
    assert runtime(BOT) == ("python", "bot.py", "python")
    assert runtime(BOT, filename="my_bot.py") == ("python", "bot.py", "python")
    assert runtime(JS, filename="bot.js") == ("node", "bot.js", "file")
    assert runtime(JS, filename="Bot.MJS") == ("node", "bot.js", "file")
    assert runtime(C, filename="main.c") == ("c", "bot.c", "file")
    assert runtime(C, filename="upload.bin", runtime="c") == ("c", "bot.c", "file")
    assert runtime(JS, filename="bot.txt") == ("python", "bot.py", "python")  # nothing says: Python


def test_an_archive_runs_on_its_manifests_runtime_or_its_entry_points_extension():
    assert runtime(zip_bytes({"bot.toml": b'entry = "src/main.js"', "src/main.js": JS})) == (
        "node",
        "src/main.js",
        "zip",
    )
    assert (
        runtime(zip_bytes({"bot.toml": b'entry = "bot.c"\nruntime = "c"', "bot.c": C, "x.h": b""}))[0] == "c"
    )
    assert (
        runtime(zip_bytes({"manifest.json": b'{"entry": "a.js", "runtime": "javascript"}', "a.js": JS}))[0]
        == "node"
    )
    checked = check_program(
        zip_bytes({"bot.toml": b'entry = "a.py"\nruntime = "python3"', "a.py": BOT}), LIMITS
    )
    assert checked.manifest == {"entry": "a.py", "runtime": "python"}
    with pytest.raises(ProgramRefused) as caught:
        check_program(
            zip_bytes({"bot.toml": b'entry = "a.py"\nruntime = "node"', "a.py": BOT}), LIMITS, runtime="c"
        )
    assert str(caught.value) == "bot.toml says runtime 'node', but the upload chose C: choose one"
    with pytest.raises(ProgramRefused) as caught:
        check_program(zip_bytes({"bot.toml": b'entry = "bot.c"', "bot.c": b"\xff\xfe"}), LIMITS)
    assert str(caught.value) == "bot.c is not UTF-8 text (byte 0)"


def test_each_runtime_runs_with_its_command_and_node_with_its_heap_under_a_raised_address_space():
    assert program_command("src/main.py") == ["python3", "-E", "-s", "-B", "/bot/src/main.py"]
    assert program_command("bot.js", "node", 256) == ["node", "--max-old-space-size=256", "/bot/bot.js"]
    assert program_command("bot.c", "c") == ["/bot/bot"]
    limits = Limits(memory_mb=512)
    assert runtime_limits("node", limits).memory_mb == 1536
    assert runtime_limits("c", limits) == limits == runtime_limits("python", limits)


def api(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def test_the_upload_api_and_form_take_a_runtime_and_the_api_shows_it(member, client):
    response = api(member).post(
        "/api/bots/upload/",
        {
            "game": "nacho_pile",
            "name": "Scripted",
            "file": SimpleUploadedFile("whatever", JS),
            "runtime": "node",
        },
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    program = response.json()["program"]
    assert (program["runtime"], program["entry"], program["runtime_version"], program["build_sha256"]) == (
        "node",
        "bot.js",
        "",
        "",
    )
    response = api(member).post(
        "/api/bots/upload/",
        {"game": "nacho_pile", "name": "Other", "file": SimpleUploadedFile("b.rb", JS), "runtime": "ruby"},
        format="multipart",
    )
    assert (response.status_code, response.json()["field"]) == (400, "runtime")
    client.force_login(member)
    response = client.post(
        "/bots/bots/upload/",
        {"game": "nacho_pile", "name": "Compiled", "file": SimpleUploadedFile("bot.c", C)},
    )
    assert response.status_code == 302
    assert BotDefinition.objects.get(name="Compiled").program.runtime == "c"
    with pytest.raises(UserError) as caught:
        bot_upload(by=member, game_id="nacho_pile", name="X", data=C, runtime="rust")
    assert (caught.value.field, caught.value.message) == (
        "runtime",
        "the runtime must be one of python (Python), node (Node.js), c (C), not 'rust'",
    )


def ready(bot: BotDefinition) -> BotDefinition:
    BotDefinition.objects.filter(pk=bot.pk).update(state=BotDefinition.State.READY)
    bot.refresh_from_db()
    return bot


def test_a_worker_whose_probe_lacks_a_runtime_takes_none_of_its_seats(staff, member):
    scripted = ready(bot_upload(by=member, game_id="nacho_pile", name="Scripted", data=JS, filename="b.js"))
    builtin = make_bots(staff)[:2]
    with mock.patch("league.bots.services.challenges.queue_challenge_work"):
        challenge_create(
            bot_id=scripted.pk, opponent_ids=[b.pk for b in builtin], matches=2, seed=1, by=member
        )

    assert leases_claim(Kind.CHALLENGE, token="w1", seconds=30, limit=5, runtimes=["python", "c"]) == []
    assert work_claim(token="w1", runtimes=["python"]).games == []
    assert open_owner((Kind.CHALLENGE,), runtimes=["c"]) is None
    claimed = leases_claim(Kind.CHALLENGE, token="w2", seconds=30, limit=5, runtimes=["node", "python"])
    assert len(claimed) == 2


def test_a_worker_without_runtimes_probed_takes_every_runtime(staff, member):
    compiled = ready(bot_upload(by=member, game_id="nacho_pile", name="Compiled", data=C, filename="b.c"))
    builtin = make_bots(staff)[:2]
    with mock.patch("league.bots.services.challenges.queue_challenge_work"):
        challenge_create(
            bot_id=compiled.pk, opponent_ids=[b.pk for b in builtin], matches=1, seed=1, by=member
        )
    assert len(leases_claim(Kind.CHALLENGE, token="w", seconds=30, limit=5, runtimes=None)) == 1


def probe(runtimes: dict[str, str] | None) -> ProbeResult:
    return ProbeResult(proven=dict.fromkeys(PROTECTIONS, True), runtimes=runtimes)


def test_the_bots_page_says_when_no_worker_can_run_its_runtime(member, client):
    scripted = bot_upload(by=member, game_id="nacho_pile", name="Scripted", data=JS, filename="b.js")
    worker_probe_record(worker="celery@py", hostname="py", result=probe({"python": "Python 3.11.2"}))
    page = client.get(reverse("bots:bot", args=[scripted.pk])).content.decode()
    assert "No worker can run node programs now; its matches wait." in page
    assert "<dt>Runtime</dt><dd>Node.js</dd>" in page
    assert "Being checked: a worker parses it with <code>node --check</code> in its sandbox" in page
    assert "runs python (<code>Python 3.11.2</code>)" in page

    worker_probe_record(
        worker="celery@js", hostname="js", result=probe({"python": "Python 3.11.2", "node": "node v20.20.2"})
    )
    page = client.get(reverse("bots:bot", args=[scripted.pk])).content.decode()
    assert "No worker can run" not in page
    python = bot_upload(by=member, game_id="nacho_pile", name="Plain", data=BOT)
    assert "No worker can run" not in client.get(reverse("bots:bot", args=[python.pk])).content.decode()


def test_a_c_upload_stays_checking_where_no_proven_sandbox_can_compile_it(member):
    compiled = bot_upload(by=member, game_id="nacho_pile", name="Compiled", data=C, filename="b.c")
    not_proven = failed_probe("no bubblewrap")
    with (
        mock.patch("league.programs.sandboxing.verdict", return_value=not_proven),
        pytest.raises(CheckUnavailable) as caught,
    ):
        bot_check(bot_id=compiled.pk)
    assert str(caught.value) == "this worker's sandbox is not proven: a C or JavaScript check waits for one"
    python_only = probe({"python": "Python 3.11.2"})
    with (
        mock.patch("league.programs.sandboxing.verdict", return_value=python_only),
        pytest.raises(CheckUnavailable) as caught,
    ):
        bot_check(bot_id=compiled.pk)
    assert str(caught.value) == "this worker's sandbox has no C"
    compiled.refresh_from_db()
    assert (compiled.state, compiled.program.runtime_version, compiled.program.build_sha256) == (
        "checking",
        "",
        "",
    )
