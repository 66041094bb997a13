"""The Redis cache: Django's, keeping one client per connection pool.

Django's ``RedisCacheClient.get_client`` makes a new ``redis.Redis`` at every cache
call, and each copies redis-py's table of some 200 response callbacks: about a tenth of
a millisecond of CPU a call, and a request makes several (a throttle's count, the
idle-poll stamp, presence). A ``redis.Redis`` is safe to share between threads (each
command takes a connection from the pool), and its pool starts afresh in a forked
process (a worker's pool processes), so one per pool serves the whole process.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class ReusingRedisCacheClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}  # by the id of their pool, which lives as long

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Django's own attributes, which its type stubs leave out.
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            make = self._client  # type: ignore[attr-defined]
            client = self._clients[id(pool)] = make(connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient
