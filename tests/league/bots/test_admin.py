"""The bots admin writes through the services: registration checks, and a new version for a played bot."""

from unittest import mock

import pytest
from django.contrib.auth import get_user_model

from league.bots.models import BotDefinition
from league.bots.services.leagues import league_start
from tests.league.bots.conftest import make_bots, make_league

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    user = get_user_model().objects.create_superuser("root", "root@example.invalid", "pw-root-1")
    client.force_login(user)
    client.user = user
    return client


def bot_form(**changes):
    form = {
        "name": "Careful",
        "game_id": "nacho_pile",
        "kind": "builtin",
        "strategy": "heuristic",
        "params": '{"caution": 2}',
        "command": "",
        "move_seconds": "1.0",
        "cpu_seconds": "60",
        "memory_mb": "512",
        "time_bank_seconds": "10",
        "description": "",
    }
    form.update(changes)
    return form


def test_the_admin_registers_a_bot_through_the_service(admin_client):
    response = admin_client.post("/admin/bots/botdefinition/add/", bot_form())

    bot = BotDefinition.objects.get()
    assert response.status_code == 302
    assert (bot.label, bot.params, bot.player.kind) == ("Careful", {"caution": 2.0}, "bot")


def test_the_admin_refuses_a_bad_parameter_with_the_engines_message(admin_client):
    response = admin_client.post("/admin/bots/botdefinition/add/", bot_form(params='{"caution": 99}'))

    assert response.status_code == 200
    assert "option caution: 99.0 is above the maximum 10" in response.content.decode()
    assert not BotDefinition.objects.exists()


def test_saving_a_played_bot_in_the_admin_makes_its_next_version(admin_client):
    bots = make_bots(admin_client.user)
    with mock.patch("league.bots.services.leagues.queue_work"):
        league_start(league_id=make_league(admin_client.user, bots).pk)
    careful = bots[1]

    admin_client.post(f"/admin/bots/botdefinition/{careful.pk}/change/", bot_form(params='{"caution": 2.5}'))

    assert list(BotDefinition.objects.filter(name="Careful").values_list("version", "params")) == [
        (2, {"caution": 2.5}),
        (1, {"caution": 1.5}),
    ]


def test_a_new_bots_name_is_checked_on_the_form_not_when_saving(admin_client):
    assert admin_client.post("/admin/bots/botdefinition/add/", bot_form()).status_code == 302
    again = admin_client.post("/admin/bots/botdefinition/add/", bot_form())
    assert again.status_code == 200
    errors = again.context["adminform"].form.errors
    assert errors == {"name": ["you already have a bot called 'Careful' for this game"]}
    assert BotDefinition.objects.count() == 1
