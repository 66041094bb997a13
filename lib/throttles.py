"""The API's throttles, which let a request through when their counters are out of reach.

The counters live in the cache, which is Redis when ``REDIS_URL`` is set, shared by every
process of the deployment. Each counts the requests of a fixed window (the rate's
period) with the cache's ``add`` and ``incr``, which Redis does atomically: requests
arriving at once on several processes are each counted, where DRF's own history (read,
appended to, written back) lets simultaneous requests overwrite each other's count. A
client may spend one window's rate at its end and the next one's at its start.

A Redis outage must not answer every request with a 500: the request goes on uncounted
and the outage is logged.
"""

from __future__ import annotations

import logging
from typing import Any

from redis.exceptions import RedisError
from rest_framework import throttling

logger = logging.getLogger(__name__)


class FailOpen(throttling.SimpleRateThrottle):
    left = 0.0  # seconds until the window ends, when a request is refused
    num_requests: int  # set by DRF from the rate (it declares neither)
    duration: int

    def allow_request(self, request: Any, view: Any) -> bool:
        try:
            return self.counted(request, view)
        except (RedisError, OSError) as exc:
            logger.warning("throttling skipped, the cache is out of reach: %s", exc)
            return True

    def counted(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        now = self.timer()
        window = int(now // self.duration)
        key = f"{key}:{window}"
        self.cache.add(key, 0, self.duration + 1)
        try:
            count = self.cache.incr(key)
        except ValueError:  # it expired between the two
            self.cache.add(key, 1, self.duration + 1)
            count = 1
        self.left = (window + 1) * self.duration - now
        return bool(count <= self.num_requests)

    def wait(self) -> float:
        return max(self.left, 0.0)


class AnonRateThrottle(FailOpen, throttling.AnonRateThrottle):
    pass


class UserRateThrottle(FailOpen, throttling.UserRateThrottle):
    pass
