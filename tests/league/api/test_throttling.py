"""API throttles: 429 with Retry-After and a JSON body, per client address for visitors and bad tokens,
per user for signed-in users; rates are settings."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from tests.factories import UserFactory

BAD_TOKEN = "Token " + "0" * 40


class Clock:
    """The throttles' clock, moved by hand."""

    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(SimpleRateThrottle, "timer", staticmethod(clock))
    return clock


@pytest.fixture
def rates(settings):
    """Set some throttle rates, the others keeping their defaults."""

    def rates(**changed):
        framework = settings.REST_FRAMEWORK
        settings.REST_FRAMEWORK = {
            **framework,
            "DEFAULT_THROTTLE_RATES": {**framework["DEFAULT_THROTTLE_RATES"], **changed},
        }

    return rates


def get(path="/api/games/", *, address="1.2.3.4", token=None, **headers):
    client = APIClient()
    if token is not None:
        client.credentials(HTTP_AUTHORIZATION=token)
    return client.get(path, REMOTE_ADDR=address, **headers)


def token_of(user) -> str:
    return f"Token {Token.objects.create(user=user).key}"


def assert_throttled(response, seconds):
    assert response.status_code == 429
    assert response["Retry-After"] == str(seconds)
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "code": "throttled",
        "detail": f"Request was throttled. Expected available in {seconds} seconds.",
        "errors": [],
    }


def test_the_default_rates_are_generous(settings):
    assert settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] == {
        "anon": "600/minute",
        "user": "1200/minute",
        "failed_token": "30/hour",
    }


def test_three_bad_tokens_lock_that_address_out_of_token_auth(db, rates, clock):
    rates(failed_token="3/hour")
    good = token_of(UserFactory())
    assert [get(token=BAD_TOKEN).status_code for _ in range(3)] == [401, 401, 401]

    assert_throttled(get(token=BAD_TOKEN), 3600)
    assert_throttled(get(token=good), 3600)
    assert get().status_code == 200
    assert get(token=good, address="5.6.7.8").status_code == 200
    assert get(token=BAD_TOKEN, address="5.6.7.8").status_code == 401

    clock.now += 600
    assert_throttled(get(token=BAD_TOKEN), 3000)
    clock.now += 3000
    assert get(token=good).status_code == 200
    assert get(token=BAD_TOKEN).status_code == 401


def test_good_tokens_do_not_count_as_failures(db, rates, clock):
    rates(failed_token="2/hour")
    good = token_of(UserFactory())
    assert [get(token=good).status_code for _ in range(5)] == [200] * 5
    assert [get(token=BAD_TOKEN).status_code for _ in range(2)] == [401, 401]
    assert_throttled(get(token=good), 3600)


def test_failed_tokens_behind_a_trusted_proxy_count_per_forwarded_address(db, settings, rates, clock):
    settings.TRUSTED_PROXY_COUNT = 1
    rates(failed_token="2/hour")
    proxy = {"address": "10.0.0.1"}
    assert [get(token=BAD_TOKEN, HTTP_X_FORWARDED_FOR="1.2.3.4", **proxy).status_code for _ in range(2)] == [
        401,
        401,
    ]
    assert_throttled(get(token=BAD_TOKEN, HTTP_X_FORWARDED_FOR="1.2.3.4", **proxy), 3600)
    assert get(token=BAD_TOKEN, HTTP_X_FORWARDED_FOR="5.6.7.8", **proxy).status_code == 401


def test_forged_forwarded_addresses_do_not_escape_the_failed_token_limit(db, rates, clock):
    rates(failed_token="2/hour")
    assert [get(token=BAD_TOKEN, HTTP_X_FORWARDED_FOR=f"9.9.9.{n}").status_code for n in range(2)] == [
        401,
        401,
    ]
    assert_throttled(get(token=BAD_TOKEN, HTTP_X_FORWARDED_FOR="9.9.9.9"), 3600)


def test_visitors_are_limited_per_address(db, rates, clock):
    rates(anon="2/minute")
    assert [get().status_code for _ in range(2)] == [200, 200]
    assert_throttled(get(), 60)
    assert_throttled(get("/api/players/"), 60)
    assert get(address="5.6.7.8").status_code == 200
    assert_throttled(get(HTTP_X_FORWARDED_FOR="5.6.7.8"), 60)
    clock.now += 60
    assert get().status_code == 200


def test_signed_in_users_are_limited_per_user_not_by_the_visitor_rate(db, rates, clock):
    rates(anon="1/minute", user="3/minute")
    ann, bob = token_of(UserFactory()), token_of(UserFactory())
    assert [get(token=ann).status_code for _ in range(3)] == [200, 200, 200]
    assert_throttled(get(token=ann, address="5.6.7.8"), 60)
    assert get(token=bob).status_code == 200
