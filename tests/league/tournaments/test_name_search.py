"""Searching names the way people type them: accents, capitals and punctuation ignored (`names.fold`), user
names searched too; the check-in desk and find my table answer the matching rows only, and a player sees
their own table at the top of the event page (signed in, or through their private link)."""

import re

import pytest
from django.test import Client

from league.core.names import fold, search_key
from league.players.models import Player
from league.players.services import player_claim, player_create, player_release, player_update
from league.tournaments import services
from tests.factories import UserFactory

NAMES = ["Tomás Ruiz", "Björn Berg", "Łukasz Nowak", "Siobhán O’Brien", "佐藤健二", "Tom Marsh"]


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Tomás", "tomas"),
        ("Björn", "bjorn"),
        ("Łukasz", "lukasz"),
        ("O’Brien", "obrien"),
        ("O'Brien", "obrien"),
        ("Søren", "soren"),
        ("Đorđe", "dorde"),
        ("Straße", "strasse"),
        ("Æsa", "aesa"),
        ("Œdipe", "oedipe"),
        ("佐藤健二", "佐藤健二"),
        ("  Jean   Dupont ", "jean dupont"),
        ("Zoe\u0308", "zoe"),
    ],
)
def test_fold(text, folded):
    assert fold(text) == folded


def test_a_players_search_key_follows_its_name_and_account(db):
    player = player_create(name="Łukasz Nowak")
    assert Player.objects.get(pk=player.pk).search_key == "lukasz nowak"
    player_claim(player=player, user=UserFactory(username="L.Nowak-77"))
    assert Player.objects.get(pk=player.pk).search_key == "lukasz nowak|lnowak77"
    player_update(player=player, name="Łukasz Nowak-Kowalski")
    assert Player.objects.get(pk=player.pk).search_key == "lukasz nowakkowalski|lnowak77"
    player_release(player=Player.objects.get(pk=player.pk))  # the account is deleted
    assert Player.objects.get(pk=player.pk).search_key == "lukasz nowakkowalski"
    assert search_key("佐藤健二", "kenji.sato") == "佐藤健二|kenjisato"


@pytest.fixture
def event(organizer):
    """A Swiss at tables of 2 with the six players of NAMES (佐藤健二 signed up as user "kenji.sato"), not
    started."""
    tournament = services.tournament_create(
        created_by=organizer, name="Folded Open", game_id="nacho_pile", format="swiss", table_size=2, rounds=2
    )
    users = {"佐藤健二": UserFactory(username="kenji.sato"), "Tom Marsh": UserFactory(username="tmarsh")}
    for seed, name in enumerate(NAMES, start=1):
        player = player_create(name=name, user=users.get(name))
        services.registration_add(tournament=tournament, by=organizer, player_id=player.pk, seed=seed)
    return tournament


def desk_names(client, tournament, query):
    answer = client.get(f"/tournaments/{tournament.slug}/check-in/", {"q": query})
    assert answer.status_code == 200
    return re.findall(r'<tr data-name="([^"]+)"', answer.content.decode())


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("tomas", ["Tomás Ruiz"]),
        ("TOMÁS", ["Tomás Ruiz"]),
        ("bjorn", ["Björn Berg"]),
        ("lukasz", ["Łukasz Nowak"]),
        ("obrien", ["Siobhán O’Brien"]),
        ("O’Brien", ["Siobhán O’Brien"]),
        ("o'brien", ["Siobhán O’Brien"]),
        ("kenji", ["佐藤健二"]),
        ("kenji.sato", ["佐藤健二"]),
        ("佐藤", ["佐藤健二"]),
        ("tom", ["Tom Marsh", "Tomás Ruiz"]),
        ("sato tom", []),
        ("'", []),
    ],
)
def test_the_check_in_desk_finds_names_as_people_type_them(client, organizer, event, query, found):
    client.force_login(organizer)
    assert desk_names(client, event, query) == found


def test_the_check_in_desk_without_a_search_lists_everyone_and_is_for_organizers(
    client, organizer, stranger, event
):
    client.force_login(organizer)
    assert len(desk_names(client, event, "")) == 6
    client.force_login(stranger)
    # the draft is not shown to others at all
    assert client.get(f"/tournaments/{event.slug}/check-in/", {"q": "tom"}).status_code == 404


