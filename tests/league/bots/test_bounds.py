"""A bot's and a bot league's numbers have one set of bounds, the services': the league page, the API and
the admin (through the services) accept the same numbers, and none the columns cannot store."""

import pytest
from rest_framework.test import APIClient

from league.api.bots import BotReviseSerializer, BotWriteSerializer, LeagueCreateSerializer
from league.bots.models import BotDefinition, BotLeague
from league.bots.services import definitions
from league.bots.services.leagues import SETTING_BOUNDS
from league.core.errors import UserError
from league.web.bots.leagues import LeagueForm
from tests.league.api_errors import field_error_body
from tests.league.bots.conftest import league_page_form, make_bots

BOT_BOUNDS = {
    "move_seconds": definitions.MOVE_SECONDS,
    "cpu_seconds": definitions.CPU_SECONDS,
    "memory_mb": definitions.MEMORY_MB,
    "time_bank_seconds": definitions.TIME_BANK_SECONDS,
}


def test_the_league_form_and_the_api_take_the_services_bounds():
    form = LeagueForm().fields
    api = LeagueCreateSerializer().fields
    for name, bounds in SETTING_BOUNDS.items():
        assert (api[name].min_value, api[name].max_value) == (bounds.low, bounds.high), name
        if name in form:
            assert (form[name].min_value, form[name].max_value) == (bounds.low, bounds.high), name
    assert sorted(set(SETTING_BOUNDS) - set(form)) == ["batch_size", "commit_every", "lease_seconds"]


def test_the_bot_serializers_take_the_services_bounds():
    for serializer in BotWriteSerializer(), BotReviseSerializer():
        for name, bounds in BOT_BOUNDS.items():
            field = serializer.fields[name]
            assert (field.min_value, field.max_value) == (bounds.low, bounds.high), name


@pytest.fixture
def api(staff):
    client = APIClient()
    client.force_authenticate(staff)
    return client


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("cpu_seconds", 301, "Ensure this value is less than or equal to 300."),
        ("memory_mb", 16384, "Ensure this value is less than or equal to 2048."),
        ("move_seconds", 1e308, "Ensure this value is less than or equal to 600."),
        ("time_bank_seconds", 60.5, "Ensure this value is less than or equal to 60."),
        ("time_bank_seconds", -1, "Ensure this value is greater than or equal to 0."),
    ],
)
def test_the_api_refuses_bot_numbers_beyond_the_bounds(api, field, value, message):
    body = {"name": "Randy", "game": "nacho_pile", "strategy": "random", field: value}
    response = api.post("/api/bots/", body, format="json")
    assert (response.status_code, response.json()) == (400, field_error_body(field, message))
    assert not BotDefinition.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("table_size", 100_000, "Ensure this value is less than or equal to 16."),
        ("seed", 2**63, "Ensure this value is less than or equal to 9223372036854775807."),
        ("batch_size", 32768, "Ensure this value is less than or equal to 1000."),
        ("lease_seconds", 600, "Ensure this value is less than or equal to 30."),
    ],
)
def test_the_api_and_the_page_refuse_league_numbers_beyond_the_bounds(
    api, client, staff, field, value, message
):
    bots = [bot.pk for bot in make_bots(staff)]
    body = {"name": "Spring", "game": "nacho_pile", "bots": bots, "table_size": 2, field: value}
    response = api.post("/api/bot-leagues/", body, format="json")
    assert (response.status_code, response.json()) == (400, field_error_body(field, message))
    if field in LeagueForm.base_fields:
        client.force_login(staff)
        form = league_page_form(bots, **{field: value})
        assert client.post("/bots/new/", form).context["form"].errors == {field: [message]}
    assert not BotLeague.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("memory_mb", 2049, "memory mb must be a whole number from 64 to 2048"),
        ("memory_mb", 16384, "memory mb must be a whole number from 64 to 2048"),
        ("cpu_seconds", 301, "cpu seconds must be a whole number from 1 to 300"),
        ("time_bank_seconds", 61, "time bank seconds must be a number from 0 to 60"),
        ("time_bank_seconds", float("nan"), "time bank seconds must be a number from 0 to 60"),
    ],
)
def test_registering_a_bot_refuses_memory_and_cpu_beyond_the_sandboxs_caps(staff, field, value, message):
    with pytest.raises(UserError) as caught:
        definitions.bot_register(
            name="Hog", game_id="nacho_pile", kind="builtin", strategy="random", by=staff, **{field: value}
        )
    assert (caught.value.field, caught.value.message) == (field, message)
    assert not BotDefinition.objects.exists()
