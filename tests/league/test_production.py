"""Production settings: only a real SECRET_KEY, HSTS and the HTTPS redirect from the environment, a clean
`check --deploy`; and the strict readers of the new knobs (numbers, rates, the cache)."""

import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from league.settings import env
from league.settings.base import cache_from_url, check_secret

GOOD_SECRET = "Zq8vN3mK1xR7bT5wL2cY9hJ4dF6gP0sA8eU3iO7oV1nM5kB2qW"  # 50 characters, 43 distinct
HTTPS_VARIABLES = {
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
    "SECURE_HSTS_PRELOAD": "1",
    "SECURE_SSL_REDIRECT": "1",
}
WEAK = "SECRET_KEY is a development or short secret"


def test_a_random_50_character_secret_is_accepted():
    assert (len(GOOD_SECRET), check_secret(GOOD_SECRET)) == (50, GOOD_SECRET)


@pytest.mark.parametrize(
    ("secret", "flaw"),
    [
        (
            "development-only-secret-not-for-production-x",
            "it contains the secret of the local or test settings",
        ),
        (" " * 32, "it has 32 characters, production needs at least 50"),
        ("a" * 32, "it has 32 characters, production needs at least 50"),
        ("a" * 50, "it has 1 distinct characters, production needs at least 5"),
        ("abcd" * 20, "it has 4 distinct characters, production needs at least 5"),
        (
            "development-only-secret-not-for-production" + GOOD_SECRET,
            "it contains the secret of the local or test",
        ),
        (GOOD_SECRET + "test-only-secret", "it contains the secret of the local or test settings"),
        ("django-insecure" + GOOD_SECRET, "it starts with django-insecure"),
    ],
)
def test_weak_and_development_secrets_are_refused_with_the_reason(secret, flaw):
    with pytest.raises(ImproperlyConfigured) as refused:
        check_secret(secret)
    assert str(refused.value).startswith(f"{WEAK} ({flaw}")
    assert "set a long random one" in str(refused.value)


def test_the_local_and_test_secrets_are_the_ones_refused():
    assert settings.SECRET_KEY == settings.TEST_SECRET_KEY == "test-only-secret"
    assert settings.LOCAL_SECRET_KEY == "development-only-secret-not-for-production"
    for secret in (settings.TEST_SECRET_KEY, settings.LOCAL_SECRET_KEY):
        with pytest.raises(ImproperlyConfigured, match=WEAK):
            check_secret(secret)


def deploy_check(**variables: str) -> subprocess.CompletedProcess:
    """`manage.py check --deploy` under production settings in an environment of `variables` alone (and PATH),
    so that nothing the test run set (e.g. DJANGO_ALLOW_ASYNC_UNSAFE for the browser tests) leaks in."""
    environment = {
        "PATH": os.environ["PATH"],
        "DJANGO_SETTINGS_MODULE": "league.settings.production",
        **variables,
    }
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=settings.BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_deploy_check_is_clean_with_a_good_secret_and_https_switched_on():
    checked = deploy_check(SECRET_KEY=GOOD_SECRET, **HTTPS_VARIABLES)
    assert checked.returncode == 0, checked.stderr
    assert "System check identified no issues (0 silenced)." in checked.stdout


def test_deploy_check_warns_while_hsts_and_the_redirect_are_off():
    checked = deploy_check(SECRET_KEY=GOOD_SECRET)
    output = checked.stdout + checked.stderr
    assert "security.W004" in output and "SECURE_HSTS_SECONDS" in output
    assert "security.W008" in output and "SECURE_SSL_REDIRECT" in output
    assert "System check identified 2 issues (0 silenced)." in output


@pytest.mark.parametrize("secret", ["development-only-secret-not-for-production-x", " " * 32, "a" * 32])
def test_production_refuses_to_start_with_a_weak_secret(secret):
    checked = deploy_check(SECRET_KEY=secret)
    assert checked.returncode != 0
    assert f"ImproperlyConfigured: {WEAK} (" in checked.stderr


def test_numbers_and_rates_from_the_environment_are_checked(monkeypatch):
    monkeypatch.setenv("PO_NUMBER", " 31536000 ")
    assert env.number("PO_NUMBER", 0) == 31536000
    for bad in ("-1", "1.5", "ten", "", "²"):
        monkeypatch.setenv("PO_NUMBER", bad)
        with pytest.raises(ImproperlyConfigured, match="PO_NUMBER must be a whole number of at least 0"):
            env.number("PO_NUMBER", 0)
    monkeypatch.setenv("PO_NUMBER", "0")
    with pytest.raises(ImproperlyConfigured, match="PO_NUMBER must be a whole number of at least 1, not '0'"):
        env.number("PO_NUMBER", 5, minimum=1)
    monkeypatch.delenv("PO_NUMBER")
    assert env.number("PO_NUMBER", 5, minimum=1) == 5

    monkeypatch.setenv("PO_RATE", "20/hour")
    assert env.rate("PO_RATE", "1/s") == "20/hour"
    for bad in ("20", "20/week", "/minute", "many/minute", "20/hour/2"):
        monkeypatch.setenv("PO_RATE", bad)
        with pytest.raises(
            ImproperlyConfigured, match="PO_RATE must be a count per second, minute, hour or day"
        ):
            env.rate("PO_RATE", "1/s")


def test_the_cache_is_local_memory_or_redis():
    assert cache_from_url("locmem://") == {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    assert cache_from_url("redis://cache.internal:6379/2") == {
        "BACKEND": "league.core.cache.RedisCache",
        "LOCATION": "redis://cache.internal:6379/2",
    }
    with pytest.raises(
        ImproperlyConfigured, match="CACHE_URL must be locmem:// or redis://host:port/db, not 'memcached://x'"
    ):
        cache_from_url("memcached://x")


def test_the_redis_cache_builds_one_client_per_pool_not_one_per_operation():
    """Django's Redis cache built a `redis.Redis` (and its table of callbacks) for every operation; ours
    keeps one per connection pool (league.core.cache). Building clients needs no server."""
    from league.core.cache import RedisCache

    backend = RedisCache("redis://cache.internal:6379/2", {})
    client = backend._cache.get_client()
    assert backend._cache.get_client("any key") is client
    assert backend._cache.get_client(write=True) is client  # one server: one pool for reads and writes
    assert client.connection_pool.connection_kwargs["host"] == "cache.internal"
    assert client.connection_pool.connection_kwargs["db"] == 2
