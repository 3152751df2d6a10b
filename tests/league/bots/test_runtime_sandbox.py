"""JavaScript and C uploads in the real sandbox: the starter kits of Nacho Pile upload, pass their check (the
C one compiled by cc in the sandbox) and play their validation matches to legal results; and hostile sources
and programs are refused or contained with a clear message, never a 500 and never harming stored data."""

import hashlib
from pathlib import Path
from unittest import mock

import pytest
from django.test import Client

from games.core.replay import replay
from league.bots.models import BotDefinition, ValidationMatch
from league.bots.playing import SeatBot, play_league_match
from league.bots.services.work import seat_bot, work_play
from league.bots.uploads import bot_check, bot_upload
from league.programs.models import Program
from league.programs.probe import PROTECTIONS, ProbeResult, probe_runtimes
from league.programs.programs import seats_ready
from league.programs.sandboxing import sandbox
from league.programs.services import worker_probe_record
from tests.factories import UserFactory
from tests.league.bots.crafted import tar_bytes, tar_file

pytestmark = pytest.mark.sandbox

KITS = Path(__file__).resolve().parents[3] / "examples" / "kits" / "nacho_pile"
# 2^40 expansions of a macro: the compiler runs out of its bounds.
BOMB = "".join(f"#define A{i + 1} A{i} A{i}\n" for i in range(40))


@pytest.fixture
def validating(settings):
    settings.BOT_VALIDATION = True


def upload(user, name: str, data: bytes, filename: str) -> BotDefinition:
    with mock.patch("league.bots.uploads.signature"):
        bot = bot_upload(by=user, game_id="nacho_pile", name=name, data=data, filename=filename)
    with mock.patch("league.bots.services.challenges.signature"):
        bot_check(bot_id=bot.pk)
    bot.refresh_from_db()
    return bot


def play_validation(bot: BotDefinition) -> None:
    with (
        mock.patch("league.bots.services.challenges.signature"),
        mock.patch("league.matches.services.signature"),
    ):
        assert work_play(worker="test-runtimes") == 8
    bot.refresh_from_db()
    assert (bot.state, bot.refusal) == ("ready", "")
    for row in ValidationMatch.objects.filter(bot=bot).select_related("match"):
        record = row.match.record_json()
        assert record["end"] == {"reason": "normal", "forfeits": []}
        assert replay(record).is_terminal()


@pytest.mark.node
def test_the_javascript_kit_uploads_passes_its_check_and_plays_its_validation(member, validating):
    bot = upload(member, "Scripted", (KITS / "bot.js").read_bytes(), "bot.js")
    assert bot.state == "validating", bot.refusal
    assert (bot.program.runtime, bot.program.entry) == ("node", "bot.js")
    assert bot.program.runtime_version.startswith("node v")
    assert seat_bot(bot).command == ("node", "--max-old-space-size=512", "/bot/bot.js")
    assert seat_bot(bot).address_space_mb == 1536
    play_validation(bot)
    page = Client().get(f"/bots/bots/{bot.pk}/").content.decode()
    assert f"<dt>Runtime</dt><dd>Node.js · <code>{bot.program.runtime_version}</code></dd>" in page


@pytest.mark.c_compiler
def test_the_c_kit_uploads_is_compiled_at_its_check_and_its_executable_plays_its_validation(
    member, validating
):
    source = (KITS / "bot.c").read_bytes()
    bot = upload(member, "Compiled", source, "bot.c")
    assert bot.state == "validating", bot.refusal
    program = Program.objects.get(pk=bot.program_id)
    assert (program.runtime, program.entry) == ("c", "bot.c")
    assert program.runtime_version.startswith("cc (")
    assert bytes(program.build)[:4] == b"\x7fELF"
    assert program.build_sha256 == hashlib.sha256(bytes(program.build)).hexdigest()
    assert bytes(program.content) == source  # the source is kept as uploaded
    (seat,) = seats_ready([seat_bot(bot)])
    assert seat.command == ("/bot/bot",)
    assert sorted(Path(seat.program_dir).iterdir()) == [Path(seat.program_dir) / "bot"]
    play_validation(bot)
    response = Client().get(f"/api/bots/{bot.pk}/")
    assert (response.json()["program"]["runtime"], response.json()["program"]["build_sha256"]) == (
        "c",
        program.build_sha256,
    )


def refusal_of(user, name: str, source: bytes, filename: str = "bot.c") -> str:
    bot = upload(user, name, source, filename)
    assert bot.state == "refused"
    return bot.refusal


