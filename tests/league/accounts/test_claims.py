"""A player per user: create my player, or claim one through a claim link (single use, expiring, bound to
one unclaimed person-player, issued by staff or an organizer of a tournament the player is in), on the pages
and in the API, with every refusal's exact message."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from league.accounts import services
from league.accounts.models import ClaimLink
from league.accounts.selectors import token_digest
from league.players.models import Player
from league.tournaments import services as tournament_services
from tests.factories import PlayerFactory, UserFactory
from tests.league.accounts.conftest import api_for, browser_for

ALREADY = "your account already has a player, {}: an account owns one player, and claims never merge two"
USED = "this claim link has been used already: a claim link works once"
NOT_ISSUER = (
    "only site staff and the organizers of the event {} was first registered in "
    "can issue a claim link for them"
)


def issue(by, player):
    return services.claim_link_issue(by=by, player_id=player.pk)


def sentence(message: str) -> str:
    """A message as a page shows it: capitalised, with a full stop."""
    return message[0].upper() + message[1:] + "."


def refusal(response) -> str:
    """The message of a refusal page."""
    return re.search(
        r'<p class="error-box" role="alert" id="refused">(.*?)</p>', response.content.decode()
    ).group(1)


def error(response) -> tuple[int, str, str]:
    body = response.json()
    return response.status_code, body["code"], body["detail"]


# ----------------------------------------------------------------------------------------- my player


def test_a_user_creates_their_player_once(alice):
    client = browser_for(alice)
    assert 'id="no-player"' in client.get("/me/").content.decode()
    response = client.post("/me/player/", {"name": "  Alice  Liddell "})
    assert (response.status_code, response["Location"]) == (302, "/me/")
    player = Player.objects.get(user=alice)
    assert (player.name, player.slug, player.kind) == ("Alice Liddell", "alice-liddell", "person")
    page = client.get("/me/").content.decode()
    assert 'You play as <a href="/players/alice-liddell/"><bdi>Alice Liddell</bdi></a>.' in page
    again = client.post("/me/player/", {"name": "Second"})
    assert (again.status_code, refusal(again)) == (409, sentence(ALREADY.format("Alice Liddell")))
    assert Player.objects.filter(name="Second").count() == 0


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Ada", "there is already a player called &#x27;Ada&#x27;"),
        ("   ", "a player needs a name"),
        (
            "Zed\u202e",
            "a name cannot hold control or invisible formatting characters, such as U+202E (RIGHT-TO-LEFT "
            "OVERRIDE)",
        ),
        ("x" * 81, "a name has at most 80 characters"),
    ],
)
def test_my_player_name_goes_through_the_name_checks(alice, name, message):
    PlayerFactory(name="Ada")
    response = browser_for(alice).post("/me/player/", {"name": name})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Player.objects.filter(user=alice).exists()


def test_creating_a_player_needs_a_login_and_a_post(alice):
    response = Client().post("/me/player/", {"name": "Nobody"})
    assert response["Location"] == "/accounts/login/?next=/me/player/"
    assert browser_for(alice).get("/me/player/").status_code == 405
    assert not Player.objects.filter(name="Nobody").exists()


def test_the_api_creates_my_player(alice):
    api = api_for(alice)
    response = api.post("/api/me/player/", {"name": "Alice"}, format="json")
    assert response.status_code == 201
    assert {key: response.json()[key] for key in ("name", "slug", "kind")} == {
        "name": "Alice",
        "slug": "alice",
        "kind": "person",
    }
    assert error(api.post("/api/me/player/", {"name": "Another"}, format="json")) == (
        409,
        "conflict",
        ALREADY.format("Alice"),
    )
    assert error(api_for().post("/api/me/player/", {"name": "Anon"}, format="json"))[:2] == (
        401,
        "not_authenticated",
    )
    taken = api_for(UserFactory()).post("/api/me/player/", {"name": "alice"}, format="json")
    assert error(taken) == (400, "duplicate", "there is already a player called 'alice'")


# -------------------------------------------------------------------------------------- issuing links


def test_the_claim_control_shows_only_to_those_who_may_issue(event, staff, orga, alice, other_event):
    _, (ada, *_) = event
    url = ada.get_absolute_url()
    control = 'id="claim-link-create">Create claim link</button>'
    assert control in browser_for(staff).get(url).content.decode()
    assert control in browser_for(orga).get(url).content.decode()
    assert control not in browser_for(alice).get(url).content.decode()
    assert control not in Client().get(url).content.decode()
    eli = other_event[1][0]
    assert control not in browser_for(orga).get(eli.get_absolute_url()).content.decode()
    ada.user = alice
    ada.save(update_fields=["user"])
    assert control not in browser_for(staff).get(url).content.decode()


def test_an_organizer_issues_a_link_shown_once_and_only_its_hash_is_stored(event, orga):
    _, (ada, *_) = event
    response = browser_for(orga).post("/claims/new/", {"player": ada.pk})
    assert response.status_code == 200
    url = re.search(
        r'<p class="secret" id="claim-url">(http://testserver/claims/([\w-]+)/)</p>',
        response.content.decode(),
    )
    token = url.group(2)
    link = ClaimLink.objects.get()
    assert (link.player, link.issued_by, link.used_at) == (ada, orga, None)
    assert link.token_hash == token_digest(token) and token not in link.token_hash and len(token) >= 43
    assert link.expires_at - link.created_at == timedelta(days=7)


@pytest.mark.parametrize("who", ["alice", "anonymous"])
def test_only_staff_and_organizers_issue(event, alice, who):
    _, (ada, *_) = event
    client = browser_for(alice) if who == "alice" else Client()
    response = client.post("/claims/new/", {"player": ada.pk})
    if who == "anonymous":
        assert response["Location"] == "/accounts/login/?next=/claims/new/"
    else:
        assert (response.status_code, refusal(response)) == (403, sentence(NOT_ISSUER.format("Ada")))
    assert not ClaimLink.objects.exists()


def test_an_organizer_of_another_event_cannot_issue(event, other_event, orga):
    eli = other_event[1][0]
    response = browser_for(orga).post("/claims/new/", {"player": eli.pk})
    assert (response.status_code, refusal(response)) == (
        403,
        "Only site staff and the organizers of the event Eli was first registered in "
        "can issue a claim link for them.",
    )
    api = api_for(orga).post("/api/claims/", {"player": eli.pk}, format="json")
    assert error(api) == (403, "forbidden", NOT_ISSUER.format("Eli"))
    assert not ClaimLink.objects.exists()


def test_no_link_for_a_bot_or_a_claimed_player(event, staff, alice):
    _, (ada, *_) = event
    bot = PlayerFactory(name="Robo", kind="bot")
    response = browser_for(staff).post("/claims/new/", {"player": bot.pk})
    assert (response.status_code, refusal(response)) == (400, "Robo is a bot: only people can be claimed.")
    assert error(api_for(staff).post("/api/claims/", {"player": bot.pk}, format="json")) == (
        400,
        "invalid",
        "Robo is a bot: only people can be claimed",
    )
    ada.user = alice
    ada.save(update_fields=["user"])
    response = browser_for(staff).post("/claims/new/", {"player": ada.pk})
    assert (response.status_code, refusal(response)) == (409, "Ada already belongs to an account.")
    assert browser_for(staff).post("/claims/new/", {"player": 10**9}).status_code == 400
    assert browser_for(staff).post("/claims/new/", {"player": "x"}).status_code == 400
    assert not ClaimLink.objects.exists()


def test_an_organizer_of_an_unrated_event_with_a_bot_gets_the_bot_message(staff, orga):
    tournament = tournament_services.tournament_create(
        created_by=staff, name="Bot Night", game_id="nacho_pile", rated=False, table_size=2, rounds=1
    )
    tournament_services.organizer_add(tournament=tournament, by=staff, username="orga")
    bot = PlayerFactory(name="Robo", kind="bot")
    tournament_services.registration_add(tournament=tournament, by=staff, player_id=bot.pk)
    with pytest.raises(Exception, match="Robo is a bot: only people can be claimed"):
        issue(orga, bot)


def test_staff_issue_for_any_person_player_through_the_api(staff):
    loner = PlayerFactory(name="Loner")
    response = api_for(staff).post("/api/claims/", {"player": loner.pk}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["url"] == f"http://testserver/claims/{body['token']}/"
    assert (body["player"]["name"], ClaimLink.objects.get().token_hash) == (
        "Loner",
        token_digest(body["token"]),
    )
    assert error(api_for().post("/api/claims/", {"player": loner.pk}, format="json"))[:2] == (
        401,
        "not_authenticated",
    )


# ------------------------------------------------------------------------------------------ redeeming


def test_a_user_without_a_player_claims_one_through_the_page(event, orga, alice):
    _, (ada, *_) = event
    token = issue(orga, ada).token
    anonymous = Client().get(f"/claims/{token}/").content.decode()
    assert f'href="/accounts/login/?next=/claims/{token}/"' in anonymous and "Claim Ada" in anonymous
    client = browser_for(alice)
    page = client.get(f"/claims/{token}/").content.decode()
    assert 'id="claim">Claim <bdi>Ada</bdi> as <bdi>alice</bdi></button>' in page
    response = client.post(f"/claims/{token}/")
    assert (response.status_code, response["Location"]) == (302, "/me/")
    ada.refresh_from_db()
    assert ada.user == alice
    link = ClaimLink.objects.get()
    assert (link.used_by, link.used_at is not None) == (alice, True)
    assert "You play as Ada now: its results and ratings are yours." in client.get("/me/").content.decode()


def test_a_link_used_twice_is_refused(event, orga, alice, bob):
    _, (ada, *_) = event
    token = issue(orga, ada).token
    services.claim_redeem(user=alice, token=token)
    response = browser_for(bob).post(f"/claims/{token}/")
    assert (response.status_code, refusal(response)) == (409, sentence(USED))
    assert refusal(browser_for(bob).get(f"/claims/{token}/")) == sentence(USED)
    assert error(api_for(bob).post("/api/claims/redeem/", {"token": token}, format="json")) == (
        409,
        "conflict",
        USED,
    )
    ada.refresh_from_db()
    assert ada.user == alice and not Player.objects.filter(user=bob).exists()


def test_an_expired_link_is_refused(event, orga, alice):
    _, (ada, *_) = event
    issued = issue(orga, ada)
    expired_at = timezone.now() - timedelta(minutes=1)
    ClaimLink.objects.filter(pk=issued.link.pk).update(expires_at=expired_at)
    message = f"this claim link expired on {expired_at:%Y-%m-%d %H:%M} UTC: ask an organizer for a new one"
    assert error(api_for(alice).post("/api/claims/redeem/", {"token": issued.token}, format="json")) == (
        409,
        "conflict",
        message,
    )
    response = browser_for(alice).post(f"/claims/{issued.token}/")
    assert (response.status_code, refusal(response)) == (409, sentence(message))
    ada.refresh_from_db()
    assert ada.user is None


def test_a_user_who_has_a_player_cannot_claim_another(event, orga, alice):
    _, (ada, bea, *_) = event
    services.my_player_create(user=alice, name="Alice")
    token = issue(orga, ada).token
    response = browser_for(alice).get(f"/claims/{token}/")
    assert (response.status_code, refusal(response)) == (409, sentence(ALREADY.format("Alice")))
    assert error(api_for(alice).post("/api/claims/redeem/", {"token": token}, format="json")) == (
        409,
        "conflict",
        ALREADY.format("Alice"),
    )
    ada.refresh_from_db()
    assert ada.user is None and ClaimLink.objects.get().used_at is None
    assert Player.objects.get(user=alice).name == "Alice"


def test_a_link_to_a_player_claimed_meanwhile_is_refused(event, orga, alice, bob):
    _, (ada, *_) = event
    first, second = issue(orga, ada).token, issue(orga, ada).token
    services.claim_redeem(user=alice, token=first)
    assert error(api_for(bob).post("/api/claims/redeem/", {"token": second}, format="json")) == (
        409,
        "conflict",
        "Ada already belongs to an account",
    )


def test_a_link_to_a_player_turned_bot_is_refused(event, orga, alice):
    _, (ada, *_) = event
    token = issue(orga, ada).token
    Player.objects.filter(pk=ada.pk).update(kind="bot")
    assert error(api_for(alice).post("/api/claims/redeem/", {"token": token}, format="json")) == (
        400,
        "invalid",
        "Ada is a bot: only people can be claimed",
    )


def test_an_unknown_token_is_refused(alice):
    response = browser_for(alice).get("/claims/not-a-token/")
    assert (response.status_code, refusal(response)) == (
        404,
        "No such claim link: check that you copied all of it.",
    )
    assert error(api_for(alice).post("/api/claims/redeem/", {"token": "nope"}, format="json")) == (
        400,
        "invalid",
        "no such claim link: check that you copied all of it",
    )


def test_redeeming_needs_a_login(event, orga):
    _, (ada, *_) = event
    token = issue(orga, ada).token
    response = Client().post(f"/claims/{token}/")
    assert response["Location"] == f"/accounts/login/?next=/claims/{token}/"
    assert error(api_for().post("/api/claims/redeem/", {"token": token}, format="json"))[:2] == (
        401,
        "not_authenticated",
    )
    assert ClaimLink.objects.get().used_at is None


def test_the_api_redeems_a_link(event, orga, alice):
    _, (ada, *_) = event
    token = issue(orga, ada).token
    response = api_for(alice).post("/api/claims/redeem/", {"token": token}, format="json")
    assert (response.status_code, response.json()["name"]) == (200, "Ada")
    me = api_for(alice).get("/api/me/").json()
    assert me["player"]["name"] == "Ada"
    assert [event["tournament_name"] for event in me["events"]] == ["Club Night"]
