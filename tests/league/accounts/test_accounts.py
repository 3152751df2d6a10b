"""Accounts on the pages: sign up, log in and out (through the log-in lockout), change and reset a password
(mails in Django's outbox, throttled with one neutral answer), delete an account (the player stays)."""

import re

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from rest_framework.authtoken.models import Token

from league.accounts import services
from league.matches.models import MatchSeat
from league.players.models import Player
from tests.factories import MatchFactory, PlayerFactory, UserFactory
from tests.league.accounts.conftest import PASSWORD, api_for, browser_for

User = get_user_model()
GOOD = "correct horse 9"
SIGN_UP = "/accounts/signup/"
LOGIN = "/accounts/login/"
RESET = "/accounts/password/reset/"
NEUTRAL = "If an account uses that address, a link to set a new password is on its way there."


def sign_up(client, **fields):
    values = {"username": "zoe", "email": "zoe@secret.example", "password1": GOOD, "password2": GOOD}
    return client.post(SIGN_UP, {**values, **fields})


def field_errors(response) -> dict[str, list[str]]:
    return {name: list(errors) for name, errors in response.context["form"].errors.items()}


# ------------------------------------------------------------------------------------------------ sign up


def test_sign_up_shows_one_error_per_bad_field(alice):
    response = sign_up(
        Client(), username="bad name!", email="ALICE@secret.example", password1="123", password2="123"
    )
    assert response.status_code == 400
    assert field_errors(response) == {
        "username": [
            "Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters."
        ],
        "password2": [
            "This password is too short. It must contain at least 12 characters.",
            "This password is too common.",
            "This password is entirely numeric.",
        ],
    }
    assert not User.objects.filter(username="bad name!").exists()


@pytest.mark.parametrize(
    ("fields", "errors"),
    [
        ({"username": "ALICE"}, {"username": ["A user with that username already exists."]}),
        ({"email": "not-an-address"}, {"email": ["Enter a valid email address."]}),
        ({"password2": "something else 9"}, {"password2": ["The two password fields didn’t match."]}),
        (
            {"password1": "zoe@secret.example", "password2": "zoe@secret.example"},
            {"password2": ["The password is too similar to the email address."]},
        ),
        (
            {"username": "", "email": ""},
            {"username": ["This field is required."], "email": ["This field is required."]},
        ),
    ],
)
def test_sign_up_refuses_each_bad_field_with_djangos_message(alice, fields, errors):
    response = sign_up(Client(), **fields)
    assert (response.status_code, field_errors(response)) == (400, errors)
    assert User.objects.count() == 1


def test_the_service_checks_every_field_too(alice):
    with pytest.raises(Exception, match="another account uses that email address") as refused:
        services.account_create(username="zoe", email="Alice@SECRET.example", password=GOOD)
    assert refused.value.field == "email"
    with pytest.raises(Exception, match="that username is taken: choose another"):
        services.account_create(username="Alice", email="new@secret.example", password=GOOD)
    with pytest.raises(Exception, match="This password is too short"):
        services.account_create(username="zoe", email="zoe@secret.example", password="short")


def test_a_signed_in_user_is_sent_from_sign_up_to_my_page(alice):
    response = browser_for(alice).get(SIGN_UP)
    assert (response.status_code, response["Location"]) == (302, "/me/")


# ------------------------------------------------------------------------------------------ log in and out


def test_the_header_links_to_this_log_in_and_to_sign_up(db):
    page = Client().get("/players/").content.decode()
    assert '<a href="/accounts/login/?next=/players/" id="log-in">Log in</a>' in page
    assert '<a href="/accounts/signup/" id="sign-up">Sign up</a>' in page
    assert "/admin/login/" not in page


def test_log_in_goes_to_next_or_my_page_and_the_header_shows_log_out(alice):
    client = Client()
    assert client.get(LOGIN).status_code == 200
    response = client.post(LOGIN, {"username": "alice", "password": PASSWORD, "next": "/matches/"})
    assert (response.status_code, response["Location"]) == (302, "/matches/")
    page = client.get("/players/").content.decode()
    assert '<a href="/me/" id="my-page"><bdi>alice</bdi></a>' in page
    assert 'action="/accounts/logout/"' in page and 'id="log-out">Log out</button>' in page
    response = Client().post(LOGIN, {"username": "alice", "password": PASSWORD})
    assert response["Location"] == "/me/"


