"""A bot's identity is (author, game, name, version): nobody can block an author's next version by taking a
person's name, two authors' bots may share a name (then shown "<name> by <author>"), and registering by name
finds people only."""

import pytest
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient

from league.bots.models import BotDefinition
from league.bots.services.definitions import bot_player_name, bot_register
from league.bots.uploads import bot_check, bot_upload
from league.core.errors import UserError
from league.players.models import Player
from league.players.services import player_by_name, player_create
from league.tournaments import services as tournaments
from tests.factories import StaffFactory, UserFactory
from tests.league.bots.crafted import BOT


def upload(user, name="Hen Pecker", data=BOT, game_id="nacho_pile") -> BotDefinition:
    bot = bot_upload(by=user, game_id=game_id, name=name, data=data)
    bot_check(bot_id=bot.pk)
    bot.refresh_from_db()
    return bot


def variant(number: int) -> bytes:
    return BOT + f"\n# variant {number}\n".encode()


def test_a_stranger_naming_a_person_hen_pecker_v3_does_not_block_the_authors_third_version(db):
    owner, stranger = UserFactory(username="hen"), UserFactory(username="squatter")
    first = upload(owner)
    upload(owner, data=variant(2))
    squatted = player_create(name="Hen Pecker v3")  # what the stranger's registration makes
    assert stranger.pk != owner.pk
    third = upload(owner, data=variant(3))
    assert (third.version, third.state, third.player.name, third.player.kind) == (
        3,
        "ready",
        "Hen Pecker v3",
        "bot",
    )
    assert third.previous.previous == first
    assert squatted.kind == "person" and third.player.slug != squatted.slug
    # The person keeps the name among people, and finding "Hen Pecker v3" by name finds the person.
    assert player_by_name("hen pecker V3") == squatted
    with pytest.raises(UserError) as caught:
        player_create(name="HEN PECKER V3")
    assert caught.value.message == "there is already a player called 'HEN PECKER V3'"


def test_a_bot_name_never_blocks_a_person_and_a_person_never_blocks_a_bot(db):
    bot = upload(UserFactory(username="hen"))
    person = player_create(name="Hen Pecker")
    assert (person.name, bot.player.name) == ("Hen Pecker", "Hen Pecker")
    assert player_by_name("Hen Pecker") == person


def test_one_authors_hen_pecker_for_chicken_foot_beside_their_nacho_pile_one(db):
    author = UserFactory(username="hen")
    nacho = upload(author)
    foot = upload(author, game_id="chicken_foot")
    assert [(bot.game_id, bot.version, bot.player.name) for bot in (nacho, foot)] == [
        ("nacho_pile", 1, "Hen Pecker"),
        ("chicken_foot", 1, "Hen Pecker"),
    ]


def test_two_authors_hen_peckers_are_each_named_with_their_author_on_pages_and_in_the_api(client, db):
    ada, bo = UserFactory(username="ada"), UserFactory(username="bo")
    player_create(name="Ada Lovelace", user=ada)  # an author with a person on the site is named by it
    ada_v1 = upload(ada)
    ada_v2 = upload(ada, data=variant(2))
    assert ada_v2.player.name == "Hen Pecker v2"  # nobody else's bot has the name yet
    bos = upload(bo, data=variant(3))
    names = {bot.pk: bot.player.name for bot in BotDefinition.objects.select_related("player")}
    assert names == {
        ada_v1.pk: "Hen Pecker by Ada Lovelace",
        ada_v2.pk: "Hen Pecker v2 by Ada Lovelace",
        bos.pk: "Hen Pecker by bo",
    }
    assert bos.version == 1 and bos.previous is None
    answer = APIClient().get(f"/api/players/{bos.player_id}/")
    assert answer.status_code == 200
    assert answer.json()["name"] == "Hen Pecker by bo"
    listed = APIClient().get("/api/bots/", {"game_id": "nacho_pile"}).json()["results"]
    assert sorted((row["label"], row["shown_name"]) for row in listed) == [
        ("Hen Pecker", "Hen Pecker by Ada Lovelace"),
        ("Hen Pecker", "Hen Pecker by bo"),
        ("Hen Pecker v2", "Hen Pecker v2 by Ada Lovelace"),
    ]
    assert "<bdi>Hen Pecker by bo</bdi></a>" in client.get("/bots/bots/").content.decode()
    page = client.get(bos.player.get_absolute_url())
    assert page.status_code == 200
    assert "Hen Pecker by bo" in page.content.decode()


def test_the_same_author_cannot_register_one_name_twice_for_one_game(db):
    staff = StaffFactory(username="operator")
    bot_register(name="Careful", game_id="nacho_pile", kind="builtin", strategy="random", by=staff)
    with pytest.raises(UserError) as caught:
        bot_register(name="careful", game_id="nacho_pile", kind="builtin", strategy="random", by=staff)
    assert caught.value.message == "you already have a bot called 'careful' for this game"
    other = bot_register(
        name="Careful",
        game_id="nacho_pile",
        kind="builtin",
        strategy="random",
        by=StaffFactory(username="op2"),
    )
    assert other.player.name == "Careful by op2"


def test_the_database_holds_an_authors_version_unique(db):
    author = UserFactory(username="hen")
    bot = upload(author)
    with pytest.raises(IntegrityError), transaction.atomic():
        BotDefinition.objects.create(
            name=bot.name,
            version=1,
            game_id="nacho_pile",
            kind="external",
            program=bot.program,
            created_by=author,
            state="ready",
            player=Player.objects.create(name="x", name_key="x", slug="x", kind="bot"),
        )


def test_a_long_author_name_is_shortened_to_fit_the_players_name():
    name = bot_player_name(name="H" * 60, version=12, author="A" * 40)
    assert len(name) == 80
    assert name == "H" * 60 + " v12 by " + "A" * 11 + "…"


def test_registering_hen_pecker_in_a_tournament_by_name_makes_a_person_not_the_bot(db):
    organizer = StaffFactory(username="organizer")
    bot = upload(UserFactory(username="hen"))
    tournament = tournaments.tournament_create(
        created_by=organizer, name="Spring Open", game_id="nacho_pile", format="swiss", table_size=4, rounds=3
    )
    registration = tournaments.registration_add(tournament=tournament, by=organizer, name="Hen Pecker")
    assert registration.player_id != bot.player_id
    assert registration.player.kind == "person"
    assert registration.player.name == "Hen Pecker"
