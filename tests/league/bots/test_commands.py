"""Shell commands: register bots, create a league, run it to its target with a progress bar."""

import io
from unittest import mock

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from league.bots.models import BotDefinition, BotLeague

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_bots_and_a_league_from_the_shell_run_to_the_target():
    for name, caution in (("Calm", "2.0"), ("Bold", "0.5"), ("Wild", "0.1")):
        run(
            "bot_register",
            "--game",
            "nacho_pile",
            "--name",
            name,
            "--strategy",
            "heuristic",
            "--param",
            f"caution={caution}",
        )
    run("bot_register", "--game", "nacho_pile", "--name", "Dice", "--strategy", "random")
    created = run(
        "bot_league_create",
        "--name",
        "Shell league",
        "--game",
        "nacho_pile",
        "--bots",
        "Calm,Bold,Wild,Dice",
        "--table",
        "2",
        "--rounds",
        "3",
        "--sittings",
        "2",
    )

    with mock.patch("league.bots.services.leagues.queue_work"):
        output = run("bot_league_run", "Shell league")

    league = BotLeague.objects.get(name="Shell league")
    assert created.startswith(f"Created league Shell league (id {league.pk}), draft.")
    assert "[##############################] 12/12 matches · round 3" in output
    assert output.rstrip().endswith("League Shell league finished.")
    assert league.status == "finished"
    assert BotDefinition.objects.get(name="Wild").params == {"caution": 0.1}


def test_shell_mistakes_are_clear_messages():
    with pytest.raises(CommandError, match="give either --strategy"):
        run("bot_register", "--game", "nacho_pile", "--name", "X")
    with pytest.raises(CommandError, match="only staff can register external programs"):
        run("bot_register", "--game", "nacho_pile", "--name", "X", "--command", "/usr/bin/python3 bot.py")
    with pytest.raises(CommandError, match="no bot called 'Ghost' for nacho_pile"):
        run(
            "bot_league_create",
            "--name",
            "L",
            "--game",
            "nacho_pile",
            "--bots",
            "Ghost",
            "--table",
            "2",
            "--rounds",
            "1",
        )
    with pytest.raises(CommandError, match="no bot league 'Nowhere'"):
        run("bot_league_run", "Nowhere")