@pytest.mark.c_compiler
def test_a_c_source_that_includes_the_machines_files_is_refused_for_the_sandbox_has_none(member):
    refusal = refusal_of(member, "Peek", b'#include "/etc/passwd"\nint main(void) { return 0; }\n')
    assert refusal.startswith(
        "it does not compile (cc -std=gnu17 -O2 -pipe -fdiagnostics-color=never -o bot bot.c -lm: "
        "exit status 1): ./bot.c:1:10: fatal error: /etc/passwd: No such file or directory"
    )
    assert "root:" not in refusal
    secrets = b'#include "/work/wt/h46run/league/settings/base.py"\nint main(void) { return 0; }\n'
    assert "No such file or directory" in refusal_of(member, "Peek settings", secrets)


@pytest.mark.c_compiler
def test_a_c_source_that_includes_an_endless_device_is_stopped_by_the_checks_bounds(member, settings):
    settings.BOT_BUILD_CPU_SECONDS = 3
    refusal = refusal_of(member, "Endless", b'#include "/dev/random"\nint main(void) { return 0; }\n')
    assert refusal.startswith("it does not compile (")
    assert "out of memory" in refusal


@pytest.mark.c_compiler
def test_a_compile_that_never_ends_is_stopped_at_the_wall_deadline(member, settings):
    settings.BOT_BUILD_WALL_SECONDS = 1
    source = ("#define A0 x+\n" + BOMB + "int x; int main(void) { return A40 0; }\n").encode()
    assert refusal_of(member, "Forever", source).startswith(
        "the compile was stopped: it ran longer than 1 s (the check's bounds: 20 CPU seconds, 512 MB, 1 MiB "
        "of messages, an executable of 1 MiB)"
    )


@pytest.mark.c_compiler
def test_a_compile_that_writes_gigabytes_of_errors_is_stopped_at_a_mebibyte(member):
    source = ("#define A0 @\n" + BOMB + "int main(void) { A40 }\n").encode()
    refusal = refusal_of(member, "Noisy", source)
    assert refusal.startswith(
        "the compile was stopped: its messages grew past 1 MiB (the check's bounds: 20 CPU seconds, 512 MB, "
        "1 MiB of messages, an executable of 1 MiB): ./bot.c: In function ‘main’:"
    )
    assert len(refusal) < 5000
    # The upload page reads fine, and the author is told in words.
    bot = BotDefinition.objects.get(name="Noisy")
    author = Client()
    author.force_login(member)
    assert author.get(f"/bots/bots/{bot.pk}/").status_code == 200


FORKER = rb"""#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>
int main(void) {
    int started = 0;
    pid_t children[200];
    for (int i = 0; i < 200; i++) {
        pid_t pid = fork();
        if (pid < 0) break;
        if (pid == 0) { sleep(60); _exit(0); }
        children[started++] = pid;
    }
    fprintf(stderr, "forked %d\n", started);
    fflush(stderr);
    for (int i = 0; i < started; i++) { kill(children[i], SIGKILL); waitpid(children[i], 0, 0); }
    pid_t child = fork();
    if (child == 0) {
        execl("/bin/cat", "cat", "/etc/passwd", (char *)0);
        fprintf(stderr, "exec failed\n");
        _exit(1);
    }
    if (child > 0) waitpid(child, 0, 0);
    return 3;
}
"""


@pytest.mark.c_compiler
def test_a_c_program_that_forks_and_execs_is_contained_and_forfeits(member):
    bot = upload(member, "Forker", FORKER, "bot.c")
    assert bot.state == "ready", bot.refusal
    content = bytes(Program.objects.get(pk=bot.program_id).content)
    played = play_league_match(
        game_id="nacho_pile",
        options={},
        seed=5,
        seats=[*seats_ready([seat_bot(bot)]), SeatBot(label="Dice", strategy="random")],
        sandbox=sandbox(),
    )
    forfeits = played.record["end"]["forfeits"]
    assert [(forfeit["seat"], forfeit["reason"]) for forfeit in forfeits] == [(0, "crashed")]
    assert replay(played.record).is_terminal()
    (log,) = [log for log in played.logs if log.seat == 0]
    forked = int(log.output.split("forked ", 1)[1].split()[0])
    assert forked < 8  # the sandbox's process cap (SANDBOX_MAX_PROCESSES)
    assert log.detail == "At decision 1, your program exited with status 3 before answering"
    assert "cat: /etc/passwd: No such file or directory" in log.output
    assert "root:" not in log.output
    assert bytes(Program.objects.get(pk=bot.program_id).content) == content


SNOOP_JS = b"""const fs = require("fs");
const readline = require("readline");
const report = {};
const paths = ["/etc/passwd", "/etc/shadow", "/root", "/work", "/var/run/postgresql", "../etc/hostname"];
for (const path of paths) {
  try { fs.readFileSync(path); report[path] = "read"; } catch (error) { report[path] = error.code; }
}
try {
  fs.writeFileSync("/bot/planted.js", "x");
  report.write = "written";
} catch (error) {
  report.write = error.code;
}
process.stderr.write("REPORT " + JSON.stringify(report) + "\\n");
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "act") {
    process.stdout.write(JSON.stringify({ action: message.legal_actions[0] }) + "\\n");
  }
});
"""


@pytest.mark.node
def test_a_node_program_cannot_read_files_outside_its_folder_nor_write_its_own(member):
    bot = upload(member, "Snoop", SNOOP_JS, "snoop.js")
    assert bot.state == "ready", bot.refusal
    played = play_league_match(
        game_id="nacho_pile",
        options={},
        seed=3,
        seats=[*seats_ready([seat_bot(bot)]), SeatBot(label="Dice", strategy="random")],
        sandbox=sandbox(),
    )
    assert played.record["end"] == {"reason": "normal", "forfeits": []}
    (log,) = [log for log in played.logs if log.seat == 0]
    report = log.output.split("REPORT ", 1)[1].splitlines()[0]
    assert report == (
        '{"/etc/passwd":"ENOENT","/etc/shadow":"ENOENT","/root":"ENOENT","/work":"ENOENT",'
        '"/var/run/postgresql":"ENOENT","../etc/hostname":"ENOENT","write":"EROFS"}'
    )
    stranger = Client()
    stranger.force_login(UserFactory())
    assert "REPORT" not in stranger.get(f"/bots/bots/{bot.pk}/").content.decode()


@pytest.mark.node
@pytest.mark.c_compiler
def test_a_workers_probe_records_each_runtime_its_sandbox_runs_with_its_version(client, member):
    found = probe_runtimes(sandbox())
    assert sorted(found) == ["c", "node", "python"]
    assert found["python"].startswith("Python 3.")
    assert found["node"].startswith("node v")
    assert found["c"].startswith("cc (")
    result = ProbeResult(proven=dict.fromkeys(PROTECTIONS, True), runtimes=found)
    worker_probe_record(worker="celery@all", hostname="all", result=result)
    bot = bot_upload(by=member, game_id="nacho_pile", name="Scripted", data=SNOOP_JS, filename="a.js")
    page = client.get(f"/bots/bots/{bot.pk}/").content.decode()
    assert "No worker can run" not in page
    assert f"node (<code>{found['node']}</code>)" in page


HELPER_H = b"int first_legal(void);\n"
HELPER_C = b'#include "helper.h"\nint first_legal(void) { return 0; }\n'
MAIN_C = (
    b'#include <stdio.h>\n#include "helper.h"\nint main(void) { printf("%d\\n", first_legal()); return 0; }\n'
)


@pytest.mark.c_compiler
def test_a_c_archive_compiles_every_c_file_with_its_headers(member):
    data = tar_bytes(
        [
            tar_file("bot.toml", b'entry = "main.c"\n'),
            tar_file("main.c", MAIN_C),
            tar_file("lib/helper.c", HELPER_C.replace(b'"helper.h"', b'"../helper.h"')),
            tar_file("helper.h", HELPER_H),
        ]
    )
    bot = upload(member, "Archived", data, "bot.tar")
    assert (bot.state, bot.refusal, bot.program.runtime) == ("ready", "", "c")
    assert bytes(Program.objects.get(pk=bot.program_id).build)[:4] == b"\x7fELF"
    broken = tar_bytes([tar_file("bot.toml", b'entry = "main.c"\n'), tar_file("main.c", MAIN_C)])
    refusal = refusal_of(member, "Headless", broken, "bot.tar")
    assert refusal.startswith(
        "it does not compile (cc -std=gnu17 -O2 -pipe -fdiagnostics-color=never -o bot main.c -lm: "
        "exit status 1): ./main.c:2:10: fatal error: helper.h: No such file or directory"
    )


HOG_JS = b"""const readline = require("readline");
const kept = [];
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type !== "act") return;
  for (;;) kept.push(new Array(1 << 20).fill(kept.length));
});
"""


@pytest.mark.node
def test_a_node_programs_heap_is_bounded_by_the_bots_memory(member):
    bot = upload(member, "Hog", HOG_JS, "hog.js")
    assert bot.state == "ready", bot.refusal
    BotDefinition.objects.filter(pk=bot.pk).update(memory_mb=64)
    bot.refresh_from_db()
    seat = seats_ready([seat_bot(bot)])[0]
    assert (seat.command[1], seat.address_space_mb) == ("--max-old-space-size=64", 1088)
    played = play_league_match(
        game_id="nacho_pile",
        options={},
        seed=3,
        seats=[seat, SeatBot(label="Dice", strategy="random")],
        sandbox=sandbox(),
    )
    assert [forfeit["seat"] for forfeit in played.record["end"]["forfeits"]] == [0]
    (log,) = [log for log in played.logs if log.seat == 0]
    assert "heap limit" in log.output, log.output[-500:]
    assert replay(played.record).is_terminal()