def test_a_wrong_password_is_a_form_error(alice):
    response = Client().post(LOGIN, {"username": "alice", "password": "wrong"})
    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == [
        "Please enter a correct username and password. Note that both fields may be case-sensitive."
    ]


def test_log_in_goes_through_the_lockout(alice):
    statuses = [
        Client().post(LOGIN, {"username": "alice", "password": "wrong"}, REMOTE_ADDR="1.2.3.4").status_code
        for _ in range(5)
    ]
    assert statuses == [400, 400, 400, 400, 429]
    locked = Client().post(LOGIN, {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="1.2.3.4")
    assert (locked.status_code, locked["Retry-After"]) == (429, "900")
    assert "<h1>Log-in paused</h1>" in locked.content.decode()
    assert (
        Client().post(LOGIN, {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="5.6.7.8").status_code
        == 302
    )


def test_log_out_is_a_post_that_ends_the_session(alice):
    client = browser_for(alice)
    assert client.get("/accounts/logout/").status_code == 405
    response = client.post("/accounts/logout/")
    assert (response.status_code, response["Location"]) == (302, "/")
    assert client.get("/me/")["Location"] == "/accounts/login/?next=/me/"
    assert "You are logged out." in client.get("/").content.decode()


def test_forms_carry_csrf_protection(alice):
    client = Client(enforce_csrf_checks=True)
    assert client.post(LOGIN, {"username": "alice", "password": PASSWORD}).status_code == 403
    assert client.post(SIGN_UP, {"username": "x"}).status_code == 403
    for url in (SIGN_UP, LOGIN, RESET):
        assert 'name="csrfmiddlewaretoken"' in client.get(url).content.decode()


# -------------------------------------------------------------------------------------- password change


def test_password_change_needs_the_old_password_and_keeps_the_session(alice):
    client = browser_for(alice)
    response = client.post(
        "/accounts/password/", {"old_password": "wrong", "new_password1": GOOD, "new_password2": GOOD}
    )
    assert response.status_code == 400
    assert field_errors(response) == {
        "old_password": ["Your old password was entered incorrectly. Please enter it again."]
    }
    response = client.post(
        "/accounts/password/", {"old_password": PASSWORD, "new_password1": GOOD, "new_password2": GOOD}
    )
    assert (response.status_code, response["Location"]) == (302, "/me/")
    alice.refresh_from_db()
    assert alice.check_password(GOOD)
    assert "Your password is changed." in client.get("/me/").content.decode()
    assert Client().get("/accounts/password/")["Location"] == "/accounts/login/?next=/accounts/password/"


# --------------------------------------------------------------------------------------- password reset


def test_password_reset_mails_a_link_that_sets_a_new_password(alice):
    response = Client().post(RESET, {"email": "ALICE@secret.example"})
    assert (response.status_code, response["Location"]) == (302, "/accounts/password/reset/sent/")
    assert NEUTRAL in Client().get(response["Location"]).content.decode()
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert (message.to, message.subject) == (["alice@secret.example"], "Pecking Order: set a new password")
    assert message.from_email == "Pecking Order <no-reply@localhost>"
    link = re.search(r"http://localhost:8000(/accounts/password/reset/\S+/)", message.body).group(1)

    client = Client()
    form_page = client.get(link, follow=True)
    assert form_page.status_code == 200 and "Set a new password" in form_page.content.decode()
    set_url = form_page.redirect_chain[-1][0]
    response = client.post(set_url, {"new_password1": GOOD, "new_password2": GOOD})
    assert (response.status_code, response["Location"]) == (302, "/accounts/login/")
    alice.refresh_from_db()
    assert alice.check_password(GOOD)
    again = Client().get(link, follow=True).content.decode()
    assert "This reset link does not work" in again


def test_an_unknown_address_gets_the_same_answer_and_no_mail(alice):
    response = Client().post(RESET, {"email": "nobody@secret.example"})
    assert (response.status_code, response["Location"]) == (302, "/accounts/password/reset/sent/")
    assert mail.outbox == []


def test_the_fourth_reset_in_an_hour_sends_nothing_and_reads_the_same(alice):
    answers = [
        Client().post(RESET, {"email": "alice@secret.example"}, REMOTE_ADDR=f"10.0.0.{n}") for n in range(4)
    ]
    assert [(answer.status_code, answer["Location"]) for answer in answers] == [
        (302, "/accounts/password/reset/sent/")
    ] * 4
    assert len(mail.outbox) == 3
    assert NEUTRAL in Client().get(answers[3]["Location"]).content.decode()


def test_the_limit_is_per_address_whatever_its_case_and_per_account(alice, bob, settings):
    for email in (
        "alice@secret.example",
        "Alice@Secret.Example",
        "ALICE@SECRET.EXAMPLE",
        "alice@secret.example",
    ):
        Client().post(RESET, {"email": email})
    assert len(mail.outbox) == 3
    Client().post(RESET, {"email": "bob@secret.example"})
    assert [message.to for message in mail.outbox[3:]] == [["bob@secret.example"]]


def test_one_client_asking_for_many_addresses_is_stopped(alice, settings):
    settings.PASSWORD_RESET_REQUESTS_PER_CLIENT_HOUR = 2
    for email in ("x@secret.example", "y@secret.example", "alice@secret.example"):
        assert Client().post(RESET, {"email": email}, REMOTE_ADDR="9.9.9.9").status_code == 302
    assert mail.outbox == []
    Client().post(RESET, {"email": "alice@secret.example"}, REMOTE_ADDR="8.8.8.8")
    assert len(mail.outbox) == 1


def test_a_bad_address_is_a_form_error(db):
    response = Client().post(RESET, {"email": "not an address"})
    assert (response.status_code, field_errors(response)) == (
        400,
        {"email": ["Enter a valid email address."]},
    )


# ------------------------------------------------------------------------------------------ deletion


@pytest.fixture
def alice_plays(alice, submit):
    """alice plays as Alyx, who has a result against Bea."""
    alyx = PlayerFactory(name="Alyx", user=alice)
    match = MatchFactory(players=[alyx, PlayerFactory(name="Bea")], game_id="nacho_pile")
    submit(match, [1, 2])
    return alyx, match


def test_deleting_an_account_keeps_the_player_and_its_results(alice, alice_plays):
    alyx, match = alice_plays
    api_for(alice)  # alice has an API token
    client = browser_for(alice)
    page = client.get("/accounts/delete/").content.decode()
    assert "<strong>alice@secret.example</strong>" in page and "Alyx" in page
    response = client.post("/accounts/delete/", {"password": PASSWORD})
    assert (response.status_code, response["Location"]) == (302, "/")
    alice.refresh_from_db()
    assert (alice.username, alice.email, alice.is_active, alice.has_usable_password()) == (
        f"deleted user {alice.pk}",
        "",
        False,
        False,
    )
    alyx.refresh_from_db()
    assert (alyx.name, alyx.user_id) == ("Alyx", None)
    assert list(MatchSeat.objects.filter(match=match).values_list("player__name", "place")) == [
        ("Alyx", 1),
        ("Bea", 2),
    ]
    assert client.get("/me/")["Location"] == "/accounts/login/?next=/me/"
    assert Client().post(LOGIN, {"username": "alice", "password": PASSWORD}).status_code == 400
    assert api_for().get("/api/me/", HTTP_AUTHORIZATION="Token x").status_code == 401


def test_deletion_can_rename_the_player_to_former_player_n(alice, alice_plays):
    alyx, _ = alice_plays
    response = browser_for(alice).post("/accounts/delete/", {"password": PASSWORD, "forget_name": "on"})
    assert response.status_code == 302
    alyx.refresh_from_db()
    assert (alyx.name, alyx.slug, alyx.user_id) == (
        f"former player {alyx.pk}",
        f"former-player-{alyx.pk}",
        None,
    )
    assert Player.objects.filter(name="Alyx").count() == 0


def test_deletion_ends_every_session_and_token(alice, alice_plays):
    other_session = browser_for(alice)
    token_client = api_for(alice)
    assert token_client.get("/api/me/").status_code == 200
    browser_for(alice).post("/accounts/delete/", {"password": PASSWORD})
    assert other_session.get("/me/").status_code == 302
    assert token_client.get("/api/me/").status_code == 401
    assert not Token.objects.filter(user=alice).exists()


def test_deletion_needs_the_password(alice, alice_plays):
    response = browser_for(alice).post("/accounts/delete/", {"password": "wrong"})
    assert (response.status_code, field_errors(response)) == (
        400,
        {"password": ["that is not your password"]},
    )
    alice.refresh_from_db()
    assert alice.is_active and alice.username == "alice"
    assert Client().get("/accounts/delete/")["Location"] == "/accounts/login/?next=/accounts/delete/"


def test_a_deleted_name_cannot_be_signed_up_for(alice):
    services.account_delete(user=alice, password=PASSWORD)
    response = sign_up(Client(), username=f"deleted user {alice.pk}")
    assert response.status_code == 400 and list(field_errors(response)) == ["username"]
    # the deleted account's address is free again: the mail is a sign-up link, not "you have an account"
    assert sign_up(Client(), email="alice@secret.example")["Location"] == "/accounts/signup/sent/"
    assert [message.subject for message in mail.outbox] == ["Pecking Order: finish signing up"]


def test_deleting_an_organizers_account_keeps_the_tournament_sane(event, orga):
    tournament, _ = event
    services.account_delete(user=orga, password=PASSWORD)
    tournament.refresh_from_db()
    assert tournament.created_by.username == "staffer"
    organizers = tournament.organizers.order_by("pk").values_list("username", "is_active")
    assert list(organizers) == [("staffer", True), (f"deleted user {orga.pk}", False)]


def test_a_user_without_a_player_can_delete_their_account(bob):
    assert browser_for(bob).post("/accounts/delete/", {"password": PASSWORD}).status_code == 302
    assert User.objects.get(pk=bob.pk).username == f"deleted user {bob.pk}"
    assert UserFactory(username="bob").pk != bob.pk


@pytest.mark.parametrize("junk", ["\x00", "x" * 100_000, "ž" * 151])
def test_junk_in_any_account_form_is_a_400_never_a_500(alice, junk):
    client = browser_for(alice)
    answers = {
        "signup": Client().post(
            SIGN_UP, {"username": junk, "email": junk, "password1": junk, "password2": junk}
        ),
        "login": Client().post(LOGIN, {"username": junk, "password": junk}),
        "reset": Client().post(RESET, {"email": junk}),
        "player": client.post("/me/player/", {"name": junk}),
        "claim": client.post("/claims/new/", {"player": junk}),
        "redeem": client.post(f"/claims/{'t' * 300}/"),
        "delete": client.post("/accounts/delete/", {"password": junk}),
        "password": client.post(
            "/accounts/password/", {"old_password": junk, "new_password1": junk, "new_password2": junk}
        ),
    }
    # Three or four fields of 100,000 characters pass the 256 KiB cap on bodies: 413, unread.
    over_cap = 413 if len(junk) == 100_000 else 400
    assert {name: answer.status_code for name, answer in answers.items()} == {
        "signup": over_cap,
        "login": 400,
        "reset": 400,
        "player": 400,
        "claim": 400,
        "redeem": 404,
        "delete": 400,
        "password": over_cap,
    }


@pytest.mark.parametrize("url", [LOGIN, "/admin/login/"])
def test_a_user_name_longer_than_axes_column_is_counted_like_any_other(db, url):
    """axes records user names in a 255-character column; a longer one (PostgreSQL refuses to cut it) is
    recorded cut, so the failure counts and the fifth locks, instead of a 500."""
    name = "n" * 300
    statuses = [Client().post(url, {"username": name, "password": "x"}).status_code for _ in range(5)]
    assert statuses[-1] == 429 and all(status in (200, 400) for status in statuses[:-1])
    assert AccessAttempt.objects.get().username == "n" * 255
