"""The bot authors' docs on the site: open to everyone, each game's reference with the engine's own messages
for a seeded match, the limits read from where the league keeps them, and the starter kits as zip files."""

import io
import json
import os
import shlex
import subprocess
import sys
import zipfile

import pytest
from django.test import Client
from django.urls import reverse

from games import registry
from games.core.protocol import Limits
from games.core.reference import decisions
from league.bots import docs
from league.bots.models import BotDefinition
from league.bots.services.definitions import TIME_BANK_SECONDS
from league.bots.services.ladders import ladder_create
from league.bots.uploads import bot_check, bot_upload
from league.programs.archives import check_program
from league.programs.uploads import upload_limits
from tests.factories import UserFactory

GAMES = ["nacho_pile", "nobody_but_us_chickens", "chicken_foot", "chickie_nuggs"]
LANGUAGES = ["python", "javascript", "c"]


@pytest.mark.parametrize("name", ["bots:docs", "bots:docs-protocol", "bots:docs-limits", "bots:docs-local"])
def test_an_anonymous_visitor_reads_every_page_of_the_docs(db, name):
    response = Client().get(reverse(name))
    assert response.status_code == 200
    text = response.content.decode()
    for game in GAMES:  # every page links every game's reference
        assert reverse("bots:docs-game", args=[game]) in text


@pytest.mark.parametrize("game_id", GAMES)
def test_a_games_page_shows_the_messages_the_engine_sends_for_the_seed(db, game_id):
    response = Client().get(reverse("bots:docs-game", args=[game_id]))
    assert response.status_code == 200
    page = response.context
    reference = registry.reference(game_id)
    fresh = decisions(game_id, num_players=reference.example_players, seed=docs.EXAMPLE_SEED, picks=(1, 10))
    assert page["example"] == fresh
    text = response.content.decode()
    for decision in fresh.decisions:
        shown = docs.pretty_json(decision.act)
        assert json.loads(shown) == decision.act  # the spread-out JSON is the message
        assert escape_pre(shown) in text
        assert json.dumps(decision.answer, separators=(",", ":")) in text.replace("&quot;", '"')
        assert decision.answer["action"] in decision.act["legal_actions"]
    assert fresh.start == {
        "type": "start",
        "game": game_id,
        "version": registry.get_spec(game_id).version,
        "seat": 0,
        "num_players": reference.example_players,
        "options": registry.get_spec(game_id).validate_options({}, reference.example_players),
        "seed": f"bot:{docs.EXAMPLE_SEED}:0",
    }
    assert escape_pre(docs.pretty_json(fresh.start)) in text
    for entry in reference.observation:  # every key described on the page
        assert f'id="key-{entry.name}"' in text


def escape_pre(text: str) -> str:
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#x27;")
    )


def test_every_game_has_a_reference_page(db):
    assert [game.id for game in docs.game_summaries()] == registry.game_ids() == GAMES


def test_an_unknown_game_has_no_reference_page(db):
    assert Client().get("/bots/docs/games/chess/").status_code == 404


def test_the_limits_are_the_leagues_own_numbers(db, settings):
    settings.SANDBOX_MAX_PROCESSES = 6
    settings.SANDBOX_TMPFS_MB = 32
    limits = docs.bot_limits()
    assert limits.move_seconds == BotDefinition._meta.get_field("move_seconds").default == 1.0
    assert limits.startup_seconds == Limits().startup_seconds == 5.0
    assert (limits.time_bank_low, limits.time_bank_seconds, limits.time_bank_high) == (0, 10.0, 60)
    assert limits.time_bank_seconds == BotDefinition._meta.get_field("time_bank_seconds").default
    assert (limits.time_bank_low, limits.time_bank_high) == (TIME_BANK_SECONDS.low, TIME_BANK_SECONDS.high)
    assert (limits.cpu_seconds, limits.memory_mb, limits.max_processes, limits.tmp_mb) == (60, 512, 6, 32)
    text = Client().get(reverse("bots:docs-limits")).content.decode()
    assert "6 for the whole sandbox" in text
    assert "a private <code>/tmp</code> of 32 MB" in text
    assert "10 s a match by default; you choose 0 to 60 s when you upload" in text


