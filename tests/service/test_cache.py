"""The Redis cache (lib/cache.py): one client per connection pool, shared by threads and
working in a forked process, and the settings use it."""

from __future__ import annotations

import os
import threading

import pytest
from django.conf import settings

from lib.cache import RedisCache

pytestmark = pytest.mark.skipif(
    not settings.REDIS_URL, reason="on Redis: the PostgreSQL and Redis pass of .ci/run"
)


@pytest.fixture
def cache() -> RedisCache:
    made = RedisCache(settings.REDIS_URL, {"KEY_PREFIX": f"test-cache-{os.getpid()}"})
    made.clear()
    return made


def test_the_settings_cache_is_this_one() -> None:
    assert settings.CACHES["default"]["BACKEND"] == "lib.cache.RedisCache"


def test_one_client_serves_every_call_and_every_thread(cache: RedisCache) -> None:
    first = cache._cache.get_client(write=True)
    cache.set("a", 1)
    assert cache.incr("a") == 2 and cache.get("a") == 2
    clients = []

    def count() -> None:
        for _ in range(50):
            cache.incr("a")
        clients.append(cache._cache.get_client(write=True))

    threads = [threading.Thread(target=count) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert cache.get("a") == 202  # no count lost between threads
    assert all(client is first for client in clients)


def test_a_forked_process_uses_the_cache_on_connections_of_its_own(cache: RedisCache) -> None:
    cache.set("parent", "here")  # the pool holds a connection before the fork
    pid = os.fork()
    if pid == 0:  # the child: as a worker's pool process
        try:
            cache.set("child", "there")
            os._exit(0 if cache.get("parent") == "here" else 1)
        except BaseException:
            os._exit(2)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert cache.get("child") == "there" and cache.get("parent") == "here"
