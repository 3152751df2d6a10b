"""Failed logins are locked per (user name, client address) and, more loosely, per address; the client
address believes X-Forwarded-For only as far as TRUSTED_PROXY_COUNT says."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.test import Client, RequestFactory
from django.utils import timezone

from league.core.throttling import client_address
from tests.factories import StaffFactory, UserFactory

ORGANIZER_LOGIN = "/accounts/login/"
ADMIN_LOGIN = "/admin/login/"
PASSWORD = "pass-word-123"


@pytest.fixture
def users(db):
    """alice and bob, both with PASSWORD."""
    return [UserFactory(username=name) for name in ("alice", "bob")]


def log_in(username, password, *, address="1.2.3.4", url=ORGANIZER_LOGIN, **headers):
    """POST the login form from `address` in a fresh client (no session carried between attempts)."""
    return Client().post(url, {"username": username, "password": password}, REMOTE_ADDR=address, **headers)


def fail(times, username, **kwargs):
    return [log_in(username, "wrong-password", **kwargs).status_code for _ in range(times)]


def assert_locked_out(response):
    assert response.status_code == 429
    assert response["Retry-After"] == "900"
    page = response.content.decode()
    assert "<h1>Log-in paused</h1>" in page
    assert "are paused for 15 minutes." in page


def test_the_defaults_lock_a_pair_after_5_failures_and_an_address_after_50_for_15_minutes(settings):
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert (settings.AXES_FAILURE_LIMIT, settings.LOGIN_ADDRESS_FAILURE_LIMIT) == (5, 300)
    assert settings.AXES_COOLOFF_TIME.total_seconds() == 15 * 60
    assert settings.TRUSTED_PROXY_COUNT == 0


def test_five_failures_lock_alice_from_that_address_only(users):
    assert fail(5, "alice") == [400, 400, 400, 400, 429]

    assert_locked_out(log_in("alice", PASSWORD))
    elsewhere = log_in("alice", PASSWORD, address="5.6.7.8")
    assert (elsewhere.status_code, elsewhere["Location"]) == (302, "/me/")
    assert log_in("bob", PASSWORD).status_code == 302


def test_a_failed_login_under_the_limit_shows_the_form_error(users):
    response = log_in("alice", "wrong-password")
    assert response.status_code == 400
    assert "Please enter a correct username and password" in response.content.decode()


def test_a_successful_login_clears_the_pairs_failures(users):
    assert fail(4, "alice") == [400] * 4
    assert log_in("alice", PASSWORD).status_code == 302
    assert fail(4, "alice") == [400] * 4
    assert log_in("alice", PASSWORD).status_code == 302


def test_an_address_trying_many_names_is_locked_for_every_name(settings, users):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 8
    assert fail(4, "carol") + fail(3, "dave") == [400] * 7
    assert fail(1, "erin") == [429]

    assert_locked_out(log_in("alice", PASSWORD))
    assert log_in("alice", PASSWORD, address="5.6.7.8").status_code == 302


def test_the_lock_ends_after_the_cool_off(users, monkeypatch):
    assert fail(5, "alice") == [400, 400, 400, 400, 429]
    later = timezone.now() + timedelta(minutes=16)
    monkeypatch.setattr("axes.handlers.proxy.now", lambda: later)
    assert log_in("alice", PASSWORD).status_code == 302


def test_the_admin_login_locks_the_same_way(db):
    StaffFactory(username="organizer")
    assert fail(5, "organizer", url=ADMIN_LOGIN) == [200, 200, 200, 200, 429]

    assert_locked_out(log_in("organizer", PASSWORD, url=ADMIN_LOGIN))
    assert log_in("organizer", PASSWORD, url=ADMIN_LOGIN, address="5.6.7.8").status_code == 302
    assert set(AccessAttempt.objects.values_list("username", "ip_address")) == {("organizer", "1.2.3.4")}


def test_behind_a_trusted_proxy_the_forwarded_address_is_locked(settings, users):
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = {"address": "10.0.0.1"}
    assert fail(5, "alice", HTTP_X_FORWARDED_FOR="1.2.3.4", **proxy) == [400, 400, 400, 400, 429]

    assert log_in("alice", PASSWORD, HTTP_X_FORWARDED_FOR="1.2.3.4", **proxy).status_code == 429
    assert log_in("alice", PASSWORD, HTTP_X_FORWARDED_FOR="5.6.7.8", **proxy).status_code == 302


def test_without_a_trusted_proxy_a_forged_forwarded_address_changes_nothing(users):
    forged = [
        log_in("alice", "wrong-password", HTTP_X_FORWARDED_FOR=f"9.9.9.{n}").status_code for n in range(5)
    ]
    assert forged == [400, 400, 400, 400, 429]
    assert log_in("alice", PASSWORD, HTTP_X_FORWARDED_FOR="5.6.7.8").status_code == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"1.2.3.4"}


@pytest.mark.parametrize(
    ("proxies", "forwarded", "address"),
    [
        (0, None, "10.0.0.1"),
        (0, "1.2.3.4", "10.0.0.1"),
        (1, None, "10.0.0.1"),
        (1, "1.2.3.4", "1.2.3.4"),
        (1, "6.6.6.6, 1.2.3.4", "1.2.3.4"),
        (2, "6.6.6.6, 1.2.3.4, 10.0.0.2", "1.2.3.4"),
        (2, "1.2.3.4", "1.2.3.4"),
        (1, " 2001:db8::1 ", "2001:db8::1"),
        (1, "not-an-address", "10.0.0.1"),
        (1, "1.2.3.4:5678", "10.0.0.1"),
    ],
)
def test_client_address_believes_only_what_trusted_proxies_wrote(settings, proxies, forwarded, address):
    settings.TRUSTED_PROXY_COUNT = proxies
    headers = {} if forwarded is None else {"HTTP_X_FORWARDED_FOR": forwarded}
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", **headers)
    assert client_address(request) == address
