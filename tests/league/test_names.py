"""Names of players, tournaments, bots and leagues: control characters, invisible formatting characters and
bidirectional overrides are refused with a clear message whichever way the name arrives (services, pages,
API, admin); names are stored composed (NFC); Persian names with their zero-width non-joiner are welcome."""

import unicodedata

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from league.bots.models import BotDefinition, BotLeague
from league.bots.services.definitions import bot_register
from league.bots.services.leagues import league_create
from league.core.errors import UserError
from league.core.names import check_name
from league.players.models import Player
from league.players.services import player_create
from league.tournaments import services as tournaments
from league.tournaments.models import Tournament
from tests.factories import StaffFactory
from tests.league.api_errors import field_error_body
from tests.league.bots.conftest import league_page_form

OVERRIDE = (
    "a name cannot hold control or invisible formatting characters, such as U+202E (RIGHT-TO-LEFT OVERRIDE)"
)
NUL = "a name cannot hold control or invisible formatting characters, such as U+0000"
TAB = "a name cannot hold control or invisible formatting characters, such as U+0009"
REFUSED = [("Ali\u202eevil", OVERRIDE), ("a\x00b", NUL), ("tab\there", TAB)]
ZOE_NFC, ZOE_NFD = "Zo\u00eb", "Zoe\u0308"
PERSIAN = "می\u200cخواهم"


@pytest.fixture
def staff(db):
    return StaffFactory(username="organizer")


def bots_for(staff):
    return [
        bot_register(name=f"Randy {n}", game_id="nacho_pile", kind="builtin", strategy="random", by=staff)
        for n in range(2)
    ]


@pytest.fixture
def create(staff):
    """Per kind, a function making one of that kind through its service, named `name`."""
    bots = []

    def league(name):
        bots[:] = bots or bots_for(staff)
        return league_create(
            name=name, game_id="nacho_pile", bot_ids=[bot.pk for bot in bots], table_size=2, by=staff
        )

    return {
        "player": lambda name: player_create(name=name),
        "tournament": lambda name: tournaments.tournament_create(
            created_by=staff, name=name, game_id="nacho_pile", format="round_robin", table_size=2
        ),
        "bot": lambda name: bot_register(
            name=name, game_id="nacho_pile", kind="builtin", strategy="random", by=staff
        ),
        "league": league,
    }


KINDS = {"player": Player, "tournament": Tournament, "bot": BotDefinition, "league": BotLeague}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("name", "message"), REFUSED)
def test_every_kind_of_name_refuses_control_and_override_characters(create, kind, name, message):
    before = KINDS[kind].objects.count()
    with pytest.raises(UserError) as caught:
        create[kind](name)
    assert (caught.value.field, caught.value.message) == ("name", message)
    assert KINDS[kind].objects.count() == before


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_name_is_stored_composed_and_takes_persian_with_its_joiner(create, kind):
    assert unicodedata.normalize("NFC", ZOE_NFD) == ZOE_NFC != ZOE_NFD
    assert create[kind](ZOE_NFD).name == ZOE_NFC
    assert create[kind](PERSIAN).name == PERSIAN


def test_a_name_typed_decomposed_is_the_same_player_as_composed(db):
    player_create(name=ZOE_NFC)
    with pytest.raises(UserError, match="^there is already a player called 'Zoë'$"):
        player_create(name=ZOE_NFD)


def test_names_in_any_script_get_slugs_in_their_script(staff):
    assert [player_create(name=name).slug for name in (PERSIAN, "李雷", "محمد علي", "Юлия", "Zoë Smith")] == [
        "میخواهم",
        "李雷",
        "محمد-علي",
        "юлия",
        "zoë-smith",
    ]
    tournament = tournaments.tournament_create(
        created_by=staff, name="Кубок 2026", game_id="nacho_pile", format="round_robin", table_size=2
    )
    assert tournament.slug == "кубок-2026"
    fallback = tournaments.tournament_create(
        created_by=staff, name="#1 ★", game_id="nacho_pile", format="round_robin", table_size=2
    )
    assert fallback.slug == "1"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "\u2066Ann\u2069",
            "a name cannot hold control or invisible formatting characters, such as U+2066 "
            "(LEFT-TO-RIGHT ISOLATE)",
        ),
        (
            "Ann\u200b",
            "a name cannot hold control or invisible formatting characters, such as U+200B "
            "(ZERO WIDTH SPACE)",
        ),
        ("Ann\x7f", "a name cannot hold control or invisible formatting characters, such as U+007F"),
        ("Ann\ud800", "a name cannot hold control or invisible formatting characters, such as U+D800"),
        ("!!!", "a name needs at least one letter or digit"),
        (" \t ", "a thing needs a name"),
    ],
)
def test_the_check_names_what_it_refuses(name, message):
    with pytest.raises(UserError) as caught:
        check_name(name, what="a thing", max_length=20)
    assert caught.value.message == message


