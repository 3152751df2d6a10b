"""How long things last: sessions (12 hours without a request, 14 days in all), API tokens (30, 90 or 365
days, chosen when made; an expired one answers 401 token_expired) and passwords (at least 12 characters).

Times are set by patching `django.utils.timezone.now`, which sessions, tokens and the services all read."""

import re
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.accounts import services
from league.accounts.models import TokenExpiry
from league.core.errors import UserError
from league.notifications.models import Notification
from tests.factories import UserFactory
from tests.league.accounts.conftest import PASSWORD, browser_for

T0 = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)
LOGIN_PAGE = "/accounts/login/?next=/me/"


@contextmanager
def at(moment: datetime):
    with mock.patch("django.utils.timezone.now", return_value=moment):
        yield


def logged_in_at(moment: datetime, user) -> Client:
    client = Client()
    with at(moment):
        response = client.post("/accounts/login/", {"username": user.username, "password": PASSWORD})
    assert (response.status_code, response["Location"]) == (302, "/me/")
    return client


def my_page_status(client: Client, moment: datetime) -> tuple[int, str]:
    with at(moment):
        response = client.get("/me/")
    return response.status_code, response.get("Location", "")


# ---------------------------------------------------------------------------------------------- sessions


def test_a_session_ends_after_12_hours_without_a_request(alice):
    client = logged_in_at(T0, alice)
    assert my_page_status(client, T0 + 12 * HOUR - timedelta(seconds=1)) == (200, "")
    last = T0 + 12 * HOUR - timedelta(seconds=1)
    assert my_page_status(client, last + 12 * HOUR + timedelta(seconds=1)) == (302, LOGIN_PAGE)


def test_each_request_moves_the_idle_limit_on_so_a_polling_page_keeps_the_session(alice):
    client = logged_in_at(T0, alice)
    for minutes in range(15, 24 * 60, 15):  # a live page fetching itself, for a day
        with at(T0 + timedelta(minutes=minutes)):
            assert client.get("/").status_code == 200
    last_poll = T0 + timedelta(minutes=24 * 60 - 15)
    assert my_page_status(client, last_poll + 12 * HOUR - timedelta(seconds=1)) == (200, "")


def test_the_session_is_saved_at_most_once_a_minute(alice):
    """(The embed, which reads no user, saves no session at all: tests/league/tournaments/test_room.py.)"""
    client = logged_in_at(T0, alice)
    stored = Session.objects.get()

    def expiry_after_a_request(moment: datetime) -> datetime:
        with at(moment):
            assert client.get("/").status_code == 200
        return Session.objects.get(pk=stored.pk).expire_date

    assert expiry_after_a_request(T0 + timedelta(seconds=59)) == T0 + 12 * HOUR  # saved at the log-in
    assert expiry_after_a_request(T0 + timedelta(seconds=60)) == T0 + timedelta(seconds=60) + 12 * HOUR
    assert expiry_after_a_request(T0 + timedelta(seconds=90)) == T0 + timedelta(seconds=60) + 12 * HOUR


def test_a_session_ends_14_days_after_its_log_in_whatever_the_requests(alice):
    client = logged_in_at(T0, alice)
    moment = T0
    while moment < T0 + timedelta(days=14) - 11 * HOUR:
        moment += 11 * HOUR
        assert my_page_status(client, moment) == (200, "")
    assert my_page_status(client, T0 + timedelta(days=14) - timedelta(seconds=1)) == (200, "")
    assert my_page_status(client, T0 + timedelta(days=14)) == (302, LOGIN_PAGE)
    # a new log-in starts a new 14 days
    again = logged_in_at(T0 + timedelta(days=14), alice)
    assert my_page_status(again, T0 + timedelta(days=27)) == (302, LOGIN_PAGE)  # idle for 13 days
    fresh = logged_in_at(T0 + timedelta(days=27), alice)
    assert my_page_status(fresh, T0 + timedelta(days=27, hours=1)) == (200, "")


def test_a_session_from_before_the_rule_gets_its_14_days_from_its_next_request(alice):
    client = browser_for(alice)
    session = client.session
    del session["logged_in_at"]
    session.save()
    # the session was saved just now and lasts 12 hours from then
    soon = datetime.now(UTC).replace(microsecond=0) + timedelta(minutes=1)
    assert my_page_status(client, soon) == (200, "")
    assert client.session["logged_in_at"] == int(soon.timestamp())
    assert my_page_status(client, soon + timedelta(days=14)) == (302, LOGIN_PAGE)


# ------------------------------------------------------------------------------------------------ tokens