def test_the_runtimes_say_which_languages_the_league_runs(db, monkeypatch):
    text = Client().get(reverse("bots:docs-limits")).content.decode()
    for runtime in ("python", "node", "c"):  # every runtime the checker offers (league.programs.runtimes)
        assert f'<strong>Uploads run</strong> (<code>runtime = "{runtime}"</code>)' in text
    assert "Not yet: play it locally" not in text
    assert "No worker can run node programs now; its matches wait." in text  # no worker probed yet
    monkeypatch.setattr(docs, "RUNTIMES", ("python", "node"))
    text = Client().get(reverse("bots:docs-limits")).content.decode()
    assert text.count("Not yet: play it locally") == 1
    assert "# optional: &quot;python&quot; or &quot;node&quot;" in text


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_each_kit_downloads_as_a_zip_with_its_program_and_a_readme(db, game_id, language):
    response = Client().get(reverse("bots:docs-kit", args=[game_id, language]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == f'attachment; filename="{game_id}-{language}-kit.zip"'
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    source = {"python": "bot.py", "javascript": "bot.js", "c": "bot.c"}[language]
    assert sorted(archive.namelist()) == sorted(["README.md", "bot.toml", source])
    assert archive.read(source) == (docs.kits_dir() / game_id / source).read_bytes()
    readme = archive.read("README.md").decode()
    run = {"python": "python3 bot.py", "javascript": "node bot.js", "c": "./bot"}[language]
    assert f'python3 -m games play {game_id} --seat "cmd:{run}" --seat heuristic --seat heuristic ' in readme
    assert f"/bots/docs/games/{game_id}/" in readme
    runtime = {"python": "python", "javascript": "node", "c": "c"}[language]
    assert archive.read("bot.toml") == f'entry = "{source}"\nruntime = "{runtime}"\n'.encode()
    for info in archive.infolist():
        assert info.date_time == (1980, 1, 1, 0, 0, 0)
        assert ".." not in info.filename and not info.filename.startswith("/")
    again = Client().get(reverse("bots:docs-kit", args=[game_id, language]))
    assert again.content == response.content  # built deterministically


def test_the_python_kit_is_an_upload_as_it_is(db):
    name, data = docs.kit_archive("nacho_pile", "python")
    bot = bot_upload(by=UserFactory(), game_id="nacho_pile", name="Kit", data=data)
    bot_check(bot_id=bot.pk)
    bot.refresh_from_db()
    assert bot.state in (BotDefinition.State.VALIDATING, BotDefinition.State.READY), bot.refusal
    assert bot.program.manifest == {"entry": "bot.py", "runtime": "python"}


@pytest.mark.parametrize(
    "path",
    [
        "/bots/docs/kits/nacho_pile/rust.zip",
        "/bots/docs/kits/chess/python.zip",
        "/bots/docs/kits/..%2F..%2Fleague/python.zip",
        "/bots/docs/kits/nacho_pile/..%2Fbot.zip",
    ],
)
def test_no_kit_outside_the_kits(db, path):
    assert Client().get(path).status_code == 404


def test_the_engines_download_holds_the_games_package(db):
    response = Client().get(reverse("bots:docs-engines"))
    assert response.status_code == 200
    names = zipfile.ZipFile(io.BytesIO(response.content)).namelist()
    assert "games/__main__.py" in names
    assert "games/nacho_pile/rules.py" in names
    assert "games/viewer/static/replay.js" in names
    assert not [name for name in names if "__pycache__" in name or not name.startswith("games/")]


@pytest.mark.parametrize("path", ["/bots/", "/bots/ladders/", "/bots/bots/upload/", "/bots/bots/mine/"])
def test_the_docs_are_linked_from_the_authors_pages(db, path):
    client = Client()
    client.force_login(UserFactory())
    assert f'href="{reverse("bots:docs")}"' in client.get(path).content.decode()


def test_a_bot_page_and_a_ladder_page_link_the_docs_and_their_games_reference(db):
    staff = UserFactory(is_staff=True)
    bot = bot_upload(by=UserFactory(), game_id="chicken_foot", name="Footsie", data=b"print('hi')\n")
    ladder = ladder_create(by=staff, name="Foot ladder", game_id="chicken_foot", table_size=2)
    for path in (reverse("bots:bot", args=[bot.pk]), reverse("bots:ladder", args=[ladder.pk])):
        text = Client().get(path).content.decode()
        assert f'href="{reverse("bots:docs")}"' in text
        assert f'href="{reverse("bots:docs-game", args=["chicken_foot"])}"' in text


@pytest.mark.parametrize("game_id", GAMES)
def test_the_python_kits_readme_command_plays_a_match_with_the_engines_download_alone(db, game_id, tmp_path):
    """Unzip the engines and the kit into an empty folder and run the README's command there, as written:
    a whole match, no forfeit, and the offline replay written."""
    for _name, data in (docs.engines_archive(), docs.kit_archive(game_id, "python")):
        zipfile.ZipFile(io.BytesIO(data)).extractall(tmp_path)
    readme = (tmp_path / "README.md").read_text()
    [command] = [line for line in readme.splitlines() if line.startswith("python3 -m games play")]
    argv = [sys.executable, *shlex.split(command)[1:]]
    environment = {"PATH": os.environ["PATH"], "LANG": "C.UTF-8"}  # no PYTHONPATH: the unzipped engines
    done = subprocess.run(argv, cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "forfeit" not in done.stdout.lower()
    assert (tmp_path / "match.html").read_text().startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_kits_zip_passes_the_check_of_an_upload_as_it_is(db, game_id, language):
    """The zip is an upload of its language: its manifest names the kit's program and runtime (compiling a C
    one, or parsing a JavaScript one, is the worker's check, in its sandbox)."""
    _, data = docs.kit_archive(game_id, language)
    checked = check_program(data, upload_limits())
    source = docs.KIT_LANGUAGES[language].source
    assert checked.manifest == {"entry": source, "runtime": docs.KIT_LANGUAGES[language].runtime}