def find_rows(client, tournament, query=None):
    answer = client.get(
        f"/tournaments/{tournament.slug}/rounds/1/find/", {"q": query} if query is not None else {}
    )
    assert answer.status_code == 200
    body = answer.content.decode()
    return [
        re.sub(r"<[^>]+>", "", row).split("\n")[0].strip()
        for row in re.findall(r"<tr(?: class=\"mine\")?><td>(.*?)</td>", body)
    ], body


def test_find_my_table_answers_the_matching_rows_only(client, organizer, event):
    services.tournament_start(tournament=event, by=organizer)
    services.round_publish(round_row=services.round_generate(tournament=event, by=organizer), by=organizer)
    rows, body = find_rows(client, event)
    assert rows == [] and 'name="q"' in body
    assert find_rows(client, event, "lukasz")[0] == ["Łukasz Nowak"]
    assert find_rows(client, event, "kenji")[0] == ["佐藤健二"]
    rows, body = find_rows(client, event, "zzz")
    assert rows == [] and "Nobody in round 1 has a name holding “zzz”." in body


def test_find_my_table_answers_at_most_ten_rows(client, organizer):
    tournament = services.tournament_create(
        created_by=organizer, name="Big Open", game_id="nacho_pile", format="swiss", table_size=2, rounds=1
    )
    for seed in range(1, 15):
        player = player_create(name=f"Anna {seed:02d}")
        services.registration_add(tournament=tournament, by=organizer, player_id=player.pk, seed=seed)
    services.tournament_start(tournament=tournament, by=organizer)
    services.round_publish(
        round_row=services.round_generate(tournament=tournament, by=organizer), by=organizer
    )
    rows, body = find_rows(client, tournament, "anna")
    assert rows == [f"Anna {n:02d}" for n in range(1, 11)]
    assert "More than 10 names hold “anna”: type more of the name." in body
    assert find_rows(client, tournament, "anna 14")[0] == ["Anna 14"]


def _published(event, organizer):
    services.tournament_start(tournament=event, by=organizer)
    round_row = services.round_generate(tournament=event, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    kenji = Player.objects.get(name="佐藤健二")
    table = round_row.tables.get(match__seats__player=kenji)
    seats = list(table.match.seats.order_by("seat").values_list("player__name", flat=True))
    return table, seats


def test_a_signed_in_player_sees_their_own_table_first(client, organizer, event):
    table, seats = _published(event, organizer)
    client.force_login(Player.objects.get(name="佐藤健二").user)
    page = client.get(f"/tournaments/{event.slug}/").content.decode()
    other = next(name for name in seats if name != "佐藤健二")
    seat = seats.index("佐藤健二") + 1
    shown = f"<strong>Table {table.number}, seat {seat}</strong>, with <bdi>{other}</bdi>."
    assert f"Your table in round 1</h2>\n<p>{shown}" in page
    # on find my table, their own row comes first, before what they searched
    rows, _ = find_rows(client, event, "tom")
    assert rows == ["佐藤健二 you", "Tom Marsh", "Tomás Ruiz"]
    # a visitor, and a signed-in user without a player, see no table of their own
    assert 'id="my-table"' not in Client().get(f"/tournaments/{event.slug}/").content.decode()
    client.force_login(organizer)
    assert 'id="my-table"' not in client.get(f"/tournaments/{event.slug}/").content.decode()


def test_a_private_link_holder_sees_their_own_table_first(organizer, event):
    table, seats = _published(event, organizer)
    token = services.private_link_issue(
        tournament=event, player_id=Player.objects.get(name="Björn Berg").pk, by=organizer
    ).token
    assert f'href="/p/{token}/event/"' in Client().get(f"/p/{token}/").content.decode()
    answer = Client().get(f"/p/{token}/event/")
    assert (answer.status_code, answer["Referrer-Policy"], answer["Cache-Control"]) == (
        200,
        "no-referrer",
        "no-store",
    )
    björn_table = event.round_set.get(number=1).tables.get(match__seats__player__name="Björn Berg")
    assert f"<strong>Table {björn_table.number}, seat " in answer.content.decode()
    assert Client().get("/p/AAAAAAAAAAAAAAAAAAAAAA/event/").status_code == 404