def browser_at(moment: datetime, user) -> Client:
    with at(moment):
        return browser_for(user)


def token_from(response) -> str:
    return re.search(r'id="token-key">(\w+)<', response.content.decode()).group(1)


def api_get(key: str, moment: datetime, client: APIClient | None = None):
    with at(moment):
        return (client or APIClient()).get("/api/me/", HTTP_AUTHORIZATION=f"Token {key}")


def test_a_token_lasts_the_days_chosen_on_my_page_then_answers_401_token_expired(alice):
    client = browser_at(T0, alice)
    with at(T0):
        assert '<option value="90" selected>90 days</option>' in client.get("/me/").content.decode()
        created = client.post("/me/token/", {"days": "30"})
    assert '<strong id="token-expires">2027-03-31 09:00</strong> UTC' in created.content.decode()
    key = token_from(created)
    with at(T0 + HOUR):
        page = client.get("/me/").content.decode()
    assert (
        'You have a token, created 2027-03-01 09:00 UTC; it expires on <strong id="token-expires">'
        "2027-03-31 09:00</strong> UTC." in page
    )
    assert api_get(key, T0 + timedelta(days=30) - timedelta(seconds=1)).json()["username"] == "alice"
    expired = api_get(key, T0 + timedelta(days=30))
    assert (expired.status_code, expired["WWW-Authenticate"], expired.json()) == (
        401,
        "Token",
        {
            "code": "token_expired",
            "detail": "this API token expired on 2027-03-31 09:00 UTC: make a new one on your page (/me/)",
            "errors": [],
        },
    )
    client = browser_at(T0 + timedelta(days=31), alice)
    with at(T0 + timedelta(days=31)):
        page = client.get("/me/").content.decode()
    assert 'it expired on <strong id="token-expires">2027-03-31 09:00</strong> UTC.' in page


@pytest.mark.parametrize(
    ("days", "expires"), [(None, "2027-05-30 09:00"), ("90", "2027-05-30 09:00"), ("365", "2028-02-29 09:00")]
)
def test_a_token_lasts_90_days_unless_chosen_otherwise(alice, days, expires):
    with at(T0):
        created = browser_at(T0, alice).post("/me/token/", {} if days is None else {"days": days})
    assert f'<strong id="token-expires">{expires}</strong>' in created.content.decode()
    assert TokenExpiry.objects.get(token__user=alice).days == int(days or 90)


@pytest.mark.parametrize("days", ["7", "0", "-30", "90.0", "x" * 1000, "\x00"])
def test_any_other_lifetime_is_refused_on_the_page(alice, days):
    response = browser_for(alice).post("/me/token/", {"days": days})
    assert response.status_code == 400
    assert "is not one of the available choices." in response.content.decode()
    assert not Token.objects.exists()


@pytest.mark.parametrize("days", [7, 0, True, "ninety", 10**30, 90.5])
def test_the_service_refuses_any_other_lifetime(alice, days):
    with pytest.raises(UserError, match=r"^an API token lasts 30, 90 or 365 days$") as refused:
        services.api_token_create(user=alice, days=days)
    assert refused.value.field == "days"
    assert not Token.objects.exists()


def test_an_expired_token_is_not_counted_as_a_guess(alice, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "failed_token": "3/hour",
        },
    }
    with at(T0):
        key = services.api_token_create(user=alice, days=30).key
    statuses = [api_get(key, T0 + timedelta(days=31)).status_code for _ in range(5)]
    assert statuses == [401] * 5
    assert [api_get("f" * 40, T0 + timedelta(days=31)).status_code for _ in range(4)] == [401, 401, 401, 429]


def test_a_token_made_by_other_means_expires_after_the_default_90_days(alice):
    with at(T0):
        key = Token.objects.create(user=alice).key
    assert api_get(key, T0 + timedelta(days=90) - timedelta(seconds=1)).status_code == 200
    assert api_get(key, T0 + timedelta(days=90)).json()["code"] == "token_expired"