def test_the_check_keeps_joiners_and_collapses_spaces():
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # an emoji sequence held by zero-width joiners
    assert check_name(f"  Team   {family} ", what="a team", max_length=20) == f"Team {family}"


def api_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.parametrize(("name", "message"), [REFUSED[0], REFUSED[2]])
def test_the_api_refuses_them_for_every_kind(staff, name, message):
    bots = bots_for(staff)
    api = api_for(staff)
    writes = [
        ("/api/players/", {"name": name}),
        ("/api/tournaments/", {"name": name, "game": "nacho_pile", "format": "round_robin", "table_size": 2}),
        ("/api/bots/", {"name": name, "game": "nacho_pile", "strategy": "random"}),
        (
            "/api/bot-leagues/",
            {"name": name, "game": "nacho_pile", "bots": [bot.pk for bot in bots], "table_size": 2},
        ),
    ]
    for url, body in writes:
        response = api.post(url, body, format="json")
        assert (url, response.status_code, response.json()["detail"]) == (url, 400, message)
    assert (Player.objects.count(), Tournament.objects.count(), BotLeague.objects.count()) == (2, 0, 0)


def test_the_api_refuses_a_nul_before_the_service(staff):
    response = api_for(staff).post("/api/players/", {"name": "a\x00b"}, format="json")
    assert (response.status_code, response.json()) == (
        400,
        field_error_body("name", "Null characters are not allowed."),
    )


def test_the_pages_refuse_them(client, staff):
    client.force_login(staff)
    bots = bots_for(staff)
    tournament = client.post(
        "/tournaments/new/",
        {
            "name": "Ali\u202eevil",
            "game_id": "nacho_pile",
            "format": "swiss",
            "table_size": 4,
            "leftovers": "short",
            "rounds": 3,
            "advance": 1,
        },
    )
    assert (tournament.status_code, tournament.context["form"].errors) == (400, {"name": [OVERRIDE]})
    league = client.post("/bots/new/", league_page_form([bot.pk for bot in bots], name="tab\there"))
    assert (league.status_code, league.context["form"].errors) == (200, {"name": [TAB]})
    open_cup = tournaments.tournament_create(
        created_by=staff, name="Open", game_id="nacho_pile", format="swiss", table_size=4, rounds=3
    )
    registered = client.post(f"/tournaments/{open_cup.slug}/register/", {"names": "Ann\ntab\there"})
    assert registered.status_code == 400
    assert TAB in registered.content.decode()
    assert (
        list(open_cup.registrations.values_list("player__name", flat=True)) == []
    )  # a batch is all or nothing
    assert (Tournament.objects.count(), BotLeague.objects.count()) == (1, 0)


def test_the_admin_refuses_them(client, db):
    client.force_login(
        get_user_model().objects.create_superuser("root", "root@example.invalid", "pass-word-123")
    )
    player = client.post(
        "/admin/players/player/add/", {"name": "Ali\u202eevil", "kind": "person", "active": "on"}
    )
    assert player.context["adminform"].form.errors == {"name": [OVERRIDE]}
    bot = client.post(
        "/admin/bots/botdefinition/add/",
        {
            "name": "tab\there",
            "game_id": "nacho_pile",
            "kind": "builtin",
            "strategy": "random",
            "params": "{}",
            "command": "",
            "move_seconds": "1.0",
            "cpu_seconds": "60",
            "memory_mb": "512",
            "time_bank_seconds": "10.0",
            "description": "",
        },
    )
    assert bot.status_code == 200
    assert TAB in bot.content.decode()
    assert (Player.objects.count(), BotDefinition.objects.count()) == (0, 0)
