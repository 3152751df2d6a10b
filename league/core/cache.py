"""Django's Redis cache, keeping one client object per connection pool.

Django's `RedisCacheClient.get_client` builds a new `redis.Redis` for every cache operation; building one
fills its table of about 170 response callbacks, which cost more than the round trip itself for a small value
(a fifth of a player's path page, rendered, in one process; docs/production.md). A `redis.Redis` is safe to
share between threads for plain commands (its pool hands each command a connection), and each process has its
own (the pool checks its process id), so one per pool is kept and reused.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient


class RedisCacheClient(DjangoRedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Django's own private methods and attribute, which django-stubs leave out: same module, same version.
        index = self._get_connection_pool_index(write)  # type: ignore[attr-defined]  # not in the stubs
        client = self._clients.get(index)
        if client is None:
            pool = self._get_connection_pool(write)  # type: ignore[attr-defined]  # not in the stubs
            client = self._clients[index] = self._client(connection_pool=pool)  # type: ignore[attr-defined]  # not in the stubs
        return client


class RedisCache(DjangoRedisCache):
    """settings.CACHES' backend for `redis://` URLs (`league.settings.base.cache_from_url`)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
