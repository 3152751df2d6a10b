"""The starter kits (examples/kits/<game>/): each plays legal full games of its game through the local
runner, `python -m games play ... --seat cmd:...`, in any seat, beside the built-in bots."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from games import registry
from games.cli import main
from games.core.replay import replay

KITS = Path(__file__).resolve().parents[2] / "examples" / "kits"
GAMES = ["nacho_pile", "nobody_but_us_chickens", "chicken_foot", "chickie_nuggs"]
# (seed, players, the kit's seat): a few tables of each size the games share
TABLES = [(0, 3, 0), (1, 4, 2), (2, 3, 1)]


def kit_command(game: str, language: str, built: Path | None = None) -> str:
    if language == "python":
        return f"cmd:{sys.executable} {KITS / game / 'bot.py'}"
    if language == "c":
        return f"cmd:{built}"
    return f"cmd:{shutil.which('node') or 'node'} {KITS / game / 'bot.js'}"


def play(capsys, game: str, language: str, seed: int, players: int, seat: int, built: Path | None) -> dict:
    seats = ["heuristic" if number % 2 else "random" for number in range(players)]
    seats[seat] = kit_command(game, language, built)
    argv = ["play", game, "--seed", str(seed), "--json"]
    for text in seats:
        argv += ["--seat", text]
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 0, err
    return json.loads(out)


def check_legal_full_games(capsys, game: str, language: str, built: Path | None = None) -> None:
    for seed, players, seat in TABLES:
        record = play(capsys, game, language, seed, players, seat, built)
        assert record["end"]["forfeits"] == [], (seed, record["end"])
        assert record["end"]["reason"] == "normal"
        assert record["seats"][seat]["bot"] == "external"
        assert replay(record).outcome().to_json() == record["outcome"]  # every decision legal, to the end


def test_every_game_has_its_kits():
    assert sorted(path.name for path in KITS.iterdir() if path.is_dir()) == sorted(
        game.spec.id for game in registry.all_games()
    )
    for game in GAMES:
        assert sorted(path.name for path in (KITS / game).iterdir()) == ["bot.c", "bot.js", "bot.py"]


@pytest.mark.parametrize("game", GAMES)
def test_the_python_kit_plays_legal_full_games(capsys, game):
    check_legal_full_games(capsys, game, "python")


@pytest.mark.node
@pytest.mark.parametrize("game", GAMES)
def test_the_javascript_kit_plays_legal_full_games(capsys, game):
    check_legal_full_games(capsys, game, "javascript")


@pytest.mark.c_compiler
@pytest.mark.parametrize("game", GAMES)
def test_the_c_kit_compiles_without_a_warning_and_plays_legal_full_games(capsys, tmp_path, game):
    built = tmp_path / "bot"
    compiled = subprocess.run(
        [
            "cc",
            "-std=c99",
            "-O2",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-o",
            str(built),
            str(KITS / game / "bot.c"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (compiled.returncode, compiled.stderr) == (0, "")
    check_legal_full_games(capsys, game, "c", built)
