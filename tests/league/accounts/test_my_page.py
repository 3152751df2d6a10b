"""My page (/me/) and its JSON (/api/me/): my next table, my events, my ratings; my API token; and who may
do each new write (a visitor, another user, the owner, staff) on the pages and in the API."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from league.accounts import services
from league.accounts.models import ClaimLink
from league.players.models import Player
from league.ratings.models import RatingPool
from league.ratings.services import pool_update
from league.tournaments import services as tournament_services
from tests.factories import tournaments as helpers
from tests.league.accounts.conftest import PASSWORD, api_for, browser_for


@pytest.fixture
def alice_is_ada(event, orga, alice):
    """alice claims Ada, who plays in Club Night."""
    _, (ada, *_) = event
    services.claim_redeem(user=alice, token=services.claim_link_issue(by=orga, player_id=ada.pk).token)
    return ada


@pytest.fixture
def rate():
    """Bring the people pools up to date (the worker's job)."""

    def rate():
        for pool in RatingPool.objects.filter(kind="people"):
            pool_update(pool_id=pool.pk)

    return rate


def publish_next_round(tournament, by):
    round_row = tournament_services.round_generate(tournament=tournament, by=by)
    return round_row, tournament_services.round_publish(round_row=round_row, by=by)


def cards(page: str) -> list[str]:
    """The text of each next-table card, tags and runs of spaces dropped."""
    found = re.findall(r'<section class="card next-table">(.*?)</section>', page, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", card).split()) for card in found]


def test_my_page_shows_my_table_in_a_published_round(event, orga, alice, alice_is_ada):
    tournament, _ = event
    client = browser_for(alice)
    round_row = tournament_services.round_generate(tournament=tournament, by=orga)
    assert cards(client.get("/me/").content.decode()) == []  # a draft is nobody's table yet
    tournament_services.round_publish(round_row=round_row, by=orga)
    seats = helpers.table_seats(round_row)
    assert seats == [
        [alice_is_ada.pk, Player.objects.get(name="Cal").pk],
        [Player.objects.get(name="Bea").pk, Player.objects.get(name="Dov").pk],
    ]
    assert cards(client.get("/me/").content.decode()) == [
        "Club Night Round 1 · table 1 · seat 1 (you start) With: seat 2: Cal"
    ]
    assert api_for(alice).get("/api/me/").json()["next_tables"] == [
        {
            "tournament": "club-night",
            "tournament_name": "Club Night",
            "round": 1,
            "table": 1,
            "label": "",
            "seat": 1,
            "match": round_row.tables.get(number=1).match_id,
            "others": [{"seat": 2, "name": "Cal", "slug": "cal"}],
        }
    ]
    table = round_row.tables.get(number=1)
    tournament_services.table_result(table=table, by=orga, expected_version=0, places=[1, 2])
    assert cards(client.get("/me/").content.decode()) == []
    assert api_for(alice).get("/api/me/").json()["next_tables"] == []


def test_my_page_lists_my_events_and_ratings(event, staff, orga, alice, alice_is_ada, rate):
    tournament, _ = event
    helpers.play_round(tournament, orga)
    rate()
    later, _ = helpers.make_tournament(staff, 0, name="Later Cup", table_size=2, rounds=1, start=False)
    tournament_services.registration_add(tournament=later, by=staff, player_id=alice_is_ada.pk)
    me = api_for(alice).get("/api/me/").json()
    assert (me["username"], me["email"], me["player"]["name"]) == ("alice", "alice@secret.example", "Ada")
    assert me["events"] == [
        {
            "tournament": "later-cup",
            "tournament_name": "Later Cup",
            "game_id": "nacho_pile",
            "status": "draft",
            "registration": "active",
        },
        {
            "tournament": "club-night",
            "tournament_name": "Club Night",
            "game_id": "nacho_pile",
            "status": "running",
            "registration": "active",
        },
    ]
    rating = alice_is_ada.ratings.get(pool__kind="people", pool__game_id="nacho_pile")
    assert me["ratings"] == [
        {
            "game_id": "nacho_pile",
            "conservative": rating.conservative,
            "uncertainty": rating.uncertainty,
            "matches": 1,
        }
    ]
    page = browser_for(alice).get("/me/").content.decode()
    rows = re.findall(
        r"<tr><td><a[^>]*><bdi>([^<]+)</bdi></a></td><td>([^<]+)</td><td><span[^>]*>([^<]+)</span></td>"
        r"<td>([^<]+)</td></tr>",
        page,
    )
    assert rows == [
        ("Later Cup", "Nacho Pile", "Draft", "Active"),
        ("Club Night", "Nacho Pile", "Running", "Active"),
    ]
    assert '<td class="num">provisional</td>' in page, "one rated match: provisional until the fifth"
    assert f'<td class="num">{rating.conservative:.2f}</td>' not in page


def test_my_page_reads_a_fixed_number_of_queries(event, staff, orga, alice, alice_is_ada):
    tournament, _ = event
    publish_next_round(tournament, orga)
    client = api_for(alice)
    client.get("/api/me/")
    with CaptureQueriesContext(connection) as few:
        client.get("/api/me/")
    for number in range(3):
        extra, _ = helpers.make_tournament(
            staff, 0, name=f"Extra {number}", table_size=2, rounds=1, start=False
        )
        tournament_services.registration_add(tournament=extra, by=staff, player_id=alice_is_ada.pk)
    with CaptureQueriesContext(connection) as many:
        client.get("/api/me/")
    assert len(many) == len(few)


def test_a_visitor_is_sent_to_log_in_and_the_api_answers_401(db):
    assert Client().get("/me/")["Location"] == "/accounts/login/?next=/me/"
    response = api_for().get("/api/me/")
    assert (response.status_code, response.json()["code"], response["WWW-Authenticate"]) == (
        401,
        "not_authenticated",
        "Token",
    )


def test_staff_see_their_own_page(staff):
    me = api_for(staff).get("/api/me/").json()
    assert (me["username"], me["email"], me["player"]) == ("staffer", "staffer@secret.example", None)


# ---------------------------------------------------------------------------------------------- tokens


def test_an_api_token_is_shown_once_works_and_can_be_replaced_or_revoked(alice):
    client = browser_for(alice)
    response = client.post("/me/token/")
    key = re.search(r'<p class="secret" id="token-key">(\w+)</p>', response.content.decode()).group(1)
    assert Token.objects.get(user=alice).key == key
    page = client.get("/me/").content.decode()
    assert key not in page and "You have a token, created" in page
    assert api_for().get("/api/me/", HTTP_AUTHORIZATION=f"Token {key}").json()["username"] == "alice"
    replaced = re.search(r'id="token-key">(\w+)<', client.post("/me/token/").content.decode()).group(1)
    assert replaced != key
    assert api_for().get("/api/me/", HTTP_AUTHORIZATION=f"Token {key}").status_code == 401
    response = client.post("/me/token/revoke/")
    assert (response.status_code, response["Location"]) == (302, "/me/")
    assert not Token.objects.filter(user=alice).exists()
    assert "Your API token is revoked." in client.get("/me/").content.decode()
    assert api_for().get("/api/me/", HTTP_AUTHORIZATION=f"Token {replaced}").status_code == 401


# ----------------------------------------------------------------------------------------- permissions


@pytest.mark.parametrize(
    "url",
    [
        "/me/player/",
        "/me/token/",
        "/me/token/revoke/",
        "/claims/new/",
        "/accounts/password/",
        "/accounts/delete/",
    ],
)
def test_every_account_write_sends_a_visitor_to_log_in(db, url):
    response = Client().post(url, {"name": "X", "player": 1, "password": "x"})
    assert (response.status_code, response["Location"]) == (302, f"/accounts/login/?next={url}")
    assert not Player.objects.exists() and not Token.objects.exists() and not ClaimLink.objects.exists()


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("post", "/api/me/player/"),
        ("post", "/api/claims/"),
        ("post", "/api/claims/redeem/"),
        ("get", "/api/me/"),
    ],
)
def test_every_account_api_operation_answers_a_visitor_401(db, method, url):
    response = getattr(api_for(), method)(url, {"name": "X", "player": 1, "token": "t"}, format="json")
    assert (response.status_code, response.json()["code"]) == (401, "not_authenticated")