def test_the_api_makes_a_token_for_a_logged_in_session_only(alice):
    session = APIClient()
    with at(T0):
        session.force_login(alice, backend="django.contrib.auth.backends.ModelBackend")
    with at(T0):
        made = session.post("/api/me/token/", {"days": 365}, format="json")
    assert made.status_code == 201
    body = made.json()
    assert body["expires_at"] == "2028-02-29T09:00:00Z"
    assert Token.objects.get(user=alice).key == body["token"]
    with at(T0):
        default = session.post("/api/me/token/", {}, format="json")
    assert (default.status_code, default.json()["expires_at"]) == (201, "2027-05-30T09:00:00Z")
    with at(T0):
        refused = session.post("/api/me/token/", {"days": 7}, format="json")
    body = refused.json()
    assert (refused.status_code, body["code"], body["field"], body["detail"]) == (
        400,
        "invalid",
        "days",
        "an API token lasts 30, 90 or 365 days",
    )
    key = Token.objects.get(user=alice).key
    by_token = APIClient().post("/api/me/token/", {}, format="json", HTTP_AUTHORIZATION=f"Token {key}")
    assert (by_token.status_code, by_token.json()["detail"]) == (
        403,
        "a token cannot make a new token: log in, and make it on your page (/me/)",
    )
    assert Token.objects.get(user=alice).key == key
    visitor = APIClient().post("/api/me/token/", {}, format="json")
    assert (visitor.status_code, visitor.json()["code"]) == (401, "not_authenticated")


def test_staff_make_a_token_in_the_admin_with_its_lifetime(alice):
    admin = get_user_model().objects.create_superuser("root", "root@secret.example", PASSWORD)
    client = browser_at(T0, admin)
    old = services.api_token_create(user=alice).key
    with at(T0):
        response = client.post("/admin/authtoken/tokenproxy/add/", {"user": alice.pk, "days": "365"})
    assert response.status_code == 302
    token = Token.objects.select_related("expiry").get(user=alice)
    assert token.key != old
    assert (token.expiry.days, token.expiry.expires_at) == (365, T0 + timedelta(days=365))
    with at(T0):
        refused = client.post("/admin/authtoken/tokenproxy/add/", {"user": alice.pk, "days": "7"})
        listing = client.get("/admin/authtoken/tokenproxy/").content.decode()
    assert refused.status_code == 200
    assert "Select a valid choice. 7 is not one of the available choices." in refused.content.decode()
    assert "2028-02-29 09:00 UTC" in listing


def migration_named(executor: MigrationExecutor, suffix: str) -> tuple[str, str]:
    nodes = executor.loader.graph.nodes
    return next(key for key in nodes if key[0] == "accounts" and key[1].endswith(suffix))


@pytest.fixture
def back_to_latest():
    """Every app at its latest migration after the test: going back unapplied the later migrations that depend
    on the one tested, and the tests after it (a worker's, say) read the same database."""
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    yield
    MigrationExecutor(connection).migrate(latest)


@pytest.mark.django_db(transaction=True)
def test_existing_tokens_get_365_days_and_their_owners_are_told(back_to_latest):
    executor = MigrationExecutor(connection)
    target = migration_named(executor, "_existing_tokens_expire")
    before = sorted(executor.loader.graph.node_map[target].parents)
    before = [parent.key for parent in before]
    executor.migrate(before)
    old_apps = executor.loader.project_state(before).apps
    user = old_apps.get_model("auth", "User").objects.create(username="olduser")
    old_apps.get_model("authtoken", "Token").objects.create(key="a" * 40, user_id=user.pk)
    UserFactory(username="tokenless")
    with at(T0):
        MigrationExecutor(connection).migrate([target])
    expiry = TokenExpiry.objects.get(token_id="a" * 40)
    assert (expiry.days, expiry.expires_at) == (365, T0 + timedelta(days=365))
    assert list(Notification.objects.values_list("user__username", "kind", "text", "link")) == [
        (
            "olduser",
            "account",
            "API tokens expire now. Yours works until 2028-02-29 09:00 UTC (365 days): make a new one on "
            "your page before then.",
            "/me/",
        )
    ]
    MigrationExecutor(connection).migrate(executor.loader.graph.leaf_nodes())  # the pages read later tables
    client = browser_for(get_user_model().objects.get(username="olduser"))
    inbox = client.get("/notifications/").content.decode()
    assert "News about my account" in inbox and "Yours works until 2028-02-29 09:00 UTC" in inbox


# --------------------------------------------------------------------------------------------- passwords


def test_a_new_password_has_at_least_12_characters_and_is_not_common(alice):
    client = browser_for(alice)

    def change(new: str):
        return client.post(
            "/accounts/password/", {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
        )

    short = change("eleven char")
    assert short.status_code == 400
    assert "This password is too short. It must contain at least 12 characters." in short.content.decode()
    common = change("password1234")
    assert common.status_code == 400
    assert "This password is too common." in common.content.decode()
    assert change("twelve chars").status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("twelve chars")
    with pytest.raises(UserError, match="at least 12 characters"):
        services.check_password("eleven char", username="zoe", email="zoe@secret.example")