def test_another_user_changes_only_their_own_things(event, orga, alice, bob, alice_is_ada):
    """bob's writes act on bob's account: they cannot reach alice's token, player or password."""
    alice_key = services.api_token_create(user=alice).key
    bob_client = browser_for(bob)
    bob_client.post("/me/token/revoke/")
    assert Token.objects.get(user=alice).key == alice_key
    bob_client.post(
        "/accounts/password/",
        {"old_password": PASSWORD, "new_password1": "new pass 9999", "new_password2": "new pass 9999"},
    )
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)
    bob_client.post("/me/player/", {"name": "Bobby"})
    assert Player.objects.get(name="Bobby").user == bob
    assert Player.objects.get(name="Ada").user == alice
    response = api_for(bob).post("/api/claims/", {"player": alice_is_ada.pk}, format="json")
    assert response.status_code == 403
    bob_client.post("/accounts/delete/", {"password": "new pass 99"})
    alice.refresh_from_db()
    assert (alice.is_active, alice.username) == (True, "alice")


def test_staff_issue_links_but_claim_only_for_themselves(event, staff, alice):
    _, (_, bea, *_) = event
    token = api_for(staff).post("/api/claims/", {"player": bea.pk}, format="json").json()["token"]
    assert api_for(staff).post("/api/claims/redeem/", {"token": token}, format="json").json()["name"] == "Bea"
    bea.refresh_from_db()
    assert bea.user == staff and Player.objects.filter(user=alice).count() == 0


def test_an_organizer_issues_only_for_their_own_events_players(event, other_event, orga):
    _, (ada, *_) = event
    eli = other_event[1][0]
    assert api_for(orga).post("/api/claims/", {"player": ada.pk}, format="json").status_code == 201
    assert api_for(orga).post("/api/claims/", {"player": eli.pk}, format="json").status_code == 403
    assert api_for(orga).post("/api/claims/", {"player": 10**9}, format="json").json() == {
        "code": "invalid",
        "detail": "no such player",
        "field": "player",
        "errors": [{"field": "player", "code": "invalid", "detail": "no such player"}],
    }
